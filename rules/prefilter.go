package rules

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
)

// prefilter decides before any regex runs which patterns can possibly match a normalized text.
//
// Each pattern gets a requirement tree (AND/OR over literal strings) compiled into a flat node
// array; all literals of all patterns live in one acMatcher, so a question costs one scan plus
// one small tree evaluation per pattern. The text passed to candidates must be fold-canonical
// (normalized with lowercase on): case-insensitive literals are folded with foldRune at compile
// time and compared byte for byte. When a pack turns lowercase off, the caller must pass a text
// normalized with lowercase on or skip the prefilter.
type prefilter struct {
	ac    *acMatcher
	nlits int
	nodes []pfNode
	// roots[i] is the root node of pattern i, or -1 when the pattern always runs.
	roots   []int32
	nalways int
	// plans[i] is the exact plan of pattern i, nil when its verdict is only "may match".
	plans [][]chain
	// anchors[i] is the anchor plan of pattern i (see anchorPlan), nil when it has none or an
	// exact plan.
	anchors []*anchorPlan
	// needPos marks the literals whose positions exact and anchor plans check.
	needPos []bool
	// scratch pools the literal bitsets and position buffers so candidates does not allocate.
	scratch sync.Pool
}

// pfScratch is the per-call state of candidates.
type pfScratch struct {
	seen    []uint64
	occ     occurrences
	indexed bool
	starts  []int32
}

// pfNode is one node of a compiled requirement: a literal (lit >= 0, an acMatcher pattern
// index) or an AND/OR over kids, which are indices into the same node array.
type pfNode struct {
	lit  int32
	and  bool
	kids []int32
}

// req is a requirement while it is derived: nil means "no requirement" (always true).
type req struct {
	op   reqOp
	lit  string
	kids []*req
}

// reqOp is the kind of a requirement node.
type reqOp uint8

// The requirement node kinds.
const (
	reqLit reqOp = iota
	reqAnd
	reqOr
)

// minLiteral is the shortest literal worth keeping: single bytes occur in almost every text,
// so requiring them filters nothing and only costs matcher callbacks.
const minLiteral = 2

// maxClassRunes bounds the character classes turned into an OR of one-rune literals.
const maxClassRunes = 4

// newPrefilter analyses each parsed regex (parsed with syntax.Perl, as regexp.Compile does) and
// derives a literal requirement: an AND/OR tree of literal strings, at least one of which must
// occur in any text the regex matches. Patterns without a useful requirement always run.
func newPrefilter(res []*syntax.Regexp) *prefilter {
	return newPrefilterSrc(res, nil)
}

// newPrefilterSrc is newPrefilter with the patterns' sources, from which it compiles the
// anchored twins of anchor plans (srcs nil: no anchor plans).
func newPrefilterSrc(res []*syntax.Regexp, srcs []string) *prefilter {
	p := &prefilter{roots: make([]int32, len(res)), plans: make([][]chain, len(res)), anchors: make([]*anchorPlan, len(res))}
	litIDs := map[string]int32{}
	var lits []string
	leads := make([][]string, len(res))
	for i, re := range res {
		r := simplify(derive(re))
		if plan := exactPlan(re); plan != nil {
			p.plans[i] = plan
			r = planReq(plan)
		} else if srcs != nil {
			p.anchors[i], leads[i] = newAnchorPlan(srcs[i], re)
		}
		if r == nil {
			p.roots[i] = -1
			p.nalways++
			continue
		}
		p.roots[i] = p.emit(r, litIDs, &lits)
	}
	for i, set := range leads {
		for _, s := range set {
			id, ok := litIDs[s]
			if !ok {
				id = int32(len(lits))
				litIDs[s] = id
				lits = append(lits, s)
			}
			p.anchors[i].lits = append(p.anchors[i].lits, id)
		}
	}
	p.nlits = len(lits)
	p.needPos = make([]bool, p.nlits)
	for _, a := range p.anchors {
		if a != nil {
			for _, id := range a.lits {
				p.needPos[id] = true
			}
		}
	}
	for _, plan := range p.plans {
		for ci := range plan {
			for si := range plan[ci].segs {
				sg := &plan[ci].segs[si]
				for _, s := range sg.strs {
					sg.lits = append(sg.lits, litIDs[s])
					p.needPos[litIDs[s]] = true
				}
			}
		}
	}
	p.ac = newACMatcher(lits)
	words := (p.nlits + 63) / 64
	p.scratch.New = func() any {
		s := &pfScratch{seen: make([]uint64, words)}
		s.occ.head = make([]int32, p.nlits)
		for i := range s.occ.head {
			s.occ.head[i] = -1
		}
		return s
	}
	return p
}

// emit appends r to the node array and returns its index.
func (p *prefilter) emit(r *req, ids map[string]int32, lits *[]string) int32 {
	if r.op == reqLit {
		id, ok := ids[r.lit]
		if !ok {
			id = int32(len(*lits))
			ids[r.lit] = id
			*lits = append(*lits, r.lit)
		}
		p.nodes = append(p.nodes, pfNode{lit: id})
		return int32(len(p.nodes) - 1)
	}
	kids := make([]int32, 0, len(r.kids))
	for _, k := range r.kids {
		kids = append(kids, p.emit(k, ids, lits))
	}
	p.nodes = append(p.nodes, pfNode{lit: -1, and: r.op == reqAnd, kids: kids})
	return int32(len(p.nodes) - 1)
}

// derive computes the (unsimplified) requirement of re; nil means none.
func derive(re *syntax.Regexp) *req {
	switch re.Op {
	case syntax.OpLiteral:
		return literalReq(re)
	case syntax.OpCharClass:
		return classReq(re)
	case syntax.OpCapture, syntax.OpPlus:
		return derive(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return derive(re.Sub[0])
		}
		return nil
	case syntax.OpConcat:
		return concatReq(re.Sub)
	case syntax.OpAlternate:
		kids := make([]*req, 0, len(re.Sub))
		for _, s := range re.Sub {
			k := derive(s)
			if k == nil {
				return nil
			}
			kids = append(kids, k)
		}
		return &req{op: reqOr, kids: kids}
	}
	// Stars, quests, any-char, anchors, word boundaries, empty: no requirement.
	return nil
}

// literalReq returns the literal, folded when the regex ignores case: the text is
// fold-canonical, so any rune the regex accepts appears there as its foldRune form.
func literalReq(re *syntax.Regexp) *req {
	var b strings.Builder
	for _, r := range re.Rune {
		if re.Flags&syntax.FoldCase != 0 {
			r = foldRune(r)
		}
		b.WriteRune(r)
	}
	return &req{op: reqLit, lit: b.String()}
}

// classReq turns a small character class into an OR of one-rune literals.
func classReq(re *syntax.Regexp) *req {
	n := 0
	for i := 0; i+1 < len(re.Rune); i += 2 {
		n += int(re.Rune[i+1]-re.Rune[i]) + 1
		if n > maxClassRunes {
			return nil
		}
	}
	if n == 0 {
		return nil
	}
	r := &req{op: reqOr}
	for i := 0; i+1 < len(re.Rune); i += 2 {
		for c := re.Rune[i]; c <= re.Rune[i+1]; c++ {
			r.kids = append(r.kids, &req{op: reqLit, lit: string(c)})
		}
	}
	return r
}

// concatReq is the AND of the children, merging adjacent literals into longer ones (a longer
// literal is more selective and still must occur whenever the concatenation matches).
func concatReq(subs []*syntax.Regexp) *req {
	r := &req{op: reqAnd}
	var run strings.Builder
	flush := func() {
		if run.Len() > 0 {
			r.kids = append(r.kids, &req{op: reqLit, lit: run.String()})
			run.Reset()
		}
	}
	for _, s := range subs {
		k := derive(s)
		if s.Op == syntax.OpLiteral && k != nil {
			run.WriteString(k.lit)
			continue
		}
		flush()
		if k != nil {
			r.kids = append(r.kids, k)
		}
	}
	flush()
	return r
}

// simplify removes unselective parts; every step only weakens the requirement, so it stays
// sound: AND children may be dropped, an OR with an unusable branch becomes "none".
func simplify(r *req) *req {
	if r == nil {
		return nil
	}
	switch r.op {
	case reqLit:
		if len(r.lit) < minLiteral {
			return nil
		}
		return r
	case reqOr:
		kids := make([]*req, 0, len(r.kids))
		for _, k := range r.kids {
			k = simplify(k)
			if k == nil {
				return nil
			}
			if k.op == reqOr {
				kids = append(kids, k.kids...)
			} else {
				kids = append(kids, k)
			}
		}
		return one(&req{op: reqOr, kids: kids})
	}
	kids := make([]*req, 0, len(r.kids))
	for _, k := range r.kids {
		switch k = simplify(k); {
		case k == nil:
		case k.op == reqAnd:
			kids = append(kids, k.kids...)
		default:
			kids = append(kids, k)
		}
	}
	if len(kids) == 0 {
		return nil
	}
	return one(&req{op: reqAnd, kids: kids})
}

// one unwraps an AND/OR with a single child.
func one(r *req) *req {
	if len(r.kids) == 1 {
		return r.kids[0]
	}
	return r
}

// candidates sets want[i] = true for every pattern i that may match text and false for the rest
// (len(want) == number of patterns). It must never set false for a pattern that matches text;
// for exact patterns (see exact) want[i] is the match result itself. It is safe for concurrent
// use; its scratch state comes from a sync.Pool.
func (p *prefilter) candidates(text string, want []bool) {
	sc := p.scratch.Get().(*pfScratch)
	p.decide(sc, text, want)
	p.scratch.Put(sc)
}

// decide is candidates with the scratch state given; it does not allocate once sc's buffers
// have grown to the text's needs.
func (p *prefilter) decide(sc *pfScratch, text string, want []bool) {
	seen := sc.seen
	clear(seen)
	occ := &sc.occ
	occ.reset()
	sc.indexed = false
	if p.nlits > 0 {
		p.ac.scan(text, func(lit, start, end int) {
			seen[lit>>6] |= 1 << (lit & 63)
			if p.needPos[lit] {
				occ.add(lit, start, end)
			}
		})
	}
	for i, root := range p.roots {
		want[i] = root < 0 || p.eval(root, seen)
		if want[i] && p.plans[i] != nil {
			sc.index()
			want[i] = occ.matchAny(p.plans[i], text)
		}
	}
}

// index chains the occurrences once per decide.
func (sc *pfScratch) index() {
	if !sc.indexed {
		sc.occ.index()
		sc.indexed = true
	}
}

// matchString reports whether pattern i matches text, after decide has set want[i] true. It
// uses the exact or anchor plan when there is one; re is the pattern's regex.
func (p *prefilter) matchString(sc *pfScratch, i int, re *regexp.Regexp, text string) bool {
	if p.plans[i] != nil {
		return true
	}
	a := p.anchors[i]
	if a == nil {
		return re.MatchString(text)
	}
	sc.index()
	sc.starts = a.starts(&sc.occ, sc.starts)
	return a.matchString(text, sc.starts)
}

// findAll is re.FindAllStringSubmatchIndex(text, -1) for pattern i, after decide.
func (p *prefilter) findAll(sc *pfScratch, i int, re *regexp.Regexp, text string) [][]int {
	a := p.anchors[i]
	if a == nil {
		return re.FindAllStringSubmatchIndex(text, -1)
	}
	sc.index()
	sc.starts = a.starts(&sc.occ, sc.starts)
	return a.findAll(text, sc.starts)
}

// eval reports whether node n holds given the set of literals seen.
func (p *prefilter) eval(n int32, seen []uint64) bool {
	nd := &p.nodes[n]
	if nd.lit >= 0 {
		return seen[nd.lit>>6]&(1<<(nd.lit&63)) != 0
	}
	for _, k := range nd.kids {
		if p.eval(k, seen) != nd.and {
			return !nd.and
		}
	}
	return nd.and
}

// always reports how many patterns have no requirement (for explain/bench output).
func (p *prefilter) always() int { return p.nalways }

// exact reports whether candidates' verdict for pattern i is the regex's own answer, so the
// regex need not run (see exactPlan for the patterns this holds for).
func (p *prefilter) exact(i int) bool { return p.plans[i] != nil }
