package policies

import (
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"
)

// OPA's evaluator caches the value of every rule it evaluates (the virtual cache) and every
// document it reads from the store (the base cache). Its own caches are tries of hash maps,
// allocated anew for every evaluation: for a decision, which touches a few dozen rules, that
// was a fifth of all allocations. The caches below keep the same semantics in flat slices
// that are reused across evaluations (cachePool), so a decision allocates none of it.
//
// A decision touches few refs, so a linear scan over entries, comparing a precomputed
// hash first, is faster than any map.

// evalCaches are the two caches of one evaluation.
type evalCaches struct {
	virtual virtualCache
	base    baseCache
	cancel  ctxCancel // the evaluation's cancellation (query.go), reused too
}

var cachePool = sync.Pool{New: func() any { return new(evalCaches) }}

func getCaches() *evalCaches {
	c := cachePool.Get().(*evalCaches)
	c.virtual.Push()
	return c
}

// putCaches resets the caches, dropping every reference to values of the evaluation, and
// returns them to the pool.
func putCaches(c *evalCaches) {
	c.virtual.reset()
	c.base.reset()
	c.cancel.done = nil
	c.cancel.cancelled.Store(false)
	cachePool.Put(c)
}

// cacheEntry is one cached ref. The ref's terms are copied into the cache's own term
// storage (terms[off:off+n]): the evaluator passes slices of buffers it reuses.
type cacheEntry struct {
	hash      int
	off, n    int
	value     *ast.Term // virtual cache
	base      ast.Value // base cache
	undefined bool
}

// refStore holds the copied refs of a cache.
type refStore struct {
	terms   []*ast.Term
	entries []cacheEntry
}

func (s *refStore) ref(e *cacheEntry) ast.Ref { return ast.Ref(s.terms[e.off : e.off+e.n]) }

func (s *refStore) add(ref ast.Ref, hash int) *cacheEntry {
	off := len(s.terms)
	s.terms = append(s.terms, ref...)
	s.entries = append(s.entries, cacheEntry{hash: hash, off: off, n: len(ref)})
	return &s.entries[len(s.entries)-1]
}

func (s *refStore) reset() {
	clear(s.terms)
	clear(s.entries)
	s.terms, s.entries = s.terms[:0], s.entries[:0]
}

// refHash hashes a ref; equal refs hash equally (ast.Value.Hash is consistent with
// ast.ValueEqual).
func refHash(ref ast.Ref) int {
	h := len(ref)
	for _, t := range ref {
		h = h*31 + t.Value.Hash()
	}
	return h
}

func refEqual(a, b ast.Ref) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].Equal(b[i]) {
			return false
		}
	}
	return true
}

// virtualCache implements topdown.VirtualCache: a stack of frames (a `with` pushes one),
// each mapping refs to a rule's value or to "undefined". Only the top frame is visible.
type virtualCache struct {
	refStore
	frames []int // index in entries where each frame starts

	// memo holds the intent's memoized library documents (memo.go). They belong to the
	// bottom frame only: a `with` pushes a frame that must evaluate everything afresh.
	memo []memoEntry

	// local holds this evaluation's alias values (alias.go), in the bottom frame too.
	local []memoEntry
}

func (c *virtualCache) Push() { c.frames = append(c.frames, len(c.entries)) }

// Pop drops the top frame and its entries.
func (c *virtualCache) Pop() {
	start := c.frames[len(c.frames)-1]
	c.frames = c.frames[:len(c.frames)-1]
	if start < len(c.entries) {
		off := c.entries[start].off
		clear(c.terms[off:])
		clear(c.entries[start:])
		c.terms, c.entries = c.terms[:off], c.entries[:start]
	}
}

func (c *virtualCache) find(ref ast.Ref, hash int) *cacheEntry {
	for i := len(c.entries) - 1; i >= c.frames[len(c.frames)-1]; i-- {
		e := &c.entries[i]
		if e.hash == hash && refEqual(c.ref(e), ref) {
			return e
		}
	}
	return nil
}

// Get returns (value, false) for a cached value, (nil, true) for a cached undefined and
// (nil, false) when the ref is not cached, as topdown's own cache does.
func (c *virtualCache) Get(ref ast.Ref) (*ast.Term, bool) {
	h := refHash(ref)
	e := c.find(ref, h)
	if e == nil {
		if len(c.frames) == 1 {
			for i := range c.memo {
				if m := &c.memo[i]; m.hash == h && refEqual(m.ref, ref) {
					return m.value, m.undefined
				}
			}
			for i := range c.local {
				if m := &c.local[i]; m.hash == h && refEqual(m.ref, ref) {
					return m.value, false
				}
			}
		}
		return nil, false
	}
	if e.undefined {
		return nil, true
	}
	return e.value, false
}

// Put records a value, or undefined when value is nil. Like topdown's cache, a ref once
// marked undefined stays undefined.
func (c *virtualCache) Put(ref ast.Ref, value *ast.Term) {
	h := refHash(ref)
	e := c.find(ref, h)
	if e == nil {
		e = c.add(ref, h)
	}
	if value != nil {
		e.value = value
	} else {
		e.undefined = true
	}
}

// Keys returns the refs with a value in the top frame.
func (c *virtualCache) Keys() []ast.Ref {
	var keys []ast.Ref
	for i := c.frames[len(c.frames)-1]; i < len(c.entries); i++ {
		if e := &c.entries[i]; e.value != nil {
			keys = append(keys, append(ast.Ref(nil), c.ref(e)...))
		}
	}
	return keys
}

func (c *virtualCache) reset() {
	c.refStore.reset()
	c.frames = c.frames[:0]
	c.memo = nil
	clear(c.local)
	c.local = c.local[:0]
}

// baseCache implements topdown.BaseCache: documents read from the store, by ref. A read
// below a cached document is answered from it, as in topdown's trie, where the shortest
// cached prefix of a ref answers.
type baseCache struct {
	refStore
}

func (c *baseCache) Get(ref ast.Ref) ast.Value {
	var best *cacheEntry
	for i := range c.entries {
		e := &c.entries[i]
		if e.n > len(ref) || (best != nil && e.n > best.n) {
			continue
		}
		if refEqual(c.ref(e), ref[:e.n]) {
			best = e // the latest of equal length wins, as a Put replaces the value
		}
	}
	if best == nil {
		return nil
	}
	if best.n == len(ref) {
		return best.base
	}
	v, err := best.base.Find(ref[best.n:])
	if err != nil {
		return nil
	}
	return v
}

func (c *baseCache) Put(ref ast.Ref, value ast.Value) {
	h := refHash(ref)
	for i := range c.entries {
		if e := &c.entries[i]; e.hash == h && refEqual(c.ref(e), ref) {
			e.base = value
			return
		}
	}
	c.add(ref, h).base = value
}
