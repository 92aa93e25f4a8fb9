package prefilter

import "slices"

// Large literal sets. An exact plan's set may spell out a whole alias table, hundreds of
// literals, of which a question holds a few; visiting every one to find its occurrences
// costs a load per literal in a table that does not fit the cache. index gives such a set a
// membership bitset, and pick lists the set's literals among those the scan saw instead.

// minIndexedSet is the size from which a literal set is indexed (see exactSeg).
const minIndexedSet = 32

// index builds member and order for a large set; nlits is the prefilter's literal count.
func (sg *exactSeg) index(nlits int) {
	if len(sg.lits) < minIndexedSet {
		return
	}
	sg.member = make([]uint64, (nlits+63)/64)
	sg.order = make([]int32, len(sg.lits))
	for i, lit := range sg.lits {
		sg.member[lit>>6] |= 1 << (lit & 63)
		sg.order[i] = int32(i)
	}
	slices.SortFunc(sg.order, func(a, b int32) int { return int(sg.lits[a] - sg.lits[b]) })
}

// pick returns the indices in sg.lits of the literals worth visiting: nil for all of them,
// or, for an indexed set with more literals than the text holds, those of found (the
// literals seen), appended to buf, in any order.
func (sg *exactSeg) pick(found []int32, buf []int32) []int32 {
	if sg.member == nil || len(found) >= len(sg.lits) {
		return nil
	}
	if buf == nil {
		buf = make([]int32, 0, 8) // not nil, which would mean all
	}
	buf = buf[:0]
	for _, lit := range found {
		if sg.member[lit>>6]&(1<<(lit&63)) == 0 {
			continue
		}
		// A literal may appear more than once (with different \b flags).
		k, _ := slices.BinarySearchFunc(sg.order, lit, func(i, lit int32) int { return int(sg.lits[i] - lit) })
		for ; k < len(sg.order) && sg.lits[sg.order[k]] == lit; k++ {
			buf = append(buf, sg.order[k])
		}
	}
	return buf
}
