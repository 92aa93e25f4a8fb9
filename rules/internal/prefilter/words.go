package prefilter

import (
	"regexp/syntax"
	"slices"
)

// bword is one string of a bounded language: a fold-canonical literal with the word
// boundaries (wbBefore, wbAfter) the regex requires right before and after it.
type bword struct {
	s  string
	wb uint8
}

// boundedLanguage is language extended with \b: it returns the finite set of literals re
// matches, each with the boundaries it needs at its ends, or false. A \b between two known
// bytes is decided here (`what\b ` keeps, `foo\bbar` drops the string), so only the ends
// are left to check against the text; `(?:\band\b|\bthen\b|[.;,])` becomes and, then (both
// bounded) and three bare punctuation literals.
func boundedLanguage(re *syntax.Regexp) ([]bword, bool) {
	switch re.Op {
	case syntax.OpWordBoundary:
		return []bword{{wb: wbBefore | wbAfter}}, true
	case syntax.OpCapture:
		return boundedLanguage(re.Sub[0])
	case syntax.OpQuest:
		sub, ok := boundedLanguage(re.Sub[0])
		if !ok {
			return nil, false
		}
		return unionB([]bword{{}}, sub)
	case syntax.OpAlternate:
		var set distinct[bword]
		for _, s := range re.Sub {
			sub, ok := boundedLanguage(s)
			if !ok {
				return nil, false
			}
			for _, w := range sub {
				set.add(w)
			}
			if len(set.items) > maxExactLits {
				return nil, false
			}
		}
		return set.items, true
	case syntax.OpConcat:
		set := []bword{{}}
		for _, s := range re.Sub {
			sub, ok := boundedLanguage(s)
			if !ok {
				return nil, false
			}
			if set = productB(set, sub); set == nil {
				return nil, false
			}
		}
		return set, true
	}
	strs, ok := languageN(re, maxSetClass)
	if !ok {
		return nil, false
	}
	set := make([]bword, len(strs))
	for i, s := range strs {
		set[i] = bword{s: s}
	}
	return set, true
}

// unionB merges two sets, or reports false when the result is too large.
func unionB(a, b []bword) ([]bword, bool) {
	d := distinct[bword]{items: a}
	for _, w := range b {
		d.add(w)
	}
	return d.items, len(d.items) <= maxExactLits
}

// productB concatenates every word of a with every word of b, dropping the combinations whose
// inner \b cannot hold; it returns nil when the result is too large.
func productB(a, b []bword) []bword {
	if len(a)*len(b) > maxExactLits {
		return nil
	}
	out := distinct[bword]{items: []bword{}}
	for _, x := range a {
		for _, y := range b {
			if w, ok := joinB(x, y); ok {
				out.add(w)
			}
		}
	}
	return out.items
}

// distinct collects distinct values in the order they come: a linear scan while few, a map
// once many (alias tables make sets of hundreds).
type distinct[T comparable] struct {
	items []T
	index map[T]struct{}
}

func (d *distinct[T]) add(v T) {
	if d.index == nil {
		if slices.Contains(d.items, v) {
			return
		}
		d.items = append(d.items, v)
		if len(d.items) > 32 {
			d.index = make(map[T]struct{}, 2*len(d.items))
			for _, x := range d.items {
				d.index[x] = struct{}{}
			}
		}
		return
	}
	if _, ok := d.index[v]; !ok {
		d.index[v] = struct{}{}
		d.items = append(d.items, v)
	}
}

// joinB concatenates x and y; false when a \b between them cannot hold. RE2's \b only knows
// ASCII word bytes, and every byte of a multi-byte rune is a non-word byte, so the last byte
// of x and the first of y decide it.
func joinB(x, y bword) (bword, bool) {
	switch {
	case x.s == "" && y.s == "":
		// Both flags of an empty word name the same position.
		if x.wb|y.wb != 0 {
			return bword{wb: wbBefore | wbAfter}, true
		}
		return bword{}, true
	case x.s == "":
		if x.wb != 0 {
			y.wb |= wbBefore
		}
		return y, true
	case y.s == "":
		if y.wb != 0 {
			x.wb |= wbAfter
		}
		return x, true
	}
	if (x.wb&wbAfter != 0 || y.wb&wbBefore != 0) && isREWord(x.s[len(x.s)-1]) == isREWord(y.s[0]) {
		return bword{}, false
	}
	return bword{s: x.s + y.s, wb: x.wb&wbBefore | y.wb&wbAfter}, true
}
