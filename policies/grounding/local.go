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
		if !sh.possible(g.x) {
			continue // one digit: one reachable number is already one in nine
		}
		if d, lbl, ok := c.groupTotal(t, g, sh); ok {
			t.useReading(r)
			t.Grounded, t.Derivation, t.Source, t.SourceKind = true, d, lbl, Tool
			return
		}
		if d, ok := c.sparse(t, g, sh); ok {
			t.useReading(r)
			c.ix.setDerived(t, d)
			return
		}
	}
}

// chainLevels are the sets of the low-precision tier, each holding the
// one before: what the answer shows in the sentence ('s'), the paragraph
// ('p'), the paragraph and the one before (the block, 'b'); then the
// block's numbers with the quantities named in the sentence, the
// paragraph, the block.
var chainLevels = [...]struct{ shown, named byte }{{'s', 0}, {'p', 0}, {'b', 0}, {0, 's'}, {0, 'p'}, {0, 'b'}}

// sparse tries the low-precision tier: the chain of sets above, then the
// whole pool when it is small (it holds every other set). The share a set
// reaches grows along the chain, so the sets that may ground a number of
// some shape are a prefix of it, and all they reach together is what the
// last of them reaches: below sparseLimit.
func (c *checker) sparse(t *token, g target, sh shape) (derivation, bool) {
	return c.ix.groundChain(c.chainAt(t.Start), g, sh, t.Percent)
}

// maxLocalOperands caps the operands of the local sets of one chain.
const maxLocalOperands = 32

// chainAt returns the chain of sets around byte p of the answer.
func (c *checker) chainAt(p int) *chain {
	sa, sb := sentenceOf(c.s, p)
	pa, pb := paragraphOf(c.s, p)
	qa, _ := paragraphOf(c.s, max(0, pa-2))
	key := [3]int{sa, sb, pa}
	if ch, ok := c.chains[key]; ok {
		return ch
	}
	span := func(r byte) (int, int) {
		switch r {
		case 's':
			return sa, sb
		case 'p':
			return pa, pb
		case 'b':
			return qa, pb
		}
		return 0, 0
	}
	ch := &chain{}
	for lvl, l := range chainLevels {
		a, b := span(l.shown)
		c.addShown(ch, a, b, int8(lvl))
		a, b = span(l.named)
		c.addNamed(ch, a, b, int8(lvl))
	}
	for _, op := range c.poolOperands() {
		ch.add(op, int8(len(chainLevels)))
	}
	if c.chains == nil {
		c.chains = map[[3]int]*chain{}
	}
	c.chains[key] = ch
	return ch
}

// addShown adds the numbers the answer shows in s[a:b].
func (c *checker) addShown(ch *chain, a, b int, lvl int8) {
	k := sort.Search(len(c.toks), func(k int) bool { return c.toks[k].Start >= a })
	for ; k < len(c.toks) && c.toks[k].Start < b && len(ch.ops) < maxLocalOperands; k++ {
		if c.shown[k].n >= 0 {
			ch.add(c.shown[k], lvl)
		}
	}
}

// addNamed adds the source numbers of the quantities named in s[a:b].
func (c *checker) addNamed(ch *chain, a, b int, lvl int8) {
	k := sort.Search(len(c.named), func(k int) bool { return c.named[k].pos >= a })
	for ; k < len(c.named) && c.named[k].pos < b && len(ch.ops) < maxLocalOperands; k++ {
		ch.add(c.ix.operandOf(c.named[k].n, c.mask), lvl)
	}
}

// poolOperands returns all derivation operands when the sources hold at
// most maxSmallPool of them, nil otherwise.
func (c *checker) poolOperands() []operand {
	if c.poolDone {
		return c.pool
	}
	c.poolDone = true
	n := 0
	for _, e := range c.ix.pool.idx {
		if c.ix.entries[e].kinds&c.mask != 0 {
			n++
		}
	}
	if n > maxSmallPool {
		return nil
	}
	for _, e := range c.ix.pool.idx {
		if c.ix.entries[e].kinds&c.mask != 0 {
			c.pool = append(c.pool, c.ix.operandOf(e, c.mask))
		}
	}
	return c.pool
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
