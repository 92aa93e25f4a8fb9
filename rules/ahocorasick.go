package rules

import "slices"

// acMatcher finds every occurrence of a fixed set of byte strings in one pass (Aho–Corasick).
//
// The automaton is a full DFA over byte classes: bytes that occur in no pattern share class 0
// (which always leads back to the root), the others get one class each, so a transition row
// has a few dozen entries instead of 256 and scanning costs one table lookup per byte.
type acMatcher struct {
	class    [256]uint16
	nclasses int
	// next[s*nclasses+c] is the state after reading a byte of class c in state s.
	next []int32
	// outs[outStart[s]:outStart[s+1]] are the patterns that end in state s (including those
	// reachable by suffix links), sorted by pattern index.
	outStart []int32
	outs     []int32
	plen     []int32
}

// newACMatcher builds the automaton; empty patterns are ignored; duplicates allowed (each index reported).
func newACMatcher(patterns []string) *acMatcher {
	m := &acMatcher{plen: make([]int32, len(patterns))}
	m.buildClasses(patterns)
	n := m.nclasses
	// The trie is built in a map first, so the dense table is allocated once at its final size.
	type edge struct {
		from int32
		c    uint16
	}
	child := map[edge]int32{}
	own := [][]int32{nil}
	for p, pat := range patterns {
		m.plen[p] = int32(len(pat))
		if pat == "" {
			continue
		}
		s := int32(0)
		for i := 0; i < len(pat); i++ {
			e := edge{s, m.class[pat[i]]}
			t, ok := child[e]
			if !ok {
				t = int32(len(own))
				child[e] = t
				own = append(own, nil)
			}
			s = t
		}
		own[s] = append(own[s], int32(p))
	}
	m.next = make([]int32, len(own)*n) // -1 marks a missing goto edge during construction
	for i := range m.next {
		m.next[i] = -1
	}
	for e, t := range child {
		m.next[int(e.from)*n+int(e.c)] = t
	}
	m.link(own)
	return m
}

// buildClasses assigns one class to every byte used by some pattern.
func (m *acMatcher) buildClasses(patterns []string) {
	m.nclasses = 1
	for _, pat := range patterns {
		for i := 0; i < len(pat); i++ {
			if m.class[pat[i]] == 0 {
				m.class[pat[i]] = uint16(m.nclasses)
				m.nclasses++
			}
		}
	}
}

// link computes failure transitions breadth-first, turning the trie into a DFA, and merges
// each state's outputs with those of its failure state.
func (m *acMatcher) link(own [][]int32) {
	n := m.nclasses
	nstates := len(own)
	fail := make([]int32, nstates)
	out := make([][]int32, nstates)
	out[0] = own[0]
	queue := make([]int32, 0, nstates)
	for c := range n {
		if t := m.next[c]; t > 0 {
			fail[t] = 0
			queue = append(queue, t)
		} else {
			m.next[c] = 0
		}
	}
	m.next[0] = 0 // class 0 never continues a match
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		out[s] = append(slices.Clone(own[s]), out[fail[s]]...)
		slices.Sort(out[s])
		row := int(s) * n
		frow := int(fail[s]) * n
		for c := range n {
			t := m.next[row+c]
			if c == 0 {
				m.next[row] = 0
				continue
			}
			if t < 0 {
				m.next[row+c] = m.next[frow+c]
				continue
			}
			fail[t] = m.next[frow+c]
			queue = append(queue, t)
		}
	}
	m.outStart = make([]int32, nstates+1)
	for s := range nstates {
		m.outStart[s] = int32(len(m.outs))
		m.outs = append(m.outs, out[s]...)
	}
	m.outStart[nstates] = int32(len(m.outs))
}

// scan calls fn(p, start, end) for every occurrence of pattern p at text[start:end], ordered by end then by pattern index.
func (m *acMatcher) scan(text string, fn func(p, start, end int)) {
	n := m.nclasses
	s := int32(0)
	for i := 0; i < len(text); i++ {
		s = m.next[int(s)*n+int(m.class[text[i]])]
		lo, hi := m.outStart[s], m.outStart[s+1]
		for _, p := range m.outs[lo:hi] {
			fn(int(p), i+1-int(m.plen[p]), i+1)
		}
	}
}

// scanInto is scan for the prefilter, without a callback per occurrence: it sets the bit of
// every pattern found in seen, appends it to found the first time, and records in occ the
// occurrences of the patterns marked in pos. It returns found.
func (m *acMatcher) scanInto(text string, seen []uint64, found []int32, pos []bool, occ *occurrences) []int32 {
	n := m.nclasses
	s := int32(0)
	for i := 0; i < len(text); i++ {
		s = m.next[int(s)*n+int(m.class[text[i]])]
		lo, hi := m.outStart[s], m.outStart[s+1]
		for _, p := range m.outs[lo:hi] {
			if seen[p>>6]&(1<<(p&63)) == 0 {
				seen[p>>6] |= 1 << (p & 63)
				found = append(found, p)
			}
			if pos[p] {
				occ.add(int(p), i+1-int(m.plen[p]), i+1)
			}
		}
	}
	return found
}
