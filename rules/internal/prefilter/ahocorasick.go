package prefilter

import "slices"

// AC finds every occurrence of a fixed set of byte strings in one pass (Aho–Corasick).
//
// The automaton is a full DFA over byte classes: bytes that occur in no pattern share class 0
// (which always leads back to the root), the others get one class each, so a transition row
// has a few dozen entries instead of 256 and scanning costs one table lookup per byte.
//
// While the automaton is built a state is its index; once built (see finish), a state is the
// offset of its row in next, and the states where some pattern ends come last, so the scan
// moves with one addition and one load per byte and tests for output with one comparison.
type AC struct {
	class    [256]int32
	nclasses int
	// next[s+c] is the state after reading a byte of class c in state s.
	next []int32
	// outFrom is the first state where a pattern ends; for such a state s, with
	// k = (s-outFrom)/nclasses, outs[outStart[k]:outStart[k+1]] are the patterns that end
	// there (including those reachable by suffix links), sorted by pattern index.
	outFrom  int32
	outStart []int32
	outs     []int32
	plen     []int32
}

// NewAC builds the automaton; empty patterns are ignored; duplicates allowed (each index reported).
func NewAC(patterns []string) *AC {
	m := &AC{plen: make([]int32, len(patterns))}
	m.buildClasses(patterns)
	n := m.nclasses
	// The trie is built in a map first, so the dense table is allocated once at its final size.
	type edge struct {
		from int32
		c    int32
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
func (m *AC) buildClasses(patterns []string) {
	m.nclasses = 1
	for _, pat := range patterns {
		for i := 0; i < len(pat); i++ {
			if m.class[pat[i]] == 0 {
				m.class[pat[i]] = int32(m.nclasses)
				m.nclasses++
			}
		}
	}
}

// link computes failure transitions breadth-first, turning the trie into a DFA, and merges
// each state's outputs with those of its failure state.
func (m *AC) link(own [][]int32) {
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
	bfs := append(make([]int32, 0, nstates), 0)
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		bfs = append(bfs, s)
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
	m.finish(out, bfs)
}

// finish renumbers the states, those without output first (the root, which has none, stays
// 0), each group in breadth-first order (bfs), so that the shallow states a scan visits
// most share cache lines; it turns every state into the offset of its row and lays out the
// outputs.
func (m *AC) finish(out [][]int32, bfs []int32) {
	n := m.nclasses
	nstates := len(out)
	id := make([]int32, nstates)
	k := int32(0)
	for pass := range 2 {
		for _, s := range bfs {
			if (len(out[s]) > 0) == (pass == 1) {
				id[s] = k
				k++
			}
		}
		if pass == 0 {
			m.outFrom = k * int32(n)
		}
	}
	next := make([]int32, len(m.next))
	for s := range nstates {
		row, to := m.next[s*n:(s+1)*n], next[int(id[s])*n:]
		for c, t := range row {
			to[c] = id[t] * int32(n)
		}
	}
	m.next = next
	byID := make([]int32, nstates) // the old state of each new one
	for s, i := range id {
		byID[i] = int32(s)
	}
	first := int(m.outFrom) / n
	m.outStart = make([]int32, 0, nstates-first+1)
	for _, s := range byID[first:] {
		m.outStart = append(m.outStart, int32(len(m.outs)))
		m.outs = append(m.outs, out[s]...)
	}
	m.outStart = append(m.outStart, int32(len(m.outs)))
}

// outputs returns the patterns that end in state s, which is at least outFrom.
func (m *AC) outputs(s int32) []int32 {
	k := (s - m.outFrom) / int32(m.nclasses)
	return m.outs[m.outStart[k]:m.outStart[k+1]]
}

// Scan calls fn(p, start, end) for every occurrence of pattern p at text[start:end], ordered by end then by pattern index.
func (m *AC) Scan(text string, fn func(p, start, end int)) {
	next, s := m.next, int32(0)
	for i := 0; i < len(text); i++ {
		s = next[s+m.class[text[i]]]
		if s >= m.outFrom {
			for _, p := range m.outputs(s) {
				fn(int(p), i+1-int(m.plen[p]), i+1)
			}
		}
	}
}

// scanInto is scan for the prefilter, without a callback per occurrence: it sets the bit of
// every pattern found in seen, appends it to found the first time, and records in occ the
// occurrences of the patterns marked in pos. It returns found.
func (m *AC) scanInto(text string, seen []uint64, found []int32, pos []bool, occ *occurrences) []int32 {
	next, s := m.next, int32(0)
	for i := 0; i < len(text); i++ {
		s = next[s+m.class[text[i]]]
		if s < m.outFrom {
			continue
		}
		for _, p := range m.outputs(s) {
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
