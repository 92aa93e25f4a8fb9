package grounding

import (
	"math"
	"slices"
	"sync"
)

// maxOperands caps the source numbers that take part in pairwise
// derivations (the first ones, in source order). Direct matches and
// applied percentages use every source number.
const maxOperands = 200

// entry is one distinct source number.
type entry struct {
	value  float64
	pct    bool
	multi  bool     // seen at more than one source position
	kinds  uint8    // kindBit of every source kind it was seen in
	pos    int32    // the source position it was first seen at
	labels [3]int32 // per kind in kindOrder: where it was first seen, an index into Index.refs
}

// labelRef is a label, built only when reported: the source name and, for a
// JSON number, its path (a span of Index.paths).
type labelRef struct {
	src      int32
	off, end int32
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
	poolCut int     // the derivation operands are the operandOK entries before poolCut
	logOnce sync.Once
	poolLog keys     // ln|value| of the derivation operands, built when first needed
	user    []int32  // entries seen in user messages
	names   []string // per source: "tool:execute_metric", "user", ...
	metrics []string // per source: the metric a JSON result is about (normKey), "" when none
	keys    []keyRef // the JSON key of every JSON number, for Options.Names
	groups  []groupTotal
	refs    []labelRef // labels of the entries
	paths   []byte     // JSON paths of the labels, back to back
}

// builder collects the entries. Numbers are deduplicated by (value,
// percent) in an open-addressing hash table; the JSON path of a number is
// copied into Index.paths only when the number is kept, and its label
// string is built only when Check reports it.
type builder struct {
	ix    *Index
	table []int32 // entry index + 1; 0 is empty
	shift uint
	pos   int32 // current source position: one per numeral or JSON number
}

// NewIndex collects the numbers of sources. Tool results that are JSON are
// walked value by value (numbers inside strings included) and labelled with
// their JSON path; other texts go through Extract.
func NewIndex(sources []Source) *Index {
	size := 0
	for i := range sources {
		size += len(sources[i].Content)
	}
	b := builder{ix: &Index{names: make([]string, 0, len(sources))}}
	b.init(size/32 + 16)
	for _, src := range sources {
		b.source(src)
	}
	b.ix.prepare()
	return b.ix
}

func (b *builder) init(n int) {
	slots, shift := 16, uint(60)
	for 3*slots < 4*n {
		slots <<= 1
		shift--
	}
	b.table, b.shift = make([]int32, slots), shift
	b.ix.entries = make([]entry, 0, n)
	b.ix.refs = make([]labelRef, 1, n+1) // refs[0]: no label
	b.ix.keys = make([]keyRef, 0, n)
	b.ix.paths = make([]byte, 0, 20*n)
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
	s := srcLabel{slot: kindSlot(kind), bit: kindBit(kind), src: int32(len(b.ix.names))}
	b.ix.names = append(b.ix.names, name)
	b.ix.metrics = append(b.ix.metrics, "")
	// A walk that finds the document invalid keeps what it added so far,
	// and the whole content is then read as text.
	if kind == Tool && looksJSON(src.Content) && walkJSON(src.Content, b, &s) {
		return
	}
	b.text(src.Content, &s, nil)
}

// srcLabel is what labels the numbers of one source.
type srcLabel struct {
	slot int
	bit  uint8
	src  int32 // index into Index.names
}

// text adds the numbers Extract finds in str, both readings of an ambiguous
// numeral at one source position.
func (b *builder) text(str string, s *srcLabel, path []byte) {
	for _, t := range extract(str) {
		b.pos++
		if t.out {
			continue // "1e999" grounds nothing
		}
		for r := 0; r < t.nreads; r++ {
			v := scaled(t.reads[r].mant, t.scale)
			if t.neg {
				v = -v
			}
			b.add(v, t.Percent, s, path)
		}
	}
}

// number adds a JSON number at its own source position and returns its
// entry (−1 when it is no finite number).
func (b *builder) number(v float64, pct bool, s *srcLabel, path []byte) int32 {
	b.pos++
	return b.add(v, pct, s, path)
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

func hashKey(v float64, pct bool) uint64 {
	h := math.Float64bits(v)
	if pct {
		h ^= 0x5bd1e9955bd1e995
	}
	return h * 0x9E3779B97F4A7C15
}

func (b *builder) add(v float64, pct bool, s *srcLabel, path []byte) int32 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return -1
	}
	v += 0 // fold -0 into 0
	mask := uint64(len(b.table) - 1)
	h := hashKey(v, pct) >> b.shift
	for {
		i := b.table[h&mask] - 1
		if i < 0 {
			break
		}
		e := &b.ix.entries[i]
		if e.value == v && e.pct == pct {
			if e.pos != b.pos {
				e.multi = true
			}
			if e.kinds&s.bit == 0 {
				e.kinds |= s.bit
				e.labels[s.slot] = b.label(s, path)
			}
			return i
		}
		h++
	}
	n := int32(len(b.ix.entries))
	b.table[h&mask] = n + 1
	b.ix.entries = append(b.ix.entries, entry{value: v, pct: pct, kinds: s.bit, pos: b.pos})
	b.ix.entries[n].labels[s.slot] = b.label(s, path)
	if 4*len(b.ix.entries) > 3*len(b.table) {
		b.grow()
	}
	return n
}

func (b *builder) grow() {
	b.table = make([]int32, 2*len(b.table))
	b.shift--
	mask := uint64(len(b.table) - 1)
	for i := range b.ix.entries {
		e := &b.ix.entries[i]
		h := hashKey(e.value, e.pct) >> b.shift
		for b.table[h&mask] != 0 {
			h++
		}
		b.table[h&mask] = int32(i) + 1
	}
}

// groupLabel records the label of a group total: the array's path, "[*]"
// and the key summed ("$.groups[*].value").
func (b *builder) groupLabel(s *srcLabel, path []byte, key string) int32 {
	ix := b.ix
	off := int32(len(ix.paths))
	ix.paths = append(append(ix.paths, path...), "[*]"...)
	if key != "" {
		ix.paths = append(append(ix.paths, '.'), key...)
	}
	ix.refs = append(ix.refs, labelRef{src: s.src, off: off, end: int32(len(ix.paths))})
	return int32(len(ix.refs) - 1)
}

// label records where the number being added was seen.
func (b *builder) label(s *srcLabel, path []byte) int32 {
	ix := b.ix
	off := int32(len(ix.paths))
	ix.paths = append(ix.paths, path...)
	ix.refs = append(ix.refs, labelRef{src: s.src, off: off, end: int32(len(ix.paths))})
	return int32(len(ix.refs) - 1)
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

// prepare builds the sorted views used by Check. One sort by |value| gives
// all of them: |value|×100 and |value|/100 keep that order, ln|value| too
// (see logs), and the signed order is the negative values by decreasing
// |value| followed by the positive ones.
func (ix *Index) prepare() {
	n := len(ix.entries)
	abs := make([]kv, n)
	nPct, nRatio, nPool, nNeg, cut := 0, 0, 0, 0, n
	for i := range ix.entries {
		e := &ix.entries[i]
		a := math.Abs(e.value)
		abs[i] = kv{a, int32(i)}
		switch {
		case e.pct:
			nRatio++
		case a <= 1:
			nPct++
		}
		if e.kinds&kindBit(User) != 0 {
			ix.user = append(ix.user, int32(i))
		}
		if cut == n && operandOK(e.value) {
			if e.value < 0 {
				nNeg++
			}
			if nPool++; nPool == maxOperands {
				cut = i + 1
			}
		}
	}
	slices.SortFunc(abs, func(a, b kv) int {
		switch {
		case a.k < b.k:
			return -1
		case a.k > b.k:
			return 1
		}
		return int(a.i - b.i)
	})
	// One backing array for the keys of all views, one for their entries.
	key := make([]float64, n+nPct+nRatio+nPool)
	idx := make([]int32, len(key))
	take := func(m int) keys {
		k := keys{key: key[:m:m], idx: idx[:m:m]}
		key, idx = key[m:], idx[m:]
		return k
	}
	ix.abs, ix.asPct, ix.asRatio, ix.pool = take(n), take(nPct), take(nRatio), take(nPool)
	ix.poolCut = cut
	ip, ir, neg, pos := 0, 0, nNeg, nNeg
	for ia, x := range abs {
		e := &ix.entries[x.i]
		ix.abs.key[ia], ix.abs.idx[ia] = x.k, x.i
		switch {
		case e.pct:
			ix.asRatio.key[ir], ix.asRatio.idx[ir] = x.k/100, x.i
			ir++
		case x.k <= 1:
			ix.asPct.key[ip], ix.asPct.idx[ip] = x.k*100, x.i
			ip++
		}
		if int(x.i) < cut && operandOK(e.value) {
			if e.value < 0 {
				neg--
				ix.pool.key[neg], ix.pool.idx[neg] = e.value, x.i
			} else {
				ix.pool.key[pos], ix.pool.idx[pos] = e.value, x.i
				pos++
			}
		}
	}
}

// logs returns the logarithms of the derivation operands, sorted; only
// derivations of the pool tier need them, so they are built on first use.
func (ix *Index) logs() *keys {
	ix.logOnce.Do(func() {
		k := makeKeys(len(ix.pool.key))
		n := 0
		for p, i := range ix.abs.idx {
			if int(i) < ix.poolCut && operandOK(ix.entries[i].value) {
				k.key[n], k.idx[n] = math.Log(ix.abs.key[p]), i
				n++
			}
		}
		ix.poolLog = k
	})
	return &ix.poolLog
}

type kv struct {
	k float64
	i int32
}

func makeKeys(n int) keys {
	return keys{key: make([]float64, n), idx: make([]int32, n)}
}

// operandOK reports whether v may be an operand of a derivation: zero and
// integers up to 10 are excluded, because one step from them reaches almost
// anything (x − 1, x × 2).
func operandOK(v float64) bool {
	a := math.Abs(v)
	return a != 0 && !(a <= 10 && a == math.Trunc(a))
}

// distinct reports whether entries a and b may be the two operands of one
// derivation: two different numbers at two different source positions. A
// number is never combined with itself, nor with the other reading of the
// same ambiguous numeral.
func (ix *Index) distinct(a, b int32) bool {
	if a < 0 || b < 0 {
		return true
	}
	if a == b {
		return false
	}
	ea, eb := &ix.entries[a], &ix.entries[b]
	return ea.pos != eb.pos || ea.multi || eb.multi
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
// mask, passes ok (when not nil) and is nearest to x.
func (ix *Index) find(k *keys, x, tol float64, mask uint8, ok func(n int32) bool) (int32, bool) {
	best, bestD := int32(-1), math.Inf(1)
	for p := k.lowerBound(x - tol); p < len(k.key) && k.key[p] <= x+tol; p++ {
		e := &ix.entries[k.idx[p]]
		if e.kinds&mask == 0 || ok != nil && !ok(k.idx[p]) {
			continue
		}
		if d := math.Abs(k.key[p] - x); d < bestD {
			best, bestD = k.idx[p], d
		}
	}
	return best, best >= 0
}

// labelFor returns the preferred label and kind of entry n among the kinds
// in mask.
func (ix *Index) labelFor(n int32, mask uint8) (string, SourceKind) {
	k := ix.kindFor(n, mask)
	if k == "" {
		return "", ""
	}
	return ix.label(&ix.entries[n], kindSlot(k)), k
}

// kindFor returns the preferred kind of entry n among the kinds in mask.
func (ix *Index) kindFor(n int32, mask uint8) SourceKind {
	e := &ix.entries[n]
	for _, k := range kindOrder {
		if e.kinds&mask&kindBit(k) != 0 {
			return k
		}
	}
	return ""
}

// refLabel returns the label a labelRef stands for.
func (ix *Index) refLabel(ref int32) string {
	r := ix.refs[ref]
	name := ix.names[r.src]
	if r.end == r.off {
		return name
	}
	return name + " " + string(ix.paths[r.off:r.end])
}

// label returns the label of e for the kind in slot: the source name and,
// for a JSON number, its path ("tool:execute_metric $.values.revenue").
func (ix *Index) label(e *entry, slot int) string {
	return ix.refLabel(e.labels[slot])
}
