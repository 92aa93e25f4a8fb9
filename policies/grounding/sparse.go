package grounding

import (
	"math"
	"slices"
)

// The low-precision tier. "61 in più", "72%", "about 2.5 times", "$2.9M":
// answers derive numbers that they write with two significant digits, below
// what the other tiers need. Whether such a number is evidence depends on
// how many one-step results the operands can produce: from the two numbers
// of a sentence, a handful; from sixty numbers, thousands.
//
// So the tier computes the chance itself. For a number written with a given
// precision, its shape is every number written the same way in the same
// decade ("72%" → the 90 two-digit percentages 10%–99%; "$2.9M" → 1.0M to
// 9.9M in steps of 0.1M). Of these, the reachable ones are those that some
// one-step result of the operands rounds to. A number is grounded when one
// step reaches it and fewer than sparseLimit of its shape are reachable:
// a number invented at random with that shape is grounded by chance with a
// probability below that limit.
//
// The operands are tried in sets that grow in a chain (see checker.sparse):
// the numbers the answer shows near the number, then with the quantities it
// names near it, then — when the sources hold at most maxSmallPool
// derivation operands — all of them.

// sparseLimit is the largest share of a number's shape that one step of
// the operands may reach for the number to be grounded in this tier: 1 in
// 20 for numbers with fewer than four significant digits, 1 in 100 from
// four on (where every tier together must stay below 2%).
func sparseLimit(sig int) float64 {
	if sig < 4 {
		return 0.05
	}
	return 0.01
}

// maxSmallPool is the size up to which the whole derivation pool is an
// operand set of this tier: "when the source holds few numbers".
const maxSmallPool = 24

// eachStep calls try with every one-step result of two distinct operands
// of ops that can stand for a number of the kind pct, with the operations
// of the visible tier (see pairSteps), until try returns true.
func (ix *Index) eachStep(ops []operand, pct bool, try func(d derivation, v float64) bool) bool {
	for i := range ops {
		for j := range ops {
			a, b := ops[i], ops[j]
			if i == j || a.v == b.v || !ix.distinct(a.n, b.n) {
				continue
			}
			stop := pairSteps(a, b, j > i, pct, func(op int, v float64) bool {
				return try(derivation{op, a, b}, math.Abs(v))
			})
			if stop {
				return true
			}
		}
	}
	return false
}

// stepMatch returns a step of ops whose result lies within the target.
func (ix *Index) stepMatch(ops []operand, g target, pct bool) (derivation, bool) {
	var found derivation
	ok := ix.eachStep(ops, pct, func(d derivation, v float64) bool {
		found = d
		return v >= g.lo && v <= g.hi
	})
	if ok && found.op == opDiff {
		found = orderDiff(found)
	}
	return found, ok
}

// reached returns the share of the numbers of the shape that some step of
// ops rounds to.
func (ix *Index) reached(ops []operand, sh shape, pct bool) float64 {
	var keys []float64
	ix.eachStep(ops, pct, func(_ derivation, v float64) bool {
		keys = sh.round(keys, v)
		return false
	})
	return sh.share(keys)
}

// round appends the number of the shape that v rounds to, if any.
func (sh shape) round(keys []float64, v float64) []float64 {
	if v >= sh.lo-sh.step/2 && v < sh.hi-sh.step/2 {
		keys = append(keys, math.Round(v/sh.step))
	}
	return keys
}

// share returns the share of the shape's numbers among keys (see round).
func (sh shape) share(keys []float64) float64 {
	slices.Sort(keys)
	return float64(len(slices.Compact(keys))) / sh.count()
}

// groundSparse grounds g in a step of ops when few numbers of its shape are
// steps of ops.
func (ix *Index) groundSparse(ops []operand, g target, sh shape, pct bool) (derivation, bool) {
	if len(ops) < 2 {
		return derivation{}, false
	}
	d, ok := ix.stepMatch(ops, g, pct)
	return d, ok && sh.rare(ix.reached(ops, sh, pct), g.x)
}

// shape describes the numbers written like a target: its decade and the
// step between two consecutive ones.
type shape struct {
	lo, hi, step float64
}

func shapeOf(g target) shape {
	step := 2 * g.half
	d := math.Floor(math.Log10(g.x))
	return shape{lo: math.Pow(10, d), hi: math.Pow(10, d+1), step: step}
}

// count is the number of numbers of the shape.
func (sh shape) count() float64 { return math.Max(1, (sh.hi-sh.lo)/sh.step) }

// sig is the number of significant digits the shape's numbers carry.
func (sh shape) sig(x float64) int {
	return len(fmtNum(math.Round(x / sh.step)))
}

// rare reports whether a number of this shape may be grounded in a set
// that reaches the given share of it.
func (sh shape) rare(share float64, x float64) bool {
	return share < sparseLimit(sh.sig(x))
}

// possible reports whether any set could ground a number of this shape:
// with fewer than twenty numbers in the shape (one significant digit), one
// reachable number is already one in ten.
func (sh shape) possible(x float64) bool {
	return 1/sh.count() < sparseLimit(sh.sig(x))
}
