package grounding

import (
	"cmp"
	"math"
	"slices"
)

// maxOperands caps the source numbers that take part in pairwise
// derivations (the first ones, in source order). Direct matches and
// applied percentages use every source number.
const maxOperands = 200

// entry is one distinct source number.
type entry struct {
	value  float64
	pct    bool
	kinds  uint8     // kindBit of every source kind it was seen in
	labels [3]string // per kind in kindOrder: where it was first seen
}

// keys is a sorted search structure over entries.
type keys struct {
	key []float64
	idx []int32
}

// Index holds the numbers of a set of sources, prepared for checking;
// immutable and safe for concurrent use.
type Index struct {
	entries []entry // in order of first appearance
	abs     keys    // |value| of every entry
	asPct   keys    // |value|×100 of every ratio (|value| ≤ 1, not a percentage)
	asRatio keys    // |value|/100 of every percentage
	pool    keys    // signed value of the derivation operands
	poolLog keys    // ln|value| of the derivation operands
	user    []int32 // entries seen in user messages
}

type entryKey struct {
	v   float64
	pct bool
}

type builder struct {
	ix   *Index
	seen map[entryKey]int32
}

// NewIndex collects the numbers of sources. Tool results that are JSON are
// walked value by value (numbers inside strings included) and labelled with
// their JSON path; other texts go through Extract.
func NewIndex(sources []Source) *Index {
	b := builder{ix: &Index{}, seen: make(map[entryKey]int32)}
	for _, src := range sources {
		b.source(src)
	}
	b.ix.prepare()
	return b.ix
}

func (b *builder) source(src Source) {
	kind := src.Kind
	if kind != User && kind != System {
		kind = Tool
	}
	name := string(kind)
	if kind == Tool && src.Name != "" {
		name += ":" + src.Name
	}
	text := func(s string, path []byte) {
		for _, t := range extract(s) {
			for r := 0; r < t.nreads; r++ {
				v := t.reads[r].mant * t.scale
				if t.neg {
					v = -v
				}
				b.add(v, t.Percent, kind, name, path)
			}
		}
	}
	if kind == Tool && looksJSON(src.Content) {
		emit := func(v float64, pct bool, path []byte) { b.add(v, pct, kind, name, path) }
		if walkJSON(src.Content, emit, text) {
			return
		}
	}
	text(src.Content, nil)
}

func looksJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\r':
			continue
		case '{', '[':
			return true
		}
		return false
	}
	return false
}

func (b *builder) add(v float64, pct bool, kind SourceKind, name string, path []byte) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return
	}
	v += 0 // fold -0 into 0
	bit := kindBit(kind)
	slot := kindSlot(kind)
	k := entryKey{v, pct}
	if i, ok := b.seen[k]; ok {
		e := &b.ix.entries[i]
		if e.kinds&bit == 0 {
			e.kinds |= bit
			e.labels[slot] = label(name, path)
		}
		return
	}
	e := entry{value: v, pct: pct, kinds: bit}
	e.labels[slot] = label(name, path)
	b.seen[k] = int32(len(b.ix.entries))
	b.ix.entries = append(b.ix.entries, e)
}

func label(name string, path []byte) string {
	if len(path) == 0 {
		return name
	}
	return name + " " + string(path)
}

func kindSlot(k SourceKind) int {
	switch k {
	case User:
		return 1
	case System:
		return 2
	}
	return 0
}

// prepare builds the sorted views used by Check.
func (ix *Index) prepare() {
	var abs, pct, ratio, pool, plog []kv
	for i, e := range ix.entries {
		n := int32(i)
		a := math.Abs(e.value)
		abs = append(abs, kv{a, n})
		switch {
		case e.pct:
			ratio = append(ratio, kv{a / 100, n})
		case a <= 1:
			pct = append(pct, kv{a * 100, n})
		}
		if e.kinds&kindBit(User) != 0 {
			ix.user = append(ix.user, n)
		}
		if len(pool) < maxOperands && operandOK(e.value) {
			pool = append(pool, kv{e.value, n})
			plog = append(plog, kv{math.Log(a), n})
		}
	}
	ix.abs, ix.asPct, ix.asRatio = sortKeys(abs), sortKeys(pct), sortKeys(ratio)
	ix.pool, ix.poolLog = sortKeys(pool), sortKeys(plog)
}

type kv struct {
	k float64
	i int32
}

func sortKeys(s []kv) keys {
	slices.SortFunc(s, func(a, b kv) int { return cmp.Compare(a.k, b.k) })
	k := keys{key: make([]float64, len(s)), idx: make([]int32, len(s))}
	for i, e := range s {
		k.key[i], k.idx[i] = e.k, e.i
	}
	return k
}

// operandOK reports whether v may be an operand of a derivation: zero and
// integers up to 10 are excluded, because one step from them reaches almost
// anything (x − 1, x × 2).
func operandOK(v float64) bool {
	a := math.Abs(v)
	return a != 0 && !(a <= 10 && a == math.Trunc(a))
}

// lowerBound returns the first position whose key is ≥ x.
func (k *keys) lowerBound(x float64) int {
	lo, hi := 0, len(k.key)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if k.key[m] < x {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// find returns the entry whose key lies in [x−tol, x+tol], is visible to
// mask and is nearest to x.
func (ix *Index) find(k *keys, x, tol float64, mask uint8, operand bool) (int32, bool) {
	best, bestD := int32(-1), math.Inf(1)
	for p := k.lowerBound(x - tol); p < len(k.key) && k.key[p] <= x+tol; p++ {
		e := &ix.entries[k.idx[p]]
		if e.kinds&mask == 0 || operand && !operandOK(e.value) {
			continue
		}
		if d := math.Abs(k.key[p] - x); d < bestD {
			best, bestD = k.idx[p], d
		}
	}
	return best, best >= 0
}

// labelFor returns the preferred label and kind of e among the kinds in mask.
func (e *entry) labelFor(mask uint8) (string, SourceKind) {
	for s, k := range kindOrder {
		if e.kinds&mask&kindBit(k) != 0 {
			return e.labels[s], k
		}
	}
	return "", ""
}
