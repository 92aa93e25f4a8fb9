package fallback

import (
	"container/list"
	"sync"

	"github.com/weirgw/weir/rules"
)

// lru is a fixed-size cache of successful answers, least recently used out first.
type lru struct {
	mu    sync.Mutex
	size  int
	order *list.List // front: most recent; values are *lruEntry
	items map[string]*list.Element
}

type lruEntry struct {
	key string
	ans rules.FallbackAnswer
}

func newLRU(size int) *lru {
	return &lru{size: size, order: list.New(), items: make(map[string]*list.Element, size)}
}

func (c *lru) get(key string) (rules.FallbackAnswer, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.items[key]
	if !ok {
		return rules.FallbackAnswer{}, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*lruEntry).ans, true
}

func (c *lru) add(key string, ans rules.FallbackAnswer) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[key]; ok {
		e.Value.(*lruEntry).ans = ans
		c.order.MoveToFront(e)
		return
	}
	c.items[key] = c.order.PushFront(&lruEntry{key: key, ans: ans})
	if c.order.Len() > c.size {
		old := c.order.Back()
		c.order.Remove(old)
		delete(c.items, old.Value.(*lruEntry).key)
	}
}

func (c *lru) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}
