package prefilter

import (
	"regexp/syntax"
)

// New builds the prefilter of the parsed regexes res (parsed with syntax.Perl, as
// regexp.Compile does) from their sources srcs, which anchor and branch plans compile
// twins from (srcs nil: no anchor, branch or window plans).
func New(res []*syntax.Regexp, srcs []string) *Prefilter { return newPrefilterSrc(res, srcs) }

// NewTerms is New that also finds the given term lists (alias tables) in the same scan:
// terms[k][j] becomes literal TermLiterals(k)[j], whose occurrences a Scratch lists.
func NewTerms(res []*syntax.Regexp, srcs []string, terms [][]string) *Prefilter {
	return newPrefilterTerms(res, srcs, terms)
}

// TermLiterals returns the literal indices of the k-th term list given to NewTerms.
func (p *Prefilter) TermLiterals(k int) []int32 { return p.termLits[k] }

// NumLiterals returns how many literals the prefilter scans for: literal indices are below it.
func (p *Prefilter) NumLiterals() int { return p.nlits }

// Get returns a Scratch for one text, from the prefilter's pool.
func (p *Prefilter) Get() *Scratch { return p.scratch.Get().(*Scratch) }

// Put returns sc to the prefilter's pool; sc must not be used afterwards.
func (p *Prefilter) Put(sc *Scratch) { p.scratch.Put(sc) }

// Index chains the occurrences of the text Decide scanned by literal; First and Occurrence
// need it. It costs nothing after the first call for a text.
func (sc *Scratch) Index() { sc.index() }

// Found returns the literals the scan saw, in the order first seen.
func (sc *Scratch) Found() []int32 { return sc.found }

// Seen reports whether the scan saw literal lit.
func (sc *Scratch) Seen(lit int32) bool { return sc.seen[lit>>6]&(1<<(lit&63)) != 0 }

// First returns the first occurrence of literal lit in the text, -1 when none; its
// positions are tracked only for term lists (see NewTerms) and what plans check. Index first.
func (sc *Scratch) First(lit int32) int32 { return sc.occ.head[lit] }

// Occurrence returns occurrence e: text[start:end] holds its literal; next is the literal's
// next occurrence in text order, -1 after the last.
func (sc *Scratch) Occurrence(e int32) (start, end int, next int32) {
	o := &sc.occ.ev[e]
	return int(o.start), int(o.end), o.next
}

// Road names how MatchString answers for pattern i: "exact" or "loop" (Decide's verdict is
// the answer), "branch" (branch by branch), "anchor" (the regex only where a match can
// start), "window" (only around a required literal) or "regex" (the plain regex).
func (p *Prefilter) Road(i int) string {
	switch {
	case p.plans[i] != nil:
		return "exact"
	case p.loops[i] != nil:
		return "loop"
	case p.branches[i] != nil:
		return "branch"
	case p.anchors[i] != nil:
		return "anchor"
	case p.windows[i] != nil:
		return "window"
	}
	return "regex"
}

// EachRoad names how Each and FindAll answer for pattern i: "anchor", "window" or "regex".
func (p *Prefilter) EachRoad(i int) string {
	switch {
	case p.anchors[i] != nil:
		return "anchor"
	case p.windows[i] != nil:
		return "window"
	}
	return "regex"
}
