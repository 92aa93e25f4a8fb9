package grounding

import (
	"math"
	"strconv"
)

// operand is a number a derivation may start from: a source number that the
// answer itself shows, or one the user wrote.
type operand struct {
	v     float64 // exact source value, in the unit the answer used
	pct   bool
	label string
	kind  SourceKind
	n     int32 // the entry it comes from
}

// maxVisible caps the visible operands of one answer.
const maxVisible = 64

var emptyIndex Index

// Check extracts the numbers of answer and grounds each against the index.
// Direct matches are tried first; with opt.AllowDerivations the numbers left
// over are tried as one arithmetic step from the operands described in the
// package documentation.
func (ix *Index) Check(answer string, opt Options) []Number {
	if ix == nil {
		ix = &emptyIndex
	}
	toks := extract(answer)
	mask := kindMask(opt.Kinds)
	var vis []operand
	for k := range toks {
		if op, ok := ix.matchDirect(&toks[k], mask); ok && opt.AllowDerivations {
			vis = addOperand(vis, op)
		}
	}
	if opt.AllowDerivations {
		if mask&kindBit(User) != 0 {
			for _, n := range ix.user {
				e := &ix.entries[n]
				vis = addOperand(vis, operand{v: e.value, pct: e.pct, label: ix.label(e, kindSlot(User)), kind: User, n: n})
			}
		}
		for k := range toks {
			if !toks[k].Grounded {
				ix.derive(&toks[k], vis, mask)
			}
		}
	}
	out := make([]Number, len(toks))
	for k := range toks {
		out[k] = toks[k].Number
	}
	return out
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
	sig       int
}

func (t *token) target(r int) target {
	rd := t.reads[r]
	x := rd.mant * t.scale
	tol := rd.tolerance()*t.scale + 1e-9*math.Max(1, x)
	return target{x: x, lo: x - tol, hi: x + tol, sig: rd.sig}
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
	return operand{v: v, pct: t.Percent || e.pct, label: lbl, kind: kind, n: n}
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
