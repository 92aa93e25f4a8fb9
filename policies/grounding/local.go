package grounding

import "sort"

// deriveLocal tries the numbers no other tier grounded: as the total of a
// listed group when its sentence says so, then in the low-precision tier.
func (c *checker) deriveLocal(k int) {
	t := &c.toks[k]
	for r := 0; r < t.nreads; r++ {
		g := t.target(r)
		if g.lo <= 0 {
			continue
		}
		sh := shapeOf(g)
		if d, lbl, ok := c.groupTotal(t, g, sh); ok {
			t.useReading(r)
			t.Grounded, t.Derivation, t.Source, t.SourceKind = true, d, lbl, Tool
			return
		}
		if !sh.possible(g.x) {
			continue
		}
		if d, ok := c.sparse(t, g, sh); ok {
			t.useReading(r)
			t.Grounded, t.Derivation, t.SourceKind = true, d.text(), d.a.kind
			t.Source = d.a.label
			if d.b.label != "" && d.b.label != d.a.label {
				t.Source += "; " + d.b.label
			}
			return
		}
	}
}

// sparse tries the operand sets of the low-precision tier. They form a
// chain, each holding the one before: the numbers the answer shows in the
// sentence, the paragraph, the paragraph and the one before (the block);
// then the block's with the quantities named in the sentence, the
// paragraph, the block; then the whole pool when it is small. The share a
// set reaches grows along the chain, so the sets that may ground a number of
// some shape are a prefix of it, and all they reach together is what the
// last of them reaches: below sparseLimit.
func (c *checker) sparse(t *token, g target, sh shape) (derivation, bool) {
	sa, sb := sentenceOf(c.s, t.Start)
	pa, pb := paragraphOf(c.s, t.Start)
	qa, _ := paragraphOf(c.s, max(0, pa-2))
	prev := -1
	for _, r := range [...][4]int{{sa, sb, 0, 0}, {pa, pb, 0, 0}, {qa, pb, 0, 0}, {qa, pb, sa, sb}, {qa, pb, pa, pb}, {qa, pb, qa, pb}} {
		ops := c.localOperands(r)
		if len(ops) == prev {
			continue // the same set as the level before
		}
		prev = len(ops)
		if d, ok := c.ix.groundSparse(ops, g, sh, t.Percent); ok {
			return d, true
		}
	}
	return c.ix.groundSparse(c.poolOperands(), g, sh, t.Percent)
}

// maxLocalOperands caps the operands of one local set.
const maxLocalOperands = 32

// localOperands returns the numbers the answer shows in s[r[0]:r[1]] and
// the source numbers of the quantities it names in s[r[2]:r[3]].
func (c *checker) localOperands(r [4]int) []operand {
	if ops, ok := c.sets[r]; ok {
		return ops
	}
	var ops []operand
	k := sort.Search(len(c.toks), func(k int) bool { return c.toks[k].Start >= r[0] })
	for ; k < len(c.toks) && c.toks[k].Start < r[1] && len(ops) < maxLocalOperands; k++ {
		if c.shown[k].n >= 0 {
			ops = addOperand(ops, c.shown[k])
		}
	}
	k = sort.Search(len(c.named), func(k int) bool { return c.named[k].pos >= r[2] })
	for ; k < len(c.named) && c.named[k].pos < r[3] && len(ops) < maxLocalOperands; k++ {
		ops = addOperand(ops, c.named[k].op)
	}
	c.cache(r, ops)
	return ops
}

// poolOperands returns all derivation operands when the sources hold at
// most maxSmallPool of them, nil otherwise.
func (c *checker) poolOperands() []operand {
	key := [4]int{-1, -1, -1, -1}
	if ops, ok := c.sets[key]; ok {
		return ops
	}
	var ops []operand
	for _, n := range c.ix.pool.idx {
		if c.ix.entries[n].kinds&c.mask == 0 {
			continue
		}
		if len(ops) == maxSmallPool {
			ops = nil
			break
		}
		ops = append(ops, c.ix.operandOf(n, c.mask))
	}
	c.cache(key, ops)
	return ops
}

func (c *checker) cache(key [4]int, ops []operand) {
	if c.sets == nil {
		c.sets = map[[4]int][]operand{}
	}
	c.sets[key] = ops
}

// maxSpan bounds how far a sentence or paragraph is looked for, so that a
// text without punctuation costs no more than a punctuated one.
const maxSpan = 4096

// sentenceOf returns the sentence around byte p: bounded by a line break,
// or by '.', '!', '?', ';' followed by a space.
func sentenceOf(s string, p int) (int, int) {
	a := p
	for a > 0 && p-a < maxSpan && !sentenceEnd(s, a-1) {
		a--
	}
	b := p
	for b < len(s) && b-p < maxSpan && !sentenceEnd(s, b) {
		b++
	}
	return a, b
}

func sentenceEnd(s string, i int) bool {
	switch s[i] {
	case '\n':
		return true
	case '.', '!', '?', ';':
		return i+1 == len(s) || s[i+1] == ' ' || s[i+1] == '\n'
	}
	return false
}

// paragraphOf returns the paragraph around byte p: bounded by blank lines.
// A table or a list without blank lines is one paragraph.
func paragraphOf(s string, p int) (int, int) {
	a := p
	for a > 0 && p-a < maxSpan && !(s[a-1] == '\n' && blankLineEndingAt(s, a-1)) {
		a--
	}
	b := p
	for b < len(s) && b-p < maxSpan && !(s[b] == '\n' && blankLineAt(s, b+1)) {
		b++
	}
	return a, b
}

// blankLineEndingAt reports whether the line that ends with the newline at
// i is empty (spaces only).
func blankLineEndingAt(s string, i int) bool {
	for i--; i >= 0; i-- {
		switch s[i] {
		case ' ', '\t', '\r':
		case '\n':
			return true
		default:
			return false
		}
	}
	return true
}

// blankLineAt reports whether the line starting at i is empty (spaces only).
func blankLineAt(s string, i int) bool {
	for ; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\r':
		case '\n':
			return true
		default:
			return false
		}
	}
	return true
}
