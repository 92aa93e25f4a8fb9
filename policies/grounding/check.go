package grounding

import (
	"math"
	"strconv"
)

// operand is a number a derivation may start from: a source number that the
// answer itself shows, or one the user wrote.
type operand struct {
	v    float64 // exact source value, in the unit the answer used
	pct  bool
	kind SourceKind // the kind whose label reports it (see Index.opLabel)
	n    int32      // the entry it comes from
	unit string     // as the answer wrote it: a currency code, "-" for none; "" when not shown
}

// maxVisible caps the visible operands of one answer.
const maxVisible = 64

var emptyIndex Index

// Check extracts the numbers of answer and grounds each against the index.
// Direct matches are tried first; with opt.AllowDerivations the numbers left
// over are tried as one arithmetic step from the operands described in the
// package documentation, then as the total of a listed group, then in the
// low-precision tier (sparse.go).
func (ix *Index) Check(answer string, opt Options) []Number {
	if ix == nil {
		ix = &emptyIndex
	}
	c := checker{ix: ix, s: answer, opt: opt, mask: kindMask(opt.Kinds), toks: extract(answer)}
	c.direct()
	if opt.AllowDerivations {
		c.derive()
	}
	out := make([]Number, len(c.toks))
	for k := range c.toks {
		out[k] = c.toks[k].Number
	}
	return out
}

// checker holds the state of one Check.
type checker struct {
	ix       *Index
	s        string
	opt      Options
	mask     uint8
	toks     []token
	shown    []operand         // per token: its source number when grounded directly (n < 0: none)
	vis      []operand         // visible operands: shown, named, the user's
	named    []namedOp         // the operands named in the answer, by position
	chains   map[[3]int]*chain // the sets of the low-precision tier, by sentence and paragraph
	pool     []operand         // the whole pool when small (poolOperands)
	poolDone bool
}

// namedOp is a source number (entry n) whose quantity the answer names at
// pos.
type namedOp struct {
	n   int32
	pos int
}

func (c *checker) direct() {
	c.shown = make([]operand, len(c.toks))
	for k := range c.toks {
		op, ok := operand{}, false
		if !c.toks[k].out {
			op, ok = c.ix.matchDirect(&c.toks[k], c.mask)
		}
		if !ok {
			op.n = -2
		}
		c.shown[k] = op
		if ok && c.opt.AllowDerivations {
			c.vis = addOperand(c.vis, op)
		}
	}
}

func (c *checker) derive() {
	c.nameOperands()
	if c.mask&kindBit(User) != 0 {
		for _, n := range c.ix.user {
			e := &c.ix.entries[n]
			c.vis = addOperand(c.vis, operand{v: e.value, pct: e.pct, kind: User, n: n})
		}
	}
	for k := range c.toks {
		t := &c.toks[k]
		if t.out {
			continue // beyond float64: no source number equals it
		}
		if !t.Grounded {
			c.ix.derive(t, c.vis, c.mask)
		}
		if !t.Grounded {
			c.deriveLocal(k)
		}
	}
}

// maxNamedPerMention caps the source numbers one named quantity brings: the
// months of an aggregate, not a whole table.
const maxNamedPerMention = 24

// nameOperands collects the source numbers of the quantities the answer
// names (Options.Names), where it names them. They are operands of the
// sets of the low-precision tier, whose chance bound holds whatever their
// number — not of the visible tier, which has no bound: naming four
// quantities of a twelve-month result made 48 operands there, and 8–17% of
// invented 4-digit numbers one step from them (TestFalseGroundingRate).
func (c *checker) nameOperands() {
	mentions := c.opt.Names.find(c.s)
	if len(mentions) == 0 {
		return
	}
	byKey := map[string][]int32{}
	for _, m := range mentions {
		ns, ok := byKey[m.key]
		if !ok {
			ns = c.ix.namedEntries(m.key, c.mask)
			if len(ns) > maxNamedPerMention {
				ns = ns[:maxNamedPerMention]
			}
			byKey[m.key] = ns
		}
		for _, n := range ns {
			c.named = append(c.named, namedOp{n: n, pos: m.pos})
		}
	}
}

func addOperand(vis []operand, op operand) []operand {
	if len(vis) >= maxVisible {
		return vis
	}
	for _, o := range vis {
		if o.v == op.v && o.pct == op.pct {
			return vis
		}
	}
	return append(vis, op)
}

// target is one reading of an answer number as an interval of absolute values.
type target struct {
	x, lo, hi float64
	half      float64 // half a unit of the last written place: the tolerance as written
	sig       int
}

func (t *token) target(r int) target {
	rd := t.reads[r]
	x := scaled(rd.mant, t.scale)
	half := rd.tolerance() * t.scale
	tol := half + 1e-9*math.Max(1, x)
	return target{x: x, lo: x - tol, hi: x + tol, half: half, sig: rd.sig}
}

func (g target) has(v float64) bool {
	v = math.Abs(v)
	return v >= g.lo && v <= g.hi
}

// matchDirect grounds t in a source number equal at the written precision,
// or in a ratio written as a percentage and back. It returns the source
// value as an operand for derivations.
func (ix *Index) matchDirect(t *token, mask uint8) (operand, bool) {
	for r := 0; r < t.nreads; r++ {
		g := t.target(r)
		tol := g.hi - g.x
		if n, ok := ix.find(&ix.abs, g.x, tol, mask, nil); ok {
			return t.ground(ix, r, n, mask, asIs, ""), true
		}
		if t.Percent {
			if n, ok := ix.find(&ix.asPct, g.x, tol, mask, nil); ok {
				return t.ground(ix, r, n, mask, asPercent, fmtNum(ix.entries[n].value)+" as %"), true
			}
		} else if g.lo <= 1 {
			if n, ok := ix.find(&ix.asRatio, g.x, tol, mask, nil); ok {
				return t.ground(ix, r, n, mask, asRatio, fmtNum(ix.entries[n].value)+"% as ratio"), true
			}
		}
	}
	return operand{}, false
}

// How a matched source value is converted to the unit of the answer.
const (
	asIs      = iota
	asPercent // a ratio written as a percentage: × 100
	asRatio   // a percentage written as a ratio: / 100
)

// ground records a match of reading r of t against entry n, converted by conv.
func (t *token) ground(ix *Index, r int, n int32, mask uint8, conv int, derivation string) operand {
	t.useReading(r)
	e := &ix.entries[n]
	v := e.value
	switch conv {
	case asPercent:
		v = e.value * 100
	case asRatio:
		v = e.value / 100
	}
	lbl, kind := ix.labelFor(n, mask)
	t.Grounded, t.Source, t.SourceKind, t.Derivation = true, lbl, kind, derivation
	unit := t.Currency
	if unit == "" {
		unit = "-"
	}
	return operand{v: v, pct: t.Percent || e.pct, kind: kind, n: n, unit: unit}
}

// useReading makes reading r the one reported.
func (t *token) useReading(r int) {
	if r != 0 {
		t.reads[0], t.reads[r] = t.reads[r], t.reads[0]
		t.setValue()
	}
}

func fmtNum(v float64) string {
	if a := math.Abs(v); a != 0 && (a < 1e-4 || a >= 1e15) {
		return strconv.FormatFloat(v, 'g', 10, 64)
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}
