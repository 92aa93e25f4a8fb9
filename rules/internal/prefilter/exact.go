package prefilter

import (
	"regexp/syntax"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/weirgw/weir/rules/internal/fold"
)

// An exact plan describes a pattern whose match can be decided from the positions of its
// literals alone: alternatives (chains) of literal sets joined by gaps, with optional \b next to
// each literal and ^/$ at the ends, e.g. `\b(show|list)\b.*\bfindings?\b`,
// `\b(critical|high)\s+(priority|severity)\b` or `.*(?:\band\b|\bthen\b|[.;,]).*`. Such a
// pattern matches exactly when some chain finds, for each set in order, an occurrence whose
// boundaries hold and whose gap to the previous occurrence has the gap's shape.
type chain struct {
	segs         []exactSeg
	gaps         []gapKind // gaps[k] joins segs[k] and segs[k+1]
	begin, atEnd bool      // anchored at the start / end of the text
}

// exactSeg is one literal set of a chain.
type exactSeg struct {
	strs []string // the literals, fold-canonical
	wb   []uint8  // per literal: wbBefore and wbAfter, the \b required right before / after it
	lits []int32  // their AC indices, filled by newPrefilter
	// A large set (an alias table spelled out) also has member, with bit lit set for each of
	// lits, and order, the indices into lits sorted by literal: match then visits the
	// literals the text holds, when they are fewer, instead of every literal of the set
	// (see pick).
	member []uint64
	order  []int32
}

// The word-boundary flags of a literal.
const (
	wbBefore uint8 = 1 << iota
	wbAfter
)

// gapKind is what may separate two literal sets of a chain.
type gapKind uint8

// The gap kinds.
const (
	gapDot    gapKind = iota // .*  any text without '\n'
	gapAny                   // (?s).*  any text
	gapSpaces                // \s+  one or more of [\t\n\f\r ]
	gapSpace0                // \s*  zero or more of [\t\n\f\r ]
)

// maxSetClass bounds the character classes a literal set expands: enough for \s, \d (in
// `20\d\d`) and small punctuation classes such as [.;:?!,-].
const maxSetClass = 10

// maxExactLits bounds the literals one set may expand to (`(a|b)(c|d)s?` is 8; an alias
// table of a few hundred terms expands to as many).
const maxExactLits = 1024

// exactPlan returns the chains of re when its match is decidable from literal positions, or nil.
func exactPlan(re *syntax.Regexp) []chain {
	for re.Op == syntax.OpCapture {
		re = re.Sub[0]
	}
	alts := []*syntax.Regexp{re}
	if re.Op == syntax.OpAlternate {
		alts = re.Sub
	}
	var plan []chain
	for _, a := range alts {
		c, ok := chainOf(a)
		if !ok {
			return nil
		}
		plan = append(plan, c)
	}
	return plan
}

// planReq is the literal requirement of a plan: some chain has a literal of every set. Sets
// with a literal shorter than minLiteral are left out (too common to filter anything); a chain
// left with no set means the plan has no requirement (nil).
func planReq(plan []chain) *req {
	or := &req{op: reqOr}
	for _, c := range plan {
		and := &req{op: reqAnd}
		for _, sg := range c.segs {
			set := &req{op: reqOr}
			for _, s := range sg.strs {
				if len(s) < minLiteral {
					set = nil
					break
				}
				set.kids = append(set.kids, &req{op: reqLit, lit: s})
			}
			if set != nil {
				and.kids = append(and.kids, one(set))
			}
		}
		if len(and.kids) == 0 {
			return nil
		}
		or.kids = append(or.kids, one(and))
	}
	return one(or)
}

// token is one element of a flattened concatenation.
type token struct {
	kind tokKind
	gap  gapKind
	set  []bword
}

// tokKind classifies the elements chainOf understands.
type tokKind uint8

// The token kinds.
const (
	tokSet tokKind = iota
	tokBegin
	tokEnd
	tokGap
)

// chainOf reads re as a chain, or reports false.
func chainOf(re *syntax.Regexp) (chain, bool) {
	var toks []token
	if !flatten(re, &toks) {
		return chain{}, false
	}
	var c chain
	i := 0
	if i < len(toks) && toks[i].kind == tokBegin {
		c.begin = true
		i++
	}
	end := len(toks)
	if end > i && toks[end-1].kind == tokEnd {
		c.atEnd = true
		end--
	}
	// Leading and trailing .* / \s* can match the empty string, so they decide nothing.
	for !c.begin && i < end && toks[i].kind == tokGap && toks[i].gap != gapSpaces {
		i++
	}
	for !c.atEnd && end > i && toks[end-1].kind == tokGap && toks[end-1].gap != gapSpaces {
		end--
	}
	for i < end {
		set := []bword{{}}
		n := 0
		for ; i < end && toks[i].kind == tokSet; i++ {
			if set = productB(set, toks[i].set); set == nil {
				return chain{}, false
			}
			n++
		}
		if n == 0 || len(set) == 0 {
			return chain{}, false
		}
		var sg exactSeg
		for _, w := range set {
			// Single word bytes occur everywhere; tracking them would cost more than the regex.
			if w.s == "" || len(w.s) < minLiteral && isREWord(w.s[0]) {
				return chain{}, false
			}
			sg.strs, sg.wb = append(sg.strs, w.s), append(sg.wb, w.wb)
		}
		c.segs = append(c.segs, sg)
		if i == end {
			break
		}
		if toks[i].kind != tokGap || i+1 == end {
			return chain{}, false
		}
		g := toks[i].gap
		if g == gapSpaces || g == gapSpace0 {
			for _, s := range sg.strs {
				if isSpaceByte(s[len(s)-1]) {
					return chain{}, false // the whitespace run would not start where the literal ends
				}
			}
		}
		c.gaps = append(c.gaps, g)
		i++
	}
	return c, len(c.segs) > 0
}

// flatten appends the tokens of re (a concatenation, possibly nested in groups) to toks.
func flatten(re *syntax.Regexp, toks *[]token) bool {
	switch re.Op {
	case syntax.OpConcat:
		for _, s := range re.Sub {
			if !flatten(s, toks) {
				return false
			}
		}
		return true
	case syntax.OpCapture:
		if re.Sub[0].Op == syntax.OpConcat {
			return flatten(re.Sub[0], toks)
		}
	case syntax.OpBeginText:
		*toks = append(*toks, token{kind: tokBegin})
		return true
	case syntax.OpEndText:
		*toks = append(*toks, token{kind: tokEnd})
		return true
	case syntax.OpStar, syntax.OpPlus:
		if g, ok := gapOf(re); ok {
			*toks = append(*toks, token{kind: tokGap, gap: g})
			return true
		}
		return false
	}
	set, ok := boundedLanguage(re)
	if !ok {
		return false
	}
	*toks = append(*toks, token{kind: tokSet, set: set})
	return true
}

// gapOf recognises .*, (?s).*, \s+ and \s*.
func gapOf(re *syntax.Regexp) (gapKind, bool) {
	sub := re.Sub[0]
	switch {
	case re.Op == syntax.OpStar && sub.Op == syntax.OpAnyCharNotNL:
		return gapDot, true
	case re.Op == syntax.OpStar && sub.Op == syntax.OpAnyChar:
		return gapAny, true
	case sub.Op == syntax.OpCharClass && slices.Equal(sub.Rune, []rune{'\t', '\n', '\f', '\r', ' ', ' '}):
		if re.Op == syntax.OpPlus {
			return gapSpaces, true
		}
		return gapSpace0, true
	}
	return 0, false
}

// language returns the finite set of fold-canonical strings re matches, or false when re is
// not a small finite language of literals (or its folding is not exact on canonical text).
func language(re *syntax.Regexp) ([]string, bool) { return languageN(re, maxClassRunes) }

// languageN is language with character classes of up to maxClass runes.
func languageN(re *syntax.Regexp, maxClass int) ([]string, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		var b strings.Builder
		for _, r := range re.Rune {
			if r == utf8.RuneError {
				return nil, false // the regex also matches invalid bytes here
			}
			if re.Flags&syntax.FoldCase != 0 {
				if !foldsTo(r) {
					return nil, false
				}
				r = fold.Rune(r)
			}
			b.WriteRune(r)
		}
		return []string{b.String()}, true
	case syntax.OpCharClass:
		var set []string
		for i := 0; i+1 < len(re.Rune); i += 2 {
			if int(re.Rune[i+1]-re.Rune[i])+1+len(set) > maxClass {
				return nil, false
			}
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				if r == utf8.RuneError {
					return nil, false
				}
				set = append(set, string(r))
			}
		}
		return set, len(set) > 0
	case syntax.OpEmptyMatch:
		return []string{""}, true
	case syntax.OpCapture:
		return languageN(re.Sub[0], maxClass)
	case syntax.OpQuest:
		sub, ok := languageN(re.Sub[0], maxClass)
		if !ok {
			return nil, false
		}
		return union([]string{""}, sub)
	case syntax.OpAlternate:
		var set distinct[string]
		for _, s := range re.Sub {
			sub, ok := languageN(s, maxClass)
			if !ok {
				return nil, false
			}
			for _, x := range sub {
				set.add(x)
			}
			if len(set.items) > maxExactLits {
				return nil, false
			}
		}
		return set.items, true
	case syntax.OpConcat:
		set := []string{""}
		for _, s := range re.Sub {
			sub, ok := languageN(s, maxClass)
			if !ok {
				return nil, false
			}
			if set = product(set, sub); set == nil {
				return nil, false
			}
		}
		return set, true
	}
	return nil, false
}

// foldsTo reports whether a case-insensitive r matches its fold.Rune form, so that on
// fold-canonical text the literal fold.Rune(r) finds exactly what the regex finds ('İ' does not:
// it folds to 'i' but matches only itself).
func foldsTo(r rune) bool {
	f := fold.Rune(r)
	for x := r; ; {
		if x == f {
			return true
		}
		if x = unicode.SimpleFold(x); x == r {
			return false
		}
	}
}

// union merges two string sets, or reports false when the result is too large.
func union(a, b []string) ([]string, bool) {
	d := distinct[string]{items: a}
	for _, s := range b {
		d.add(s)
	}
	return d.items, len(d.items) <= maxExactLits
}

// product concatenates every string of a with every string of b, or returns nil when the
// result is too large.
func product(a, b []string) []string {
	if len(a)*len(b) > maxExactLits {
		return nil
	}
	var out distinct[string]
	for _, x := range a {
		for _, y := range b {
			out.add(x + y)
		}
	}
	return out.items
}

// isSpaceByte reports whether c is in RE2's \s: [\t\n\f\r ].
func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }

// isWordBoundary reports whether RE2's \b holds at text offset i: only ASCII letters, digits and
// '_' are word characters (a byte of a multi-byte rune is not).
func isWordBoundary(text string, i int) bool {
	return isREWord(byteAt(text, i-1)) != isREWord(byteAt(text, i))
}

// occurrences records where the position-checked literals occur in one text.
type occurrences struct {
	ev []occ
	// found lists the literals the scan saw (set by decide), for exactSeg.pick; lis is
	// pick's buffer.
	found []int32
	lis   []int32
	// head[lit] is the first event of lit (-1: none); ev[k].next chains a literal's events in
	// text order. Only valid after index.
	head     []int32
	bufA     []int32
	bufB     []int32
	nindexed int
}

// occ is one occurrence of a literal.
type occ struct{ lit, start, end, next int32 }

func (o *occurrences) reset() {
	for _, e := range o.ev[:o.nindexed] {
		o.head[e.lit] = -1
	}
	o.ev, o.nindexed = o.ev[:0], 0
}

func (o *occurrences) add(lit, start, end int) {
	o.ev = append(o.ev, occ{lit: int32(lit), start: int32(start), end: int32(end), next: -1})
}

// index chains each literal's occurrences in text order (scan reports them by end, and a
// literal's occurrences have distinct ends).
func (o *occurrences) index() {
	for k := len(o.ev) - 1; k >= 0; k-- {
		e := &o.ev[k]
		e.next = o.head[e.lit]
		o.head[e.lit] = int32(k)
	}
	o.nindexed = len(o.ev)
}

// matchAny reports whether some chain of plan matches text.
func (o *occurrences) matchAny(plan []chain, text string) bool {
	for i := range plan {
		if o.match(&plan[i], text) {
			return true
		}
	}
	return false
}

// match decides one chain: prev holds, sorted, the ends of the occurrences of the sets so far
// that complete a match of the chain's prefix.
func (o *occurrences) match(c *chain, text string) bool {
	prev, cur := o.bufA[:0], o.bufB[:0]
	last := len(c.segs) - 1
	for k := range c.segs {
		sg := &c.segs[k]
		cur = cur[:0]
		lis := sg.pick(o.found, o.lis)
		n := len(sg.lits)
		if lis != nil {
			o.lis, n = lis, len(lis)
		}
		for j := range n {
			li := j
			if lis != nil {
				li = int(lis[j])
			}
			wb := sg.wb[li]
			for e := o.head[sg.lits[li]]; e >= 0; e = o.ev[e].next {
				s, end := int(o.ev[e].start), int(o.ev[e].end)
				if wb&wbBefore != 0 && !isWordBoundary(text, s) || wb&wbAfter != 0 && !isWordBoundary(text, end) {
					continue
				}
				if k == 0 && c.begin && s != 0 || k > 0 && !gapOK(c.gaps[k-1], text, prev, s) {
					continue
				}
				if k == last {
					if !c.atEnd || end == len(text) {
						o.bufA, o.bufB = prev, cur
						return true
					}
					continue
				}
				cur = append(cur, int32(end))
			}
		}
		if len(cur) == 0 {
			break
		}
		if len(sg.lits) > 1 {
			slices.Sort(cur)
		}
		prev, cur = cur, prev
	}
	o.bufA, o.bufB = prev, cur
	return false
}

// gapOK reports whether a gap of kind g can run from one of the (sorted) ends in prev to s.
func gapOK(g gapKind, text string, prev []int32, s int) bool {
	switch g {
	case gapAny:
		return int(prev[0]) <= s
	case gapDot:
		// The nearest end at or before s leaves the shortest gap, the likeliest to lack '\n'.
		k, found := slices.BinarySearch(prev, int32(s))
		if !found {
			k--
		}
		return k >= 0 && strings.IndexByte(text[prev[k]:s], '\n') < 0
	}
	p := s
	for p > 0 && isSpaceByte(text[p-1]) {
		p--
	}
	if g == gapSpaces && p == s {
		return false
	}
	_, found := slices.BinarySearch(prev, int32(p))
	return found
}
