package grounding

import (
	"math"
	"strconv"
)

// Literals in another base, as code writes them and a reader converts them:
// "0xBC55", "0o136125" and "0b1011110001010101" are all 48213. The prefix
// may be upper-case ("0X"), and '_' may group the digits ("0xBC_55"). A
// literal is an exact integer: it grounds only the source number it equals.

// readBased reads a literal in base 16, 8 or 2 that starts at i and ends at
// a word boundary; "0b12" or "0xBC55g" are no literals.
func readBased(s string, i int) (reading, int, bool) {
	if s[i] != '0' || i+2 >= len(s) || i > 0 && isWordByte(s[i-1]) {
		return reading{}, 0, false
	}
	var base float64
	switch s[i+1] | 0x20 {
	case 'x':
		base = 16
	case 'o':
		base = 8
	case 'b':
		base = 2
	default:
		return reading{}, 0, false
	}
	v, j, digits := 0.0, i+2, 0
	for ; j < len(s); j++ {
		d, ok := digitIn(s[j], base)
		if !ok && s[j] == '_' && digits > 0 && j+1 < len(s) {
			if _, next := digitIn(s[j+1], base); next {
				continue
			}
		}
		if !ok {
			break
		}
		v = v*base + d
		digits++
	}
	if digits == 0 || j < len(s) && isWordByte(s[j]) {
		return reading{}, 0, false
	}
	if math.IsInf(v, 0) {
		return reading{mant: v, out: true}, j, true
	}
	r := reading{mant: v, sig: len(strconv.FormatFloat(v, 'f', 0, 64))}
	if v == 0 {
		r.sig = 0
	}
	return r, j, true
}

// digitIn returns the value of the digit c in base (16, 8 or 2).
func digitIn(c byte, base float64) (float64, bool) {
	var d float64
	switch {
	case isDigit(c):
		d = float64(c - '0')
	case c|0x20 >= 'a' && c|0x20 <= 'f':
		d = float64(c|0x20-'a') + 10
	default:
		return 0, false
	}
	return d, d < base
}

// basedNumber is the token of a literal read as r up to end, with the
// sign and currency before it (p) and what may follow a number.
func basedNumber(s string, p prefix, r reading, end int) (token, int, bool) {
	sf := readSuffix(s, end, p.currency != "")
	if sf.ident || sf.ordinal {
		return token{}, end, false
	}
	t := newToken(s, p, sf, 1, [2]reading{r}, 1)
	return t, sf.end, true
}
