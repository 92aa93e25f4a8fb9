package prefilter

import (
	"regexp/syntax"
	"slices"
	"unicode"
)

// Patterns with `on: original` run on the question as typed, which is not fold-canonical, so
// the prefilter's folded literals say nothing about it. They get a prefilter of their own,
// built from their parse trees with every case-insensitive literal spelled out as the
// classes it stands for ((?i)ab becomes [Aa][Bb], (?i)k becomes [Kk\x{212A}]): the rewritten
// tree matches exactly what the pattern matches, has no folding left, and its literals are
// the bytes to look for in the original text. Everything the prefilter derives from it
// (requirements, exact, anchor, window and branch plans) then holds on any text.

// ExactCase returns re with every case-insensitive literal replaced by the concatenation of
// its runes' case orbits; re itself is left unchanged.
func ExactCase(re *syntax.Regexp) *syntax.Regexp {
	if re.Op == syntax.OpLiteral && re.Flags&syntax.FoldCase != 0 {
		cat := &syntax.Regexp{Op: syntax.OpConcat}
		for _, r := range re.Rune {
			orbit := []rune{r}
			for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
				orbit = append(orbit, f)
			}
			if len(orbit) == 1 {
				cat.Sub = append(cat.Sub, &syntax.Regexp{Op: syntax.OpLiteral, Rune: orbit})
				continue
			}
			slices.Sort(orbit)
			class := make([]rune, 0, 2*len(orbit))
			for _, o := range orbit {
				class = append(class, o, o)
			}
			cat.Sub = append(cat.Sub, &syntax.Regexp{Op: syntax.OpCharClass, Rune: class})
		}
		if len(cat.Sub) == 1 {
			return cat.Sub[0]
		}
		return cat
	}
	if len(re.Sub) == 0 {
		return re
	}
	cp := *re
	cp.Sub = make([]*syntax.Regexp, len(re.Sub))
	for i, s := range re.Sub {
		cp.Sub[i] = ExactCase(s)
	}
	return &cp
}
