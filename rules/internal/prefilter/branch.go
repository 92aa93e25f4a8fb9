package prefilter

import (
	"regexp"
	"regexp/syntax"
)

// A branch plan decides whether a pattern matches one alternative at a time. A pattern that
// is an alternation, or a concatenation with an alternation in it, matches exactly when one
// of its branches does (A(B|C)D matches where ABD or ACD does), and each branch can often
// take a cheaper road than the whole: an exact plan, a window or an anchor plan, or at least
// its own literal requirement. Large packs write patterns such as
// `\b(?:(?:dosed|treated)\b.*\bper protocol|protocol deviations?|…)\b`, which Go's NFA walks
// with every branch alive at every byte; split, most branches are exact.
//
// Branch plans answer MatchString only: FindAll's leftmost-first choice between branches is
// not the union of the branches' matches, so extractors keep their anchor or window plans.
type branchPlan struct {
	exact []chain      // the branches an exact plan decides, as one plan
	runs  []*branchRun // the others
}

// branchRun is a branch that needs its regex.
type branchRun struct {
	root   int32     // its literal requirement (a node of the prefilter), -1 when none
	needs  []byteSet // its byte needs (see byteNeeds)
	re     *regexp.Regexp
	anchor *anchorPlan
	window *windowPlan
}

// maxBranches bounds the alternatives an alternation may have to be split, and the branches
// a split may leave to a regex.
const maxBranches = 64

// splitBranches splits re at its first alternation (the top-level one, or the first among
// the elements of the top-level concatenation) into the branches an exact plan decides and
// the rest, which still need a regex. It reports false when there is nothing to split.
//
// Where only zero-width assertions precede the alternation, its branches start differently,
// so each remaining branch runs on its own (and is split once more, depth permitting): an
// anchored branch then runs only where its own leading literals occur. Where a consuming
// prefix precedes it, every branch would start alike and running them one by one would
// repeat the prefix's work, so the remaining alternatives stay together in one regex.
func splitBranches(re *syntax.Regexp, depth int) (exact []chain, runs []*syntax.Regexp, ok bool) {
	var elems []*syntax.Regexp
	flattenConcat(re, &elems)
	for k, e := range elems {
		for e.Op == syntax.OpCapture {
			e = e.Sub[0]
		}
		if e.Op != syntax.OpAlternate || len(e.Sub) > maxBranches {
			continue
		}
		top := true
		for _, x := range elems[:k] {
			top = top && zeroWidth(x.Op)
		}
		with := func(alt *syntax.Regexp) *syntax.Regexp {
			if len(elems) == 1 {
				return alt
			}
			sub := append(append(append([]*syntax.Regexp{}, elems[:k]...), alt), elems[k+1:]...)
			return &syntax.Regexp{Op: syntax.OpConcat, Sub: sub}
		}
		var rest []*syntax.Regexp
		for _, alt := range e.Sub {
			b := with(alt)
			if plan := exactPlan(b); plan != nil {
				exact = append(exact, plan...)
				continue
			}
			if !top {
				rest = append(rest, alt)
				continue
			}
			if depth > 0 {
				if ex, rs, ok := splitBranches(b, depth-1); ok {
					exact, runs = append(exact, ex...), append(runs, rs...)
					continue
				}
			}
			runs = append(runs, b)
		}
		switch {
		case !top && exact == nil:
			return nil, nil, false
		case len(rest) == 1:
			runs = append(runs, with(rest[0]))
		case len(rest) > 1:
			runs = append(runs, with(&syntax.Regexp{Op: syntax.OpAlternate, Sub: rest}))
		}
		// Each remaining branch compiles its own regexes: a split into too many is refused.
		return exact, runs, len(exact)+len(runs) > 1 && len(runs) <= maxBranches
	}
	return nil, nil, false
}

// zeroWidth reports whether op is an assertion that consumes nothing.
func zeroWidth(op syntax.Op) bool {
	switch op {
	case syntax.OpWordBoundary, syntax.OpNoWordBoundary, syntax.OpBeginText, syntax.OpBeginLine, syntax.OpEndText, syntax.OpEndLine, syntax.OpEmptyMatch:
		return true
	}
	return false
}

// newBranchPlan returns the branch plan of re, or nil when splitting does not pay: every
// branch must be exact, anchored, windowed, or at least carry a literal requirement, and one
// must be exact, anchored or windowed; with needExact, one must be exact. ids registers
// literals with the prefilter; req emits a requirement and returns its node.
func newBranchPlan(re *syntax.Regexp, needExact bool, ids func(s string) int32, req func(r *req) int32) *branchPlan {
	exact, bs, ok := splitBranches(re, 1)
	if !ok || needExact && exact == nil {
		return nil
	}
	bp := &branchPlan{exact: exact}
	planned := exact != nil
	// Literals and requirements are registered only once the plan is known to pay.
	var register []func()
	for _, b := range bs {
		src := printRegexp(b)
		rx, err := regexp.Compile(src)
		if err != nil {
			return nil
		}
		run := &branchRun{root: -1, needs: byteNeeds(b), re: rx}
		r := simplify(derive(b))
		var lits []string
		if run.anchor, lits = newAnchorPlan(src, b); run.anchor == nil {
			run.window = newWindowPlan(b)
		}
		if run.anchor == nil && run.window == nil && r == nil {
			return nil
		}
		planned = planned || run.anchor != nil || run.window != nil
		bp.runs = append(bp.runs, run)
		register = append(register, func() {
			if r != nil {
				run.root = req(r)
			}
			for _, s := range lits {
				run.anchor.lits = append(run.anchor.lits, ids(s))
			}
			if run.window != nil {
				run.window.register(ids)
			}
		})
	}
	if !planned {
		return nil
	}
	for _, f := range register {
		f()
	}
	for ci := range bp.exact {
		for si := range bp.exact[ci].segs {
			sg := &bp.exact[ci].segs[si]
			for _, s := range sg.strs {
				sg.lits = append(sg.lits, ids(s))
			}
		}
	}
	return bp
}
