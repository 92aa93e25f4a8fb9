package prefilter

import (
	"regexp/syntax"
	"strings"

	"github.com/weirgw/weir/rules/internal/fold"
)

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
// fold-canonical, so any rune the regex accepts appears there as its fold.Rune form.
func literalReq(re *syntax.Regexp) *req {
	var b strings.Builder
	for _, r := range re.Rune {
		if re.Flags&syntax.FoldCase != 0 {
			r = fold.Rune(r)
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

// concatReq is the AND of the children. Adjacent children with a small finite language
// (literals, small classes, optional letters) merge into one set of longer strings, up to
// maxRunVariants of them: a longer literal is more selective and still must occur whenever the
// concatenation matches (`analy[sz]e` requires analyse or analyze, `[Ee]rror` Error or error).
func concatReq(subs []*syntax.Regexp) *req {
	r := &req{op: reqAnd}
	run := []string{""}
	flush := func() {
		switch {
		case len(run) == 1 && run[0] == "":
		case len(run) == 1:
			r.kids = append(r.kids, &req{op: reqLit, lit: run[0]})
		default:
			or := &req{op: reqOr}
			for _, s := range run {
				or.kids = append(or.kids, &req{op: reqLit, lit: s})
			}
			r.kids = append(r.kids, or)
		}
		run = []string{""}
	}
	for _, s := range subs {
		if set := runSet(s); set != nil {
			// A run with a string too short to keep would be lost at the flush, so it may grow
			// further: Go factors `Corp|Co|Inc` into C(?:orp|o)|Inc, whose "C" alone says nothing.
			if p := product(run, set); p != nil && (len(p) <= maxRunVariants || tooShort(run) && len(p) <= maxShortRun) {
				run = p
				continue
			}
			flush()
			run = set
			continue
		}
		flush()
		if k := derive(s); k != nil {
			r.kids = append(r.kids, k)
		}
	}
	flush()
	return r
}

// maxRunVariants bounds the strings a merged run of concatReq may stand for; maxShortRun
// bounds it while the run still has a string shorter than minLiteral.
const (
	maxRunVariants = 16
	maxShortRun    = 256
)

// tooShort reports whether some string of run is shorter than minLiteral.
func tooShort(run []string) bool {
	for _, s := range run {
		if len(s) < minLiteral {
			return true
		}
	}
	return false
}

// runSet returns the strings re may match when they are few enough to merge with their
// neighbours (literals folded as literalReq folds them), or nil.
func runSet(re *syntax.Regexp) []string {
	switch re.Op {
	case syntax.OpLiteral:
		return []string{literalReq(re).lit}
	case syntax.OpCharClass:
		if k := classReq(re); k != nil {
			set := make([]string, len(k.kids))
			for i, l := range k.kids {
				set[i] = l.lit
			}
			return set
		}
		return nil
	}
	if languageBound(re) > maxShortRun {
		return nil
	}
	if set, ok := language(re); ok {
		return set
	}
	return nil
}

// languageBound is an upper bound on the size of language(re), counted without building the
// strings (a large alternation would otherwise cost a quadratic union); it saturates at
// maxExactLits+1, and is that for a regex language rejects for its shape.
func languageBound(re *syntax.Regexp) int {
	const over = maxExactLits + 1
	switch re.Op {
	case syntax.OpLiteral, syntax.OpEmptyMatch:
		return 1
	case syntax.OpCharClass:
		n := 0
		for i := 0; i+1 < len(re.Rune); i += 2 {
			if n += int(re.Rune[i+1]-re.Rune[i]) + 1; n > over {
				return over
			}
		}
		return n
	case syntax.OpCapture:
		return languageBound(re.Sub[0])
	case syntax.OpQuest:
		return min(over, 1+languageBound(re.Sub[0]))
	case syntax.OpAlternate:
		n := 0
		for _, s := range re.Sub {
			if n += languageBound(s); n > over {
				return over
			}
		}
		return n
	case syntax.OpConcat:
		n := 1
		for _, s := range re.Sub {
			if n *= languageBound(s); n > over {
				return over
			}
		}
		return n
	}
	return over
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
