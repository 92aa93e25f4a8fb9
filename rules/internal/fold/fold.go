// Package fold defines the fold-canonical lower case that rule packs are matched in: the
// normalizer lower-cases with it, and the prefilter folds its literals with it at compile
// time, so the two meet byte for byte.
package fold

import (
	"unicode"
	"unicode/utf8"
)

// Rune returns the fold-canonical lower-case form of r: unicode.ToLower of the smallest rune
// in r's unicode.SimpleFold orbit, so 'K' (Kelvin) and 'K' become 'k', 'ſ' becomes 's'.
// The one exception is the iota orbit, whose smallest rune is a combining mark: it folds
// to 'ι'.
func Rune(r rune) rune {
	if r < utf8.RuneSelf {
		if 'A' <= r && r <= 'Z' {
			r += 'a' - 'A'
		}
		return r
	}
	// The combining ypogegrammeni U+0345 is the smallest rune of the iota orbit; skipping it
	// keeps Greek iota a letter instead of a mark that diacritic folding would then drop.
	m := r
	if r == 0x345 {
		m = unicode.MaxRune
	}
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		if f != 0x345 {
			m = min(m, f)
		}
	}
	return unicode.ToLower(m)
}
