package rules

import (
	"strconv"
	"strings"
)

// isLetter reports whether c is an ASCII letter.
func isLetter(c byte) bool { return ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') }

// scanNumbers finds numbers that stand alone (not glued to letters or other digits).
func scanNumbers(text string, _ timeFunc, hs []hit) []hit {
	for pos := 0; ; {
		m, e := nextNumber(text, pos)
		if m < 0 {
			return hs
		}
		pos = e
		s := m
		if text[s] == '-' && (isAlnum(byteAt(text, s-1)) || byteAt(text, s-1) == '-') {
			s++ // a hyphen after a word or digit is a dash, not a sign (2024-01-15)
		}
		if isLetter(byteAt(text, s-1)) || isLetter(byteAt(text, e)) || isDigit(byteAt(text, s-1)) {
			continue
		}
		if v, ok := parseNumber(text[s:e]); ok {
			hs = append(hs, hit{v, s, e})
		}
	}
}

// nextNumber returns the leftmost number at or after pos, as the expression
// `-?(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d{1,3}(?:\.\d{3}){2,}(?:,\d+)?|\d{1,3}\.\d{3},\d+|\d+(?:[.,]\d+)?)`
// would find it: English (1,234.5) and Italian (1.234,5) thousands groupings and plain decimals.
// The Italian form needs two groups or a decimal comma, so a lone "1.234" stays a decimal.
// It returns -1 when there is none.
func nextNumber(text string, pos int) (start, end int) {
	for i := pos; i < len(text); i++ {
		c := text[i]
		if c == '-' && isDigit(byteAt(text, i+1)) {
			return i, numberEnd(text, i+1)
		}
		if isDigit(c) {
			return i, numberEnd(text, i)
		}
	}
	return -1, -1
}

// numberEnd returns where the number whose digits start at i ends, trying the forms in the
// expression's order: comma groups, two or more dot groups, dot group plus decimal comma, plain.
func numberEnd(text string, i int) int {
	j := digitsEnd(text, i)
	if j-i <= 3 {
		if k := groups(text, j, ','); k > 0 {
			if byteAt(text, k) == '.' && isDigit(byteAt(text, k+1)) {
				k = digitsEnd(text, k+1)
			}
			return k
		}
		if k := groups(text, j, '.'); k-j >= 8 {
			if byteAt(text, k) == ',' && isDigit(byteAt(text, k+1)) {
				k = digitsEnd(text, k+1)
			}
			return k
		}
		if group(text, j, '.') && byteAt(text, j+4) == ',' && isDigit(byteAt(text, j+5)) {
			return digitsEnd(text, j+5)
		}
	}
	if c := byteAt(text, j); (c == '.' || c == ',') && isDigit(byteAt(text, j+1)) {
		j = digitsEnd(text, j+1)
	}
	return j
}

// digitsEnd returns the end of the run of digits starting at i.
func digitsEnd(text string, i int) int {
	for i < len(text) && isDigit(text[i]) {
		i++
	}
	return i
}

// group reports whether text[i:] starts with sep followed by three digits.
func group(text string, i int, sep byte) bool {
	return byteAt(text, i) == sep && isDigit(byteAt(text, i+1)) && isDigit(byteAt(text, i+2)) && isDigit(byteAt(text, i+3))
}

// groups returns the end of the longest run of sep+3-digit groups at i, or 0 when there is none.
func groups(text string, i int, sep byte) int {
	k := i
	for group(text, k, sep) {
		k += 4
	}
	if k == i {
		return 0
	}
	return k
}

// parseNumber converts a matched number, deciding which separator is the decimal point.
func parseNumber(s string) (float64, bool) {
	lastDot, lastComma := strings.LastIndexByte(s, '.'), strings.LastIndexByte(s, ',')
	commas, dots := strings.Count(s, ","), strings.Count(s, ".")
	var clean string
	switch {
	case commas > 0 && dots > 0 && lastComma > lastDot, dots > 1:
		clean = strings.ReplaceAll(strings.ReplaceAll(s, ".", ""), ",", ".")
	case commas > 0 && (dots > 0 || commas > 1 || len(s)-lastComma == 4):
		clean = strings.ReplaceAll(s, ",", "")
	default:
		clean = strings.ReplaceAll(s, ",", ".")
	}
	v, err := strconv.ParseFloat(clean, 64)
	return v, err == nil
}
