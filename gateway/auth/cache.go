package auth

import (
	"crypto/sha256"
	"sync"
	"time"
)

// tokenCache keeps the identities of verified tokens by the token's SHA-256 until they
// expire. It is bounded: when full, expired entries are dropped, and if none were, the
// whole cache is cleared (the next requests verify again). A nil cache (size -1) keeps
// nothing.
type tokenCache struct {
	mu  sync.RWMutex
	max int
	m   map[[sha256.Size]byte]cachedToken
}

type cachedToken struct {
	id    Identity
	until time.Time
}

func newTokenCache(size int) *tokenCache {
	if size <= 0 {
		return nil
	}
	return &tokenCache{max: size, m: make(map[[sha256.Size]byte]cachedToken)}
}

func (c *tokenCache) get(sum [sha256.Size]byte, now time.Time) (Identity, bool) {
	if c == nil {
		return Identity{}, false
	}
	c.mu.RLock()
	e, ok := c.m[sum]
	c.mu.RUnlock()
	if !ok || !now.Before(e.until) {
		return Identity{}, false
	}
	id := e.id
	id.Roles = append([]string{}, id.Roles...)
	return id, true
}

func (c *tokenCache) put(sum [sha256.Size]byte, id Identity, until time.Time) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= c.max {
		now := time.Now()
		for k, e := range c.m {
			if !now.Before(e.until) {
				delete(c.m, k)
			}
		}
		if len(c.m) >= c.max {
			clear(c.m)
		}
	}
	c.m[sum] = cachedToken{id: id, until: until}
}

func (c *tokenCache) clear() {
	if c == nil {
		return
	}
	c.mu.Lock()
	clear(c.m)
	c.mu.Unlock()
}
