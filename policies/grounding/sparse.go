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

// chain is the operand sets of the low-precision tier for one place of the
// answer, as one list: ops[i] belongs to the set of level tags[i] and to
// every later one (see checker.sparse).
type chain struct {
	ops  []operand
	tags []int8
}

// add appends op to the sets from level on, unless a set already has it.
func (ch *chain) add(op operand, level int8) {
	for _, o := range ch.ops {
		if o.v == op.v && o.pct == op.pct {
			return
		}
	}
	ch.ops = append(ch.ops, op)
	ch.tags = append(ch.tags, level)
}

// groundChain grounds g in one step of the chain: it finds the smallest set
// with a step that reaches g, and grounds g when few numbers of its shape
// are steps of that set. A larger set reaches at least as many, so no other
// set could ground g. Two passes over the pairs at most.
func (ix *Index) groundChain(ch *chain, g target, sh shape, pct bool) (derivation, bool) {
	none := int8(len(chainLevels) + 1)
	best, bi, bj, bop := none, 0, 0, 0
	ix.eachPair(ch, best, pct, func(i, j, op int, lvl int8, v float64) bool {
		if v >= g.lo && v <= g.hi && lvl < best {
			best, bi, bj, bop = lvl, i, j, op
		}
		return false
	})
	if best == none {
		return derivation{}, false
	}
	var keys []float64
	ix.eachPair(ch, best+1, pct, func(_, _, _ int, _ int8, v float64) bool {
		keys = sh.round(keys, v)
		return false
	})
	if !sh.rare(sh.share(keys), g.x) {
		return derivation{}, false
	}
	d := derivation{bop, ch.ops[bi], ch.ops[bj]}
	if d.op == opDiff {
		d = orderDiff(d)
	}
	return d, true
}

// eachPair calls f with every one-step result (absolute value) of two
// distinct operands of the sets below level below, with the operations of
// the visible tier (see pairSteps), and the level of the smallest set
// holding both.
func (ix *Index) eachPair(ch *chain, below int8, pct bool, f func(i, j, op int, lvl int8, v float64) bool) {
	for i := range ch.ops {
		if ch.tags[i] >= below {
			continue
		}
		for j := range ch.ops {
			a, b := &ch.ops[i], &ch.ops[j]
			lvl := max(ch.tags[i], ch.tags[j])
			if i == j || lvl >= below || a.v == b.v || !ix.distinct(a.n, b.n) {
				continue
			}
			pairSteps(a, b, j > i, pct, func(op int, v float64) bool {
				return f(i, j, op, lvl, math.Abs(v))
			})
		}
	}
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
