package prefilter

import "regexp"

// The request path of the prefilter: decide which patterns may match a text, then answer
// MatchString and FindAll for those through their plans.

// Candidates sets want[i] = true for every pattern i that may match text and false for the rest
// (len(want) == number of patterns). It must never set false for a pattern that matches text;
// for exact patterns (see Exact) want[i] is the match result itself. It is safe for concurrent
// use; its scratch state comes from a sync.Pool.
func (p *Prefilter) Candidates(text string, want []bool) {
	sc := p.Get()
	p.Decide(sc, text, want)
	p.Put(sc)
}

// Decide is Candidates with the scratch state given; it does not allocate once sc's buffers
// have grown to the text's needs.
func (p *Prefilter) Decide(sc *Scratch, text string, want []bool) {
	seen := sc.seen
	clear(seen)
	occ := &sc.occ
	occ.reset()
	sc.indexed, sc.haveOK = false, false
	sc.found = sc.found[:0]
	if p.nlits > 0 {
		sc.found = p.ac.scanInto(text, seen, sc.found, p.needPos, occ)
	}
	occ.found = sc.found
	clear(want)
	for _, i := range p.unguarded {
		p.settle(sc, int(i), true, text, want)
	}
	clear(sc.done)
	for _, lit := range sc.found {
		for _, i := range p.guarded[lit] {
			if sc.done[i>>6]&(1<<(i&63)) == 0 {
				sc.done[i>>6] |= 1 << (i & 63)
				p.settle(sc, int(i), p.eval(p.roots[i], seen), text, want)
			}
		}
	}
}

// settle sets want[i] given whether pattern i's requirement holds: for an exact or loop
// plan, the plan's own verdict.
func (p *Prefilter) settle(sc *Scratch, i int, holds bool, text string, want []bool) {
	switch {
	case holds && p.plans[i] != nil:
		sc.index()
		holds = sc.occ.matchAny(p.plans[i], text)
	case holds && p.loops[i] != nil:
		sc.index()
		sc.ends, sc.loopOccs = p.loops[i].match(&sc.occ, text, sc.ends, sc.loopOccs)
		holds = p.loops[i].holds(text, sc.ends)
	case holds && p.needs[i] != nil:
		holds = sc.hasBytes(p.needs[i], text)
	}
	want[i] = holds
}

// hasBytes reports whether text, the text decide scans, holds a byte of every set of needs.
func (sc *Scratch) hasBytes(needs []byteSet, text string) bool {
	if !sc.haveOK {
		sc.have, sc.haveOK = textBytes(text), true
	}
	return needsHold(needs, &sc.have)
}

// index chains the occurrences once per decide.
func (sc *Scratch) index() {
	if !sc.indexed {
		sc.occ.index()
		sc.indexed = true
	}
}

// MatchString reports whether pattern i matches text, after Decide has set want[i] true. It
// uses the exact, branch, anchor or window plan when there is one; re is the pattern's regex.
func (p *Prefilter) MatchString(sc *Scratch, i int, re *regexp.Regexp, text string) bool {
	if p.plans[i] != nil || p.loops[i] != nil {
		return true
	}
	if b := p.branches[i]; b != nil {
		return p.matchBranches(sc, b, text)
	}
	if a := p.anchors[i]; a != nil {
		sc.index()
		sc.starts = a.starts(&sc.occ, sc.starts)
		return a.matchString(text, sc.starts)
	}
	if w := p.windows[i]; w != nil {
		sc.index()
		sc.spans = w.windows(text, &sc.occ, sc.spans)
		return w.matchString(re, text, sc.spans)
	}
	return re.MatchString(text)
}

// matchBranches reports whether some branch of b matches text: the exact ones first, then
// each other branch whose requirement holds, by its cheapest road.
func (p *Prefilter) matchBranches(sc *Scratch, b *branchPlan, text string) bool {
	sc.index()
	if b.exact != nil && sc.occ.matchAny(b.exact, text) {
		return true
	}
	for _, r := range b.runs {
		if r.root >= 0 && !p.eval(r.root, sc.seen) || r.needs != nil && !sc.hasBytes(r.needs, text) {
			continue
		}
		var m bool
		switch {
		case r.anchor != nil:
			sc.starts = r.anchor.starts(&sc.occ, sc.starts)
			m = r.anchor.matchString(text, sc.starts)
		case r.window != nil:
			sc.spans = r.window.windows(text, &sc.occ, sc.spans)
			m = r.window.matchString(r.re, text, sc.spans)
		default:
			m = r.re.MatchString(text)
		}
		if m {
			return true
		}
	}
	return false
}

// FindAll is re.FindAllStringSubmatchIndex(text, -1) for pattern i, after Decide.
func (p *Prefilter) FindAll(sc *Scratch, i int, re *regexp.Regexp, text string) [][]int {
	var out [][]int
	p.Each(sc, i, re, text, true, func(m []int) bool {
		out = append(out, m)
		return true
	})
	return out
}

// Each calls fn with the matches of re.FindAllStringSubmatchIndex(text, -1) for pattern i,
// in order, until fn returns false; it uses the anchor or window plan when there is one. all
// says the caller will likely want every match (see eachMatch).
func (p *Prefilter) Each(sc *Scratch, i int, re *regexp.Regexp, text string, all bool, fn func(m []int) bool) {
	if a := p.anchors[i]; a != nil {
		sc.index()
		sc.starts = a.starts(&sc.occ, sc.starts)
		a.each(text, sc.starts, fn)
		return
	}
	if w := p.windows[i]; w != nil {
		sc.index()
		sc.spans = w.windows(text, &sc.occ, sc.spans)
		w.each(re, text, sc.spans, all, fn)
		return
	}
	eachMatch(re, text, all, fn)
}

// eachMatch is Each without a plan. Unless all is set it asks the regex for the first match
// alone before asking for every one: an extractor that wants one value usually takes the
// first.
func eachMatch(re *regexp.Regexp, text string, all bool, fn func(m []int) bool) {
	if all {
		for _, m := range re.FindAllStringSubmatchIndex(text, -1) {
			if !fn(m) {
				return
			}
		}
		return
	}
	m := re.FindStringSubmatchIndex(text)
	if m == nil || !fn(m) {
		return
	}
	for _, m := range re.FindAllStringSubmatchIndex(text, -1)[1:] {
		if !fn(m) {
			return
		}
	}
}

// eval reports whether node n holds given the set of literals seen.
func (p *Prefilter) eval(n int32, seen []uint64) bool {
	nd := &p.nodes[n]
	if nd.lit >= 0 {
		return seen[nd.lit>>6]&(1<<(nd.lit&63)) != 0
	}
	if nd.mask != nil {
		for _, m := range nd.mask {
			if x := seen[m.i] & m.bits; nd.and && x != m.bits {
				return false
			} else if !nd.and && x != 0 {
				return true
			}
		}
	} else {
		for _, l := range nd.lits {
			if (seen[l>>6]&(1<<(l&63)) != 0) != nd.and {
				return !nd.and
			}
		}
	}
	for _, k := range nd.kids {
		if p.eval(k, seen) != nd.and {
			return !nd.and
		}
	}
	return nd.and
}

// Always reports how many patterns have no requirement (for explain/bench output).
func (p *Prefilter) Always() int { return p.nalways }

// Exact reports whether Decide's verdict for pattern i is the regex's own answer, so the
// regex need not run (see exactPlan for the patterns this holds for).
func (p *Prefilter) Exact(i int) bool { return p.plans[i] != nil || p.loops[i] != nil }
