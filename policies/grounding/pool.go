package grounding

import "math"

// derivePool grounds g as one step between any two derivation operands of
// the index (see maxOperands) that are distinct source numbers (see
// Index.distinct). As in the visible tier, a result that is no percentage is
// never computed from a percentage: "12.3% × 45.6%" means nothing. Sums and differences run a two-pointer sweep
// over the sorted values, products and ratios the same sweep over their
// logarithms, so a target costs O(n) per operation rather than O(n²).
func (ix *Index) derivePool(g target, pct bool, mask uint8) (derivation, bool) {
	var d derivation
	found := false
	val, lg := &ix.pool, ix.logs()
	take := func(k *keys, op int, swap bool, ok func(a, b float64) bool) func(i, j int) bool {
		return func(i, j int) bool {
			na, nb := k.idx[i], k.idx[j]
			ea, eb := &ix.entries[na], &ix.entries[nb]
			if ea.kinds&mask == 0 || eb.kinds&mask == 0 || !pct && (ea.pct || eb.pct) ||
				!ok(ea.value, eb.value) || !ix.distinct(na, nb) {
				return false
			}
			if swap {
				na, nb = nb, na
			}
			d = derivation{op: op, a: ix.operandOf(na, mask), b: ix.operandOf(nb, mask)}
			found = true
			return true
		}
	}
	llo, lhi := math.Log(g.lo)-1e-12, math.Log(g.hi)+1e-12
	if pct {
		pairDiff(lg.key, llo-math.Log(100), lhi-math.Log(100), take(lg, opRatioPct, false, func(a, b float64) bool { return g.has(a / b * 100) }))
		if !found {
			change := func(n, d float64) bool { return sameSign(n, d) && g.has((n-d)/d*100) }
			pairDiff(lg.key, math.Log1p(g.lo/100)-1e-12, math.Log1p(g.hi/100)+1e-12, take(lg, opChangePct, true, change))
			if !found && g.hi < 100 {
				pairDiff(lg.key, math.Log1p(-g.hi/100)-1e-12, math.Log1p(-g.lo/100)+1e-12, take(lg, opChangePct, true, change))
			}
		}
		return d, found
	}
	pairSum(val.key, g.lo, g.hi, take(val, opSum, false, func(a, b float64) bool { return g.has(a + b) }))
	if !found {
		pairSum(val.key, -g.hi, -g.lo, take(val, opSum, false, func(a, b float64) bool { return g.has(a + b) }))
	}
	if !found {
		pairDiff(val.key, g.lo, g.hi, take(val, opDiff, false, func(a, b float64) bool { return g.has(a - b) }))
	}
	if !found {
		pairSum(lg.key, llo, lhi, take(lg, opProd, false, func(a, b float64) bool { return g.has(a * b) }))
	}
	if !found {
		pairDiff(lg.key, llo, lhi, take(lg, opRatio, false, func(a, b float64) bool { return g.has(a / b) }))
	}
	return d, found
}

func (ix *Index) operandOf(n int32, mask uint8) operand {
	e := &ix.entries[n]
	return operand{v: e.value, pct: e.pct, kind: ix.kindFor(n, mask), n: n}
}

// pairSum calls ok(i, j) for i < j with v[i] + v[j] in [lo, hi] (v sorted
// ascending) until ok returns true.
func pairSum(v []float64, lo, hi float64, ok func(i, j int) bool) {
	j := len(v) - 1
	for i := 0; i < j; i++ {
		for j > i && v[i]+v[j] > hi {
			j--
		}
		for k := j; k > i && v[i]+v[k] >= lo; k-- {
			if ok(i, k) {
				return
			}
		}
	}
}

// pairDiff calls ok(k, i) for k ≠ i with v[k] − v[i] in [lo, hi] (v sorted
// ascending) until ok returns true.
func pairDiff(v []float64, lo, hi float64, ok func(a, b int) bool) {
	k := 0
	for i := range v {
		for k < len(v) && v[k] < v[i]+lo {
			k++
		}
		for m := k; m < len(v) && v[m] <= v[i]+hi; m++ {
			if m != i && ok(m, i) {
				return
			}
		}
	}
}
