package nl

import (
	"strconv"

	"github.com/weirgw/weir/adapters/data"
)

// fieldNumber is a number as a value of the field: the text of a string field ("site
// 101"), the number itself otherwise.
func fieldNumber(m *meaning, n float64) any {
	if typeOf(m.src, m.field) == data.TypeString {
		return strconv.FormatFloat(n, 'f', -1, 64)
	}
	return n
}

// numberList reads the numbers that continue a field's value at k ("sites 101 and 103",
// "tables 3, 5 and 7", "centri 101 o 102"): each after and, or or a comma (nothing), a
// whole number like the first, and not claimed by what follows it ("101 and 3 or more
// AEs", "table 4 and 2 dishes"): a number before a threshold word, a unit, a field or a
// row noun is left to the readings of those. It marks them used and returns their items.
func (r *reader) numberList(k int, whole bool) []int {
	if r.comparing() {
		return nil
	}
	var out []int
	last := k
	for {
		g := last + 1
		if g >= len(r.items) {
			break
		}
		x := g
		if r.items[g].is(gAnd) || r.items[g].is(gOr) {
			x = g + 1
		}
		if x >= len(r.items) || !r.listedNumber(x, whole) {
			break
		}
		out = append(out, x)
		last = x
	}
	for _, x := range out {
		r.items[x].used = true
		if x > 0 && x-1 != k && (r.items[x-1].is(gAnd) || r.items[x-1].is(gOr)) {
			r.items[x-1].used = true
		}
	}
	return out
}

// listedNumber reports a number at x that can only be one more value of a list: unused,
// of the first's kind (whole numbers, no percentages), and with nothing after it that
// would make it a count, a threshold or an amount.
func (r *reader) listedNumber(x int, whole bool) bool {
	it := r.items[x]
	if it.num == nil || it.used || it.num.percent || !whole || it.num.num != float64(int64(it.num.num)) {
		return false
	}
	n := x + 1
	if n >= len(r.items) {
		return true
	}
	after := r.items[n]
	switch {
	case after.is(gGE), after.is(gLE), after.is(gGrain), after.is(gMost), after.is(gLeast):
		return false
	case after.is(gOr) && (n+1 >= len(r.items) || r.items[n+1].num == nil):
		return false // "2 or more"
	case after.kind(mRows) != nil, after.kind(mField) != nil, after.kind(mValue) != nil, after.kind(mMax) != nil, after.kind(mMin) != nil:
		return false
	}
	return true
}

// comparing reports a question that compares or asks which or who ranks ("compare sites
// 101 and 102", "which of sites 101 and 102 had more AEs", "which waiter sold the most at
// tables 3 and 5"): listed numbers may be the sides compared or a condition on what is
// ranked; neither is read.
func (r *reader) comparing() bool {
	return r.has(gVs) || r.has(gCompare) || (r.has(gWho) || r.has(gWhich)) && (r.has(gMost) || r.has(gLeast))
}
