package prefilter

import (
	"regexp/syntax"
	"slices"
	"unicode/utf8"
)

// A loop plan decides a pattern that says the whole text is a list of known words:
// `^(?:(?:{{smalltalk}})[\s,.!?]*)+$`, a set of literals each followed by any run of separator
// bytes, repeated to the end. Go's regexp walks such a pattern with every literal of the set
// alive at every word; from the literals' positions the answer is a left-to-right pass instead.
// A position is the end of a block when an occurrence of a literal that starts at the text's
// start or at the end of a block ends there, or when a separator byte follows the end of a
// block; the pattern matches exactly when the text's end is the end of a block.
type loopPlan struct {
	seg  exactSeg   // the literals, their \b flags and AC indices
	sep  *byteClass // the separator bytes (ASCII only)
	star bool       // the loop may repeat zero times (`*` rather than `+`)
}

// newLoopPlan returns the loop plan of re, or nil when re does not have the shape
// ^(?:SET SEP*)+$ (or *), with SET a finite set of non-empty literals (\b allowed next to
// them) and SEP an ASCII character class.
func newLoopPlan(re *syntax.Regexp) *loopPlan {
	var elems []*syntax.Regexp
	flattenConcat(re, &elems)
	if len(elems) != 3 || elems[0].Op != syntax.OpBeginText || elems[2].Op != syntax.OpEndText {
		return nil
	}
	loop := elems[1]
	if loop.Op != syntax.OpPlus && loop.Op != syntax.OpStar {
		return nil
	}
	var body []*syntax.Regexp
	flattenConcat(loop.Sub[0], &body)
	lp := &loopPlan{sep: new(byteClass), star: loop.Op == syntax.OpStar}
	if last := body[len(body)-1]; len(body) > 1 && last.Op == syntax.OpStar && last.Sub[0].Op == syntax.OpCharClass {
		for _, r := range last.Sub[0].Rune {
			if r >= utf8.RuneSelf {
				return nil
			}
		}
		lp.sep.add(last.Sub[0])
		body = body[:len(body)-1]
	}
	set := []bword{{}}
	for _, e := range body {
		sub, ok := boundedLanguage(e)
		if !ok {
			return nil
		}
		if set = productB(set, sub); set == nil {
			return nil
		}
	}
	if len(set) == 0 {
		return nil
	}
	for _, w := range set {
		if w.s == "" {
			return nil
		}
		lp.seg.strs, lp.seg.wb = append(lp.seg.strs, w.s), append(lp.seg.wb, w.wb)
	}
	return lp
}

// loopOcc is one occurrence of a loop plan's literal.
type loopOcc struct {
	start, end int32
	wb         uint8
}

// match reports whether the pattern matches text, given the occurrences of the literals;
// ends and occs are buffers (ends has room for len(text)+1 flags).
func (lp *loopPlan) match(o *occurrences, text string, ends []bool, occs []loopOcc) ([]bool, []loopOcc) {
	n := len(text)
	occs = occs[:0]
	for li, lit := range lp.seg.lits {
		for e := o.head[lit]; e >= 0; e = o.ev[e].next {
			occs = append(occs, loopOcc{o.ev[e].start, o.ev[e].end, lp.seg.wb[li]})
		}
	}
	slices.SortFunc(occs, func(a, b loopOcc) int { return int(a.start - b.start) })
	ends = resize(ends, n+1)
	for _, oc := range occs {
		s, e := int(oc.start), int(oc.end)
		if s != 0 && !ends[s] || ends[e] {
			continue
		}
		if oc.wb&wbBefore != 0 && !isWordBoundary(text, s) || oc.wb&wbAfter != 0 && !isWordBoundary(text, e) {
			continue
		}
		// Marking a block end marks the separator run after it; a run already marked was
		// marked to its end.
		ends[e] = true
		for k := e; k < n && lp.sep[text[k]] && !ends[k+1]; k++ {
			ends[k+1] = true
		}
	}
	return ends, occs
}

// holds reports the verdict match computes: the text's end ends a block (or, for `*`, the
// text is empty).
func (lp *loopPlan) holds(text string, ends []bool) bool {
	return lp.star && len(text) == 0 || ends[len(text)]
}
