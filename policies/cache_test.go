package policies

import (
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// TestVirtualCache pins the semantics topdown relies on: frames, undefined results and the
// memo, which only the bottom frame sees.
func TestVirtualCache(t *testing.T) {
	c := getCaches()
	defer putCaches(c)
	v := &c.virtual
	a, b := ast.MustParseRef("data.x.a"), ast.MustParseRef("data.x.b")
	one, two := ast.IntNumberTerm(1), ast.IntNumberTerm(2)
	v.memo = []memoEntry{{ref: b, hash: refHash(b), value: two}}

	buf := append(ast.Ref(nil), a...)
	v.Put(buf, one)
	buf[2] = ast.StringTerm("z") // the evaluator reuses its buffers: the key must be a copy
	if got, undef := v.Get(a); got != one || undef {
		t.Errorf("Get(a) = %v, %v", got, undef)
	}
	if got, _ := v.Get(b); got != two {
		t.Errorf("memo: Get(b) = %v", got)
	}
	if got, undef := v.Get(ast.MustParseRef("data.x.z")); got != nil || undef {
		t.Errorf("never cached: %v, %v", got, undef)
	}

	v.Push() // a `with`: nothing of the frame below is visible, the memo neither
	if got, _ := v.Get(a); got != nil {
		t.Errorf("pushed frame sees %v", got)
	}
	if got, _ := v.Get(b); got != nil {
		t.Errorf("pushed frame sees the memo: %v", got)
	}
	v.Put(a, nil)
	if got, undef := v.Get(a); got != nil || !undef {
		t.Errorf("undefined: %v, %v", got, undef)
	}
	v.Put(a, two) // once undefined, always undefined, as in topdown's cache
	if _, undef := v.Get(a); !undef {
		t.Error("a value after undefined")
	}
	if keys := v.Keys(); len(keys) != 1 || !keys[0].Equal(a) {
		t.Errorf("Keys() = %v", keys)
	}
	v.Pop()
	if got, undef := v.Get(a); got != one || undef {
		t.Errorf("after Pop: Get(a) = %v, %v", got, undef)
	}
}

// TestBaseCache: a read below a cached document is answered from it.
func TestBaseCache(t *testing.T) {
	var c baseCache
	doc := ast.MustParseTerm(`{"a": {"b": 1}, "c": [1, 2]}`).Value
	c.Put(ast.MustParseRef("data.weir"), doc)
	if got := c.Get(ast.MustParseRef("data.weir.a.b")); got == nil || got.Compare(ast.Number("1")) != 0 {
		t.Errorf("Get(data.weir.a.b) = %v", got)
	}
	if got := c.Get(ast.MustParseRef("data.weir.x")); got != nil {
		t.Errorf("missing key: %v", got)
	}
	if got := c.Get(ast.MustParseRef("data")); got != nil {
		t.Errorf("above the cached document: %v", got)
	}
	other := ast.MustParseTerm(`{"b": 2}`).Value
	c.Put(ast.MustParseRef("data.weir.a"), other) // the shorter cached prefix still answers
	if got := c.Get(ast.MustParseRef("data.weir.a.b")); got.Compare(ast.Number("1")) != 0 {
		t.Errorf("shortest prefix: %v", got)
	}
	c.Put(ast.MustParseRef("data.weir"), ast.MustParseTerm(`{"a": {"b": 3}}`).Value)
	if got := c.Get(ast.MustParseRef("data.weir.a.b")); got.Compare(ast.Number("3")) != 0 {
		t.Errorf("replaced: %v", got)
	}
}
