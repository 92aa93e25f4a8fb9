package prefilter

import (
	"regexp/syntax"
	"slices"
	"sync"
)

// Prefilter decides before any regex runs which patterns can possibly match a normalized text.
//
// Each pattern gets a requirement tree (AND/OR over literal strings) compiled into a flat node
// array; all literals of all patterns live in one AC, so a question costs one scan plus
// one small tree evaluation per pattern whose literals occur. The text passed to Decide
// must be fold-canonical (normalized with lowercase on): case-insensitive literals are folded
// with fold.Rune at compile time and compared byte for byte. When a pack turns lowercase off,
// the caller must pass a text normalized with lowercase on or skip the prefilter. A prefilter
// built from ExactCase trees has no folded literals and works on any text.
//
// Beyond the verdict, the literals' positions give each pattern its cheapest exact road (see
// MatchString): an exact plan, a branch, anchor or window plan, or the plain regex.
type Prefilter struct {
	ac    *AC
	nlits int
	nodes []pfNode
	// roots[i] is the root node of pattern i, or -1 when the pattern always runs.
	roots   []int32
	nalways int
	// guarded[lit] lists the patterns whose requirement needs literal lit or one of a few
	// others (see guard): only the patterns guarded by a literal the text holds are evaluated.
	// unguarded lists the patterns without a requirement.
	guarded   [][]int32
	unguarded []int32
	// plans[i] is the exact plan of pattern i, nil when its verdict is only "may match";
	// loops[i] its loop plan (see loopPlan), which decides it as exactly.
	plans [][]chain
	loops []*loopPlan
	// anchors[i] is the anchor plan of pattern i (see anchorPlan), nil when it has none or an
	// exact plan; windows[i] its window plan (see windowPlan) when it has no anchor plan.
	anchors []*anchorPlan
	windows []*windowPlan
	// branches[i] decides MatchString of pattern i branch by branch (see branchPlan), nil
	// when it has an exact plan or splitting does not pay.
	branches []*branchPlan
	// needs[i] are the byte sets every match of pattern i holds a byte of (see byteNeeds).
	needs [][]byteSet
	// needPos marks the literals whose positions exact, anchor and window plans check.
	needPos []bool
	// termLits are the AC indices of the term lists given to NewTerms.
	termLits [][]int32
	// scratch pools the literal bitsets and position buffers so Decide does not allocate.
	scratch sync.Pool
}

// Scratch is the state of one Decide call and of the MatchString and Each calls that
// follow it on the same text; get it from the prefilter's Get and give it back with Put.
type Scratch struct {
	seen    []uint64
	found   []int32  // the literals seen, in the order first seen
	done    []uint64 // the patterns decide has evaluated
	occ     occurrences
	indexed bool
	// have is the set of the text's bytes once haveOK (computed when a byte need is first
	// tested).
	have   byteSet
	haveOK bool
	starts []int32
	spans  []occSpan
	// ends and loopOccs are the buffers of loop plans.
	ends     []bool
	loopOccs []loopOcc
}

// pfNode is one node of a compiled requirement: a literal (lit >= 0, an AC pattern
// index) or an AND/OR over kids, which are indices into the same node array.
type pfNode struct {
	lit  int32
	and  bool
	lits []int32 // the children that are literals, tested in place
	kids []int32 // the other children
	// mask holds lits as words of the seen bitset when they are many (an alias table spelled
	// out): eval then tests a word at a time instead of a literal at a time.
	mask []maskWord
}

// maskWord is the bits of word i of a literal bitset.
type maskWord struct {
	i    int32
	bits uint64
}

// minMaskedLits is the number of literal children from which a node gets a mask.
const minMaskedLits = 16

// maskNodes gives the nodes with many literal children their masks.
func (p *Prefilter) maskNodes() {
	for n := range p.nodes {
		nd := &p.nodes[n]
		if len(nd.lits) < minMaskedLits {
			continue
		}
		words := map[int32]uint64{}
		for _, l := range nd.lits {
			words[l>>6] |= 1 << (l & 63)
		}
		for i := range int32((p.nlits + 63) / 64) {
			if b, ok := words[i]; ok {
				nd.mask = append(nd.mask, maskWord{i, b})
			}
		}
	}
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
func newPrefilter(res []*syntax.Regexp) *Prefilter {
	return newPrefilterSrc(res, nil)
}

// newPrefilterSrc is newPrefilter with the patterns' sources, from which it compiles the
// anchored twins of anchor plans and the branches of branch plans (srcs nil: neither, and no
// window plans).
func newPrefilterSrc(res []*syntax.Regexp, srcs []string) *Prefilter {
	return newPrefilterTerms(res, srcs, nil)
}

// newPrefilterTerms is newPrefilterSrc that also tracks the positions of the given term
// lists (alias tables), so their occurrences come out of the same scan; terms[k][j] gets the
// AC index termLits[k][j].
func newPrefilterTerms(res []*syntax.Regexp, srcs []string, terms [][]string) *Prefilter {
	n := len(res)
	p := &Prefilter{roots: make([]int32, n), plans: make([][]chain, n), loops: make([]*loopPlan, n),
		anchors: make([]*anchorPlan, n), windows: make([]*windowPlan, n), branches: make([]*branchPlan, n)}
	p.needs = make([][]byteSet, n)
	b := &pfBuilder{p: p, ids: map[string]int32{}}
	for i, re := range res {
		p.needs[i] = byteNeeds(re)
		r := simplify(derive(re))
		if plan := exactPlan(re); plan != nil {
			p.plans[i] = plan
			r = planReq(plan)
		} else {
			p.loops[i] = newLoopPlan(re)
		}
		if r == nil {
			p.roots[i] = -1
			p.nalways++
			continue
		}
		p.roots[i] = p.emit(r, b.id)
	}
	for i, re := range res {
		if p.plans[i] != nil || p.loops[i] != nil || srcs == nil {
			continue
		}
		b.plan(i, re, srcs[i])
	}
	for _, plan := range p.plans {
		b.chainLits(plan)
	}
	for _, lp := range p.loops {
		if lp != nil {
			for _, s := range lp.seg.strs {
				lp.seg.lits = append(lp.seg.lits, b.posID(s))
			}
		}
	}
	for _, list := range terms {
		ids := make([]int32, len(list))
		for j, t := range list {
			ids[j] = b.posID(t)
		}
		p.termLits = append(p.termLits, ids)
	}
	p.nlits = len(b.lits)
	p.indexSets()
	p.maskNodes()
	p.needPos = append(b.pos, make([]bool, p.nlits-len(b.pos))...)
	p.ac = NewAC(b.lits)
	p.guarded = make([][]int32, p.nlits)
	for i, root := range p.roots {
		if root < 0 {
			p.unguarded = append(p.unguarded, int32(i))
			continue
		}
		for _, lit := range p.guard(root, b.lits) {
			p.guarded[lit] = append(p.guarded[lit], int32(i))
		}
	}
	words := (p.nlits + 63) / 64
	p.scratch.New = func() any {
		s := &Scratch{seen: make([]uint64, words), done: make([]uint64, (n+63)/64)}
		s.occ.head = make([]int32, p.nlits)
		for i := range s.occ.head {
			s.occ.head[i] = -1
		}
		return s
	}
	return p
}

// pfBuilder assigns AC indices to literals while the prefilter is built.
type pfBuilder struct {
	p    *Prefilter
	ids  map[string]int32
	lits []string
	pos  []bool // literals whose positions a plan checks
}

// id returns the index of literal s, registering it.
func (b *pfBuilder) id(s string) int32 {
	id, ok := b.ids[s]
	if !ok {
		id = int32(len(b.lits))
		b.ids[s] = id
		b.lits = append(b.lits, s)
	}
	return id
}

// posID is id for a literal whose positions a plan checks.
func (b *pfBuilder) posID(s string) int32 {
	id := b.id(s)
	for len(b.pos) <= int(id) {
		b.pos = append(b.pos, false)
	}
	b.pos[id] = true
	return id
}

// plan gives pattern i, which has no exact plan, its branch, anchor and window plans.
func (b *pfBuilder) plan(i int, re *syntax.Regexp, src string) {
	p := b.p
	var lits []string
	if p.anchors[i], lits = newAnchorPlan(src, re); p.anchors[i] != nil {
		for _, s := range lits {
			p.anchors[i].lits = append(p.anchors[i].lits, b.posID(s))
		}
	} else if p.windows[i] = newWindowPlan(re); p.windows[i] != nil {
		p.windows[i].register(b.posID)
		// A window is cheaper than any split: it runs the regex on a few bytes, or not at all.
		return
	}
	// With an anchor plan for the whole, a split pays only for the branches it leaves to an
	// exact plan; otherwise the alternative to splitting is a regex over the whole text.
	p.branches[i] = newBranchPlan(re, p.anchors[i] != nil, b.posID, func(r *req) int32 { return p.emit(r, b.id) })
}

// chainLits fills the literal indices of an exact plan's sets.
func (b *pfBuilder) chainLits(plan []chain) {
	for ci := range plan {
		for si := range plan[ci].segs {
			sg := &plan[ci].segs[si]
			for _, s := range sg.strs {
				sg.lits = append(sg.lits, b.posID(s))
			}
		}
	}
}

// indexSets indexes the large literal sets of the exact plans, whole or of a branch, and of
// the anchor plans.
func (p *Prefilter) indexSets() {
	plans := slices.Clone(p.plans)
	for _, a := range p.anchors {
		if a != nil {
			a.index(p.nlits)
		}
	}
	for _, b := range p.branches {
		if b != nil {
			plans = append(plans, b.exact)
			for _, r := range b.runs {
				if r.anchor != nil {
					r.anchor.index(p.nlits)
				}
			}
		}
	}
	for _, plan := range plans {
		for ci := range plan {
			for si := range plan[ci].segs {
				plan[ci].segs[si].index(p.nlits)
			}
		}
	}
}

// emit appends r to the node array and returns its index; id registers a literal.
func (p *Prefilter) emit(r *req, id func(string) int32) int32 {
	if r.op == reqLit {
		p.nodes = append(p.nodes, pfNode{lit: id(r.lit)})
		return int32(len(p.nodes) - 1)
	}
	var lits, kids []int32
	for _, k := range r.kids {
		if k.op == reqLit {
			lits = append(lits, id(k.lit))
		} else {
			kids = append(kids, p.emit(k, id))
		}
	}
	p.nodes = append(p.nodes, pfNode{lit: -1, and: r.op == reqAnd, lits: lits, kids: kids})
	return int32(len(p.nodes) - 1)
}

// guard returns literals at least one of which the text holds whenever requirement node n
// holds: an AND needs only one of its children's guards, so it picks the child whose
// literals are longest (longer literals are rarer), and an OR needs all of its children's.
func (p *Prefilter) guard(n int32, lits []string) []int32 {
	nd := &p.nodes[n]
	if nd.lit >= 0 {
		return []int32{nd.lit}
	}
	var sets [][]int32
	for _, l := range nd.lits {
		sets = append(sets, []int32{l})
	}
	for _, k := range nd.kids {
		sets = append(sets, p.guard(k, lits))
	}
	if !nd.and {
		return slices.Concat(sets...)
	}
	shortest := func(set []int32) int {
		m := -1
		for _, l := range set {
			if m < 0 || len(lits[l]) < m {
				m = len(lits[l])
			}
		}
		return m
	}
	best := sets[0]
	for _, set := range sets[1:] {
		if a, b := shortest(set), shortest(best); a > b || a == b && len(set) < len(best) {
			best = set
		}
	}
	return best
}
