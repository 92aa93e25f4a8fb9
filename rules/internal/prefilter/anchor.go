package prefilter

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"unicode/utf8"
)

// An anchor plan runs a pattern only where a match can start. When every match of a pattern
// must begin with one of a set of literals (`\b(?:come posso|come possiamo|…)\s+…`), the
// Aho–Corasick scan already knows every position where one of them occurs; an anchored twin of
// the regex tried at those positions, leftmost first, finds exactly the matches the unanchored
// regex finds, without Go's NFA walking the whole text with hundreds of live threads.
//
// Running a regex on text[pos:] would change what zero-width assertions see at pos: \b and \B
// look at the rune before, ^ at whether there is one, (?m)^ at whether it is '\n'. So for
// pos > 0 the wide twin `^(?s:.)(?:X)` runs on the text from the start of the rune before pos,
// where every assertion at pos sees its real context (a literal never starts with a
// continuation byte, so pos is a rune boundary of Go's left-to-right decoding too); at pos 0
// the narrow twin `^(?:X)` runs on the whole text. Assertions after pos look inside the slice,
// and `$` and `\z` see the real end of the text.
type anchorPlan struct {
	lits   []int32        // AC indices of the leading literals
	member []uint64       // a bit per literal of lits when they are many (see index), else nil
	wb     bool           // every match needs \b at its start (and every literal starts with a word byte)
	begin  bool           // a match may also start at 0 without a leading literal
	narrow *regexp.Regexp // ^(?:X), for text[pos:]
	wide   *regexp.Regexp // ^(?s:.)(?:X), for text[pos-1:]
}

// maxLeadLits bounds the leading literals of one plan; alias tables expand to a few hundred.
const maxLeadLits = 2048

// leadLiteral is the length a lead grows to when the elements that follow it are small
// finite sets (the case variants of a word on the original text: [Tt][Hh][Rr][Oo]…).
const leadLiteral = 4

// maxLeadClass bounds the character classes a lead spells out: a match that starts with
// punctuation (`[;:.?!-]\s+(?:did|were)…`) then runs only after the punctuation, which
// questions hold a few of, instead of over the whole text.
const maxLeadClass = 8

// newAnchorPlan returns the anchor plan of a pattern (its source and parse), or nil.
func newAnchorPlan(src string, re *syntax.Regexp) (*anchorPlan, []string) {
	// Longer leads are more selective: a lead cut at two bytes ("th" of throttl, "co" of
	// concurren) starts the twin at every "the" and "could", and each start costs a run of
	// the twin. When a case-insensitive word is spelled out as its case variants, the lead
	// stops at minLiteral bytes unless asked for more; a lead that grows too large that way
	// falls back to the short one.
	l, ok := lead(re, leadLiteral)
	if !ok || len(l.strs) == 0 {
		l, ok = lead(re, minLiteral)
	}
	if !ok || len(l.strs) == 0 {
		return nil, nil
	}
	set, wb := l.strs, l.wb && !l.begin
	for _, s := range set {
		if s == "" || len(s) < minLiteral && isREWord(s[0]) || s[0] == ' ' {
			return nil, nil // too frequent to be worth a regex run at each occurrence
		}
		if !isREWord(s[0]) {
			wb = false
		}
	}
	narrow, err1 := regexp.Compile(`^(?:` + src + `)`)
	wide, err2 := regexp.Compile(`^(?s:.)(?:` + src + `)`)
	if err1 != nil || err2 != nil {
		return nil, nil
	}
	return &anchorPlan{wb: wb, begin: l.begin, narrow: narrow, wide: wide}, set
}

// leadSet is what every match of a regex starts with: one of strs, or (begin) the start of
// the text; wb says every match that starts with one of strs also needs \b right before it.
type leadSet struct {
	strs      []string
	wb, begin bool
}

// lead returns the lead set of re, or false when re has none (a match may start anywhere);
// its literals grow to n bytes where they can.
func lead(re *syntax.Regexp, n int) (leadSet, bool) {
	switch re.Op {
	case syntax.OpCapture, syntax.OpPlus:
		return lead(re.Sub[0], n)
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return lead(re.Sub[0], n)
		}
	case syntax.OpBeginText:
		return leadSet{begin: true}, true
	case syntax.OpConcat:
		return leadConcat(re.Sub, n)
	case syntax.OpAlternate:
		l := leadSet{wb: true}
		var strs distinct[string]
		for _, s := range re.Sub {
			sub, ok := lead(s, n)
			if !ok {
				return leadSet{}, false
			}
			l.wb = l.wb && (sub.wb || len(sub.strs) == 0)
			l.begin = l.begin || sub.begin
			for _, x := range sub.strs {
				strs.add(x)
			}
			if len(strs.items) > maxLeadLits {
				return leadSet{}, false
			}
		}
		l.strs = strs.items
		return l, true
	case syntax.OpLiteral, syntax.OpCharClass:
		set, ok := languageN(re, maxLeadClass)
		return leadSet{strs: set}, ok && !slices.Contains(set, "")
	}
	return leadSet{}, false
}

// leadConcat is the lead set of a concatenation: every match starts with a match of the
// leading elements, so the set extends over finite elements until its literals are long
// enough to be selective, n bytes (Go factors alternations, so `top|tail` arrives as
// t(?:op|ail) and the first element alone is one byte).
//
// Nested concatenations are looked into: the original-text prefilter spells a
// case-insensitive word out as a concatenation of case classes, and the lead takes its
// first n bytes (16 variants of "thro") rather than all of its variants (128 of "throttl").
func leadConcat(subs []*syntax.Regexp, n int) (leadSet, bool) {
	var flat []*syntax.Regexp
	for _, s := range subs {
		flattenConcat(s, &flat)
	}
	subs = flat
	var l leadSet
	set := []string{""}
	atStart := func() bool { return len(set) == 1 && set[0] == "" }
	for _, s := range subs {
		if longEnough(set, n) {
			break
		}
		if zeroWidthLead(s.Op) {
			if !atStart() {
				break
			}
			// ^foo still starts with foo; \b before the first element holds for all of it.
			l.wb = l.wb || s.Op == syntax.OpWordBoundary
			continue
		}
		// Past minLiteral bytes a lead grows only by word bytes (the rest of a word), not by
		// the space or punctuation that follows one.
		short := !longEnough(set, minLiteral)
		if x, ok := languageN(s, maxLeadClass); ok && (short || wordStarts(x)) {
			if p := productCap(set, x); p != nil {
				set = p
				if !short {
					// Grown past minLiteral, a lead needs no more than n bytes: the case
					// variants of a whole word would multiply the literals for nothing. A
					// cut literal is no longer all that the elements so far matched, so
					// the lead stops growing there.
					var cut bool
					if set, cut = cutSet(p, n); cut {
						break
					}
				}
				continue
			}
			break
		}
		if !short {
			break
		}
		sub, ok := lead(s, n)
		if !ok {
			break
		}
		if atStart() {
			// A ^ alternative at the very start: the match may start at 0 with anything.
			l.wb, l.begin, set = l.wb || sub.wb, sub.begin, sub.strs
		} else if p := productCap(set, sub.strs); p != nil {
			// A ^ after a non-empty prefix never matches, so sub.begin adds nothing.
			set = p
		}
		break
	}
	if atStart() {
		return leadSet{}, false
	}
	l.strs = set
	return l, true
}

// cutSet cuts the strings of set to their first n bytes (a literal may end inside a
// rune: the scan matches bytes), without duplicates; it reports whether it cut any.
func cutSet(set []string, n int) ([]string, bool) {
	var out distinct[string]
	cut := false
	for _, s := range set {
		if len(s) > n {
			s, cut = s[:n], true
		}
		out.add(s)
	}
	return out.items, cut
}

// wordStarts reports whether every string of set starts with a word byte or a non-ASCII
// rune (ſ, the long s, is a case variant of s).
func wordStarts(set []string) bool {
	for _, s := range set {
		if s == "" || !isREWord(s[0]) && s[0] < utf8.RuneSelf {
			return false
		}
	}
	return true
}

// zeroWidthLead reports whether op is an assertion the twins evaluate with the right context
// (see anchorPlan), so a lead may look past it.
func zeroWidthLead(op syntax.Op) bool {
	switch op {
	case syntax.OpWordBoundary, syntax.OpNoWordBoundary, syntax.OpBeginText, syntax.OpBeginLine:
		return true
	}
	return false
}

// longEnough reports whether every literal of set has at least n bytes.
func longEnough(set []string, n int) bool {
	for _, s := range set {
		if len(s) < n {
			return false
		}
	}
	return true
}

// productCap is product with the anchor plans' larger bound.
func productCap(a, b []string) []string {
	if len(a)*len(b) > maxLeadLits {
		return nil
	}
	out := distinct[string]{items: make([]string, 0, len(a)*len(b))}
	for _, x := range a {
		for _, y := range b {
			out.add(x + y)
		}
	}
	return out.items
}

// index builds member when the plan has many literals (a case-insensitive vocabulary on the
// original text spells out hundreds); nlits is the prefilter's literal count.
func (a *anchorPlan) index(nlits int) {
	if len(a.lits) < minIndexedSet {
		return
	}
	a.member = make([]uint64, (nlits+63)/64)
	for _, lit := range a.lits {
		a.member[lit>>6] |= 1 << (lit & 63)
	}
}

// starts appends to buf, sorted and distinct, the positions where a leading literal of a occurs.
// A plan with more literals than the text holds visits those the scan saw instead of its own.
func (a *anchorPlan) starts(o *occurrences, buf []int32) []int32 {
	buf = buf[:0]
	if a.begin {
		buf = append(buf, 0)
	}
	lits := a.lits
	if a.member != nil && len(o.found) < len(lits) {
		lits = o.found
	}
	for _, lit := range lits {
		if a.member != nil && a.member[lit>>6]&(1<<(lit&63)) == 0 {
			continue
		}
		for e := o.head[lit]; e >= 0; e = o.ev[e].next {
			buf = append(buf, o.ev[e].start)
		}
	}
	if len(buf) > 1 {
		slices.Sort(buf)
		buf = slices.Compact(buf)
	}
	return buf
}

// at runs the anchored twin at pos and returns the submatch indexes relative to text, or nil.
// With sub false only m[0:2] are filled (cheaper).
func (a *anchorPlan) at(text string, pos int, sub bool) []int {
	if a.wb && !isWordBoundary(text, pos) {
		return nil
	}
	re, from := a.narrow, pos
	if pos > 0 {
		_, size := utf8.DecodeLastRuneInString(text[:pos])
		re, from = a.wide, pos-size
	}
	var m []int
	if sub {
		m = re.FindStringSubmatchIndex(text[from:])
	} else if re.MatchString(text[from:]) {
		return []int{}
	}
	if m == nil {
		return nil
	}
	if from < pos {
		// The wide twin's match starts at the context rune; the pattern's own match does not.
		m[0] += pos - from
	}
	for i := range m {
		if m[i] >= 0 {
			m[i] += from
		}
	}
	return m
}

// matchString reports whether the pattern matches text, trying only the given starts.
func (a *anchorPlan) matchString(text string, starts []int32) bool {
	for _, s := range starts {
		if a.at(text, int(s), false) != nil {
			return true
		}
	}
	return false
}

// each calls fn with the matches of regexp.FindAllStringSubmatchIndex(text, -1), trying only
// the given starts, until fn returns false. The leading literals are never empty, so neither
// is a match, and the next match starts at or after the previous end.
func (a *anchorPlan) each(text string, starts []int32, fn func(m []int) bool) {
	end := 0
	for _, s := range starts {
		if int(s) < end {
			continue
		}
		if m := a.at(text, int(s), true); m != nil {
			if !fn(m) {
				return
			}
			end = m[1]
		}
	}
}
