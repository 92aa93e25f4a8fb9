package grounding

import "math"

// Significant digits a number must be written with before a derivation may
// ground it. The more candidate results a tier can produce, the more digits
// it needs; README.md has the measured false-grounding rates.
const (
	minSigVisible = 3 // both operands are visible: shown in the answer or written by the user
	minSigApply   = 5 // a visible percentage applied to any source number
	minSigPool    = 6 // any two of the first maxOperands source numbers
)

// derive tries to ground t as one arithmetic step. Only readings written
// with enough significant digits are tried, and every step must land within
// the written precision.
func (ix *Index) derive(t *token, vis []operand, mask uint8) {
	for r := 0; r < t.nreads; r++ {
		g := t.target(r)
		if g.sig < minSigVisible || g.lo <= 0 {
			continue
		}
		d, ok := ix.deriveVisible(g, t.Percent, vis)
		if !ok && !t.Percent && g.sig >= minSigApply {
			d, ok = ix.applyPercent(g, vis, mask)
		}
		if !ok && g.sig >= minSigPool {
			d, ok = ix.derivePool(g, t.Percent, mask)
		}
		if ok {
			t.useReading(r)
			ix.setDerived(t, d)
			return
		}
	}
}

// setDerived records that t is grounded by the step d: its text, and the
// labels of both operands as the source.
func (ix *Index) setDerived(t *token, d derivation) {
	t.Grounded, t.Derivation, t.SourceKind = true, d.text(), d.a.kind
	a, b := ix.opLabel(d.a), ix.opLabel(d.b)
	t.Source = a
	if b != "" && b != a {
		t.Source += "; " + b
	}
}

// opLabel returns the label of an operand, built only when reported.
func (ix *Index) opLabel(o operand) string {
	return ix.label(&ix.entries[o.n], kindSlot(o.kind))
}

// Operations of a derivation step.
const (
	opSum = iota
	opDiff
	opProd
	opRatio
	opRatioPct  // a / b as %
	opChangePct // (b − a) / a as %
	opAddPct    // a × (1 + b%)
	opSubPct    // a × (1 − b%)
	opOfPct     // a × b%
)

// derivation is a successful step; its text is built only when reported.
type derivation struct {
	op   int
	a, b operand
}

func (d derivation) text() string {
	a, b := fmtOperand(d.a), fmtOperand(d.b)
	switch d.op {
	case opSum:
		return a + " + " + b
	case opDiff:
		return a + " − " + b
	case opProd:
		return a + " × " + b
	case opRatio:
		return a + " / " + b
	case opRatioPct:
		return a + " / " + b + " as %"
	case opChangePct:
		return "(" + b + " − " + a + ") / " + a + " as %"
	case opAddPct:
		return a + " × (1 + " + b + ")"
	case opSubPct:
		return a + " × (1 − " + b + ")"
	}
	return a + " × " + b
}

func fmtOperand(o operand) string {
	if o.pct {
		return fmtNum(o.v) + "%"
	}
	return fmtNum(o.v)
}

// deriveVisible tries every step between two visible operands that are
// distinct source numbers (see Index.distinct).
func (ix *Index) deriveVisible(g target, pct bool, vis []operand) (derivation, bool) {
	for i := range vis {
		a := vis[i]
		for j := range vis {
			b := vis[j]
			if i == j || a.v == b.v {
				continue
			}
			if d, ok := visiblePair(g, pct, a, b, j > i); ok && ix.distinct(a.n, b.n) {
				return d, true
			}
		}
	}
	return derivation{}, false
}

func visiblePair(g target, pct bool, a, b operand, first bool) (derivation, bool) {
	found := 0
	ok := pairSteps(&a, &b, first, pct, func(op int, v float64) bool {
		found = op
		return g.has(v)
	})
	if !ok {
		return derivation{}, false
	}
	d := derivation{found, a, b}
	if d.op == opDiff && !pct {
		d = orderDiff(d)
	}
	return d, true
}

// pairSteps calls try with each step from a and b that may stand for a
// number of the kind pct (a percentage or not), until try returns true.
// Symmetric steps (sum, difference, product, points) are tried only when
// first is true, that is for one of the two orders of a pair. Percentages
// combine only into percentages, and a percentage is applied only to a
// number that is not one.
func pairSteps(a, b *operand, first, pct bool, try func(op int, v float64) bool) bool {
	both := operandOK(a.v) && operandOK(b.v)
	if pct {
		// A ratio or a change of a percentage and a number that is none (27.6% of
		// 160 orders) means nothing.
		if both && a.pct == b.pct && (try(opRatioPct, a.v/b.v*100) || sameSign(a.v, b.v) && try(opChangePct, (b.v-a.v)/a.v*100)) {
			return true
		}
		return a.pct && b.pct && first && (try(opSum, a.v+b.v) || try(opDiff, a.v-b.v))
	}
	if both && !a.pct && !b.pct {
		if first && sameUnit(*a, *b) && (try(opSum, a.v+b.v) || try(opDiff, a.v-b.v)) || first && try(opProd, a.v*b.v) {
			return true
		}
		if try(opRatio, a.v/b.v) {
			return true
		}
	}
	if b.pct && !a.pct && operandOK(a.v) {
		p := math.Abs(b.v)
		for _, s := range [...]struct {
			op int
			f  float64
		}{{opAddPct, 1 + p/100}, {opOfPct, p / 100}, {opSubPct, 1 - p/100}} {
			if s.f > 0 && try(s.op, a.v*s.f) {
				return true
			}
		}
	}
	return false
}

// sameUnit reports whether a and b may be added or subtracted: not when the
// answer wrote them in different units ("$4.37M" and "13" declarations). A
// number the answer does not show has no known unit.
func sameUnit(a, b operand) bool {
	return a.unit == "" || b.unit == "" || a.unit == b.unit
}

// orderDiff writes a difference with the larger operand first.
func orderDiff(d derivation) derivation {
	if d.a.v < d.b.v {
		d.a, d.b = d.b, d.a
	}
	return d
}

func sameSign(a, b float64) bool { return a > 0 && b > 0 || a < 0 && b < 0 }

// applyPercent grounds g as a visible percentage applied to any source
// number: a × (1 + p%), a × (1 − p%), a × p%. The number must not be a
// percentage itself ("50% × 50%" means nothing), nor the percentage's own
// source number.
func (ix *Index) applyPercent(g target, vis []operand, mask uint8) (derivation, bool) {
	for _, p := range vis {
		if !p.pct || p.v == 0 {
			continue
		}
		ok := func(n int32) bool {
			e := &ix.entries[n]
			return !e.pct && operandOK(e.value) && ix.distinct(n, p.n)
		}
		q := math.Abs(p.v) / 100
		for _, s := range [...]struct {
			op int
			f  float64
		}{{opAddPct, 1 + q}, {opOfPct, q}, {opSubPct, 1 - q}} {
			if s.f <= 0 {
				continue
			}
			x := g.x / s.f
			if n, found := ix.find(&ix.abs, x, (g.hi-g.x)/s.f, mask, ok); found {
				if e := &ix.entries[n]; g.has(e.value * s.f) {
					return derivation{s.op, ix.operandOf(n, mask), p}, true
				}
			}
		}
	}
	return derivation{}, false
}
