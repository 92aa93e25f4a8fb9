package data

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// foldMap maps every precomposed Latin letter with diacritics (Latin-1 Supplement, Latin
// Extended-A and -B, Latin Extended Additional: Italian, Vietnamese, ...) to its lower-case
// base letter, plus a few letters that do not decompose (đ, ø, ł, ı, ħ). One rune maps to one
// rune, so the same table drives Fold in Go and PostgreSQL's translate().
var foldMap = buildFoldMap()

// foldFrom and foldTo are foldMap as translate() arguments; foldFrom also lists the
// combining marks U+0300–U+036F with no counterpart in foldTo, which translate() deletes.
var foldFrom, foldTo = foldStrings()

func buildFoldMap() map[rune]rune {
	m := map[rune]rune{'đ': 'd', 'Đ': 'd', 'ø': 'o', 'Ø': 'o', 'ł': 'l', 'Ł': 'l', 'ı': 'i', 'ħ': 'h', 'Ħ': 'h'}
	for _, rg := range [][2]rune{{0xC0, 0x24F}, {0x1E00, 0x1EFF}} {
		for r := rg[0]; r <= rg[1]; r++ {
			base := []rune(stripMarks(norm.NFD.String(string(r))))
			if len(base) == 1 && base[0] < 0x80 && base[0] != r && unicode.IsLetter(base[0]) {
				m[r] = unicode.ToLower(base[0])
			}
		}
	}
	return m
}

func stripMarks(s string) string {
	return strings.Map(func(r rune) rune {
		if isCombiningMark(r) {
			return -1
		}
		return r
	}, s)
}

func isCombiningMark(r rune) bool { return r >= 0x300 && r <= 0x36F }

func foldStrings() (string, string) {
	var from, to strings.Builder
	for _, k := range sortedRunes(foldMap) {
		from.WriteRune(k)
		to.WriteRune(foldMap[k])
	}
	for r := rune(0x300); r <= 0x36F; r++ {
		from.WriteRune(r)
	}
	return from.String(), to.String()
}

func sortedRunes(m map[rune]rune) []rune {
	keys := make([]rune, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	for i := 1; i < len(keys); i++ { // insertion sort: a few hundred keys, once
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
}

// FoldTable returns the translate() arguments equivalent to Fold's letter mapping, for SQL
// backends without a Go function hook (PostgreSQL).
func FoldTable() (from, to string) { return foldFrom, foldTo }

// Fold is the normalized match strategy's form of a string: combining marks removed, Latin
// letters with diacritics replaced by their base letter, lower-cased, whitespace trimmed and
// collapsed to single spaces. "  CÔNG  TY Ábc " folds to "cong ty abc".
func Fold(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		switch {
		case isCombiningMark(r):
			continue
		case unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		if m, ok := foldMap[r]; ok {
			r = m
		} else {
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// MaxFuzzyRunes bounds the text a fuzzy comparison reads, so that its cost per row is bounded.
const MaxFuzzyRunes = 512

// FuzzyMatch reports whether hay matches needle within k edits (Levenshtein distance) for
// an operator: equals compares whole values, startsWith any prefix of hay, contains any
// substring of hay. Both strings should already be Fold-ed.
func FuzzyMatch(op, hay, needle string, k int) bool {
	h, n := []rune(hay), []rune(needle)
	if len(h) > MaxFuzzyRunes {
		h = h[:MaxFuzzyRunes]
	}
	if op == OpEquals || op == OpIn {
		if d := len(h) - len(n); d > k || -d > k {
			return false
		}
	}
	return fuzzyDistance(op, h, n) <= k
}

// fuzzyDistance computes, column by column over hay, the edit distance of needle against
// hay (equals), against hay's best prefix (startsWith) or best substring (contains, Sellers'
// algorithm: a match may start at any column for free).
func fuzzyDistance(op string, hay, needle []rune) int {
	m := len(needle)
	col := make([]int, m+1)
	for i := range col {
		col[i] = i
	}
	best := col[m]
	for j := 1; j <= len(hay); j++ {
		diag := col[0]
		if op != OpContains {
			col[0] = j
		}
		for i := 1; i <= m; i++ {
			cost := 1
			if needle[i-1] == hay[j-1] {
				cost = 0
			}
			next := min(col[i]+1, col[i-1]+1, diag+cost)
			diag, col[i] = col[i], next
		}
		best = min(best, col[m])
	}
	if op == OpEquals || op == OpIn {
		return col[m]
	}
	return best
}

// Levenshtein returns the edit distance between two strings, in runes.
func Levenshtein(a, b string) int { return fuzzyDistance(OpEquals, []rune(a), []rune(b)) }
