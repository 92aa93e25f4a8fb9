package grounding

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// prefix is what may stand before a numeral: a sign and a currency.
type prefix struct {
	start    int
	neg      bool
	signed   bool
	currency string
}

// readPrefix looks back from the numeral at i for "-", "+", "−", "–" and a
// currency ("€", "$", "£", "EUR ", "USD"), in either order: "-€12", "€ -12".
func readPrefix(s string, i int) prefix {
	p := prefix{start: i}
	j := i
	if k, neg, ok := signBefore(s, j); ok {
		p.neg, p.signed, j = neg, true, k
		p.start = j
	}
	k := j
	if k > 0 && s[k-1] == ' ' {
		k--
	}
	if cur, c := currencyBefore(s, k); cur != "" {
		p.currency, p.start, j = cur, c, c
		if !p.signed {
			if k2, neg, ok := signBefore(s, j); ok {
				p.neg, p.signed, p.start = neg, true, k2
			}
		}
	}
	return p
}

// signBefore reports a sign that ends at j. A sign must touch what follows
// and must not follow a letter or digit, so "gpt-4" and "10-20" carry none.
func signBefore(s string, j int) (int, bool, bool) {
	var k int
	var neg bool
	switch {
	case j >= 1 && (s[j-1] == '-' || s[j-1] == '+'):
		k, neg = j-1, s[j-1] == '-'
	case j >= 3 && (s[j-3:j] == "−" || s[j-3:j] == "–"):
		k, neg = j-3, true
	default:
		return 0, false, false
	}
	if k > 0 {
		r, _ := utf8.DecodeLastRuneInString(s[:k])
		if r == '-' || r == '+' || unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' {
			return 0, false, false
		}
	}
	return k, neg, true
}

// currencyBefore reports a currency symbol or code that ends at k.
func currencyBefore(s string, k int) (string, int) {
	for _, c := range currencySymbols {
		if strings.HasSuffix(s[:k], c.text) {
			return c.code, k - len(c.text)
		}
	}
	if k >= 3 {
		code := s[k-3 : k]
		if isCode(code) && (k == 3 || !isWordByte(s[k-4])) {
			return code, k - 3
		}
	}
	return "", 0
}

var currencySymbols = []struct{ text, code string }{
	{"€", "EUR"}, {"US$", "USD"}, {"$", "USD"}, {"£", "GBP"}, {"¥", "JPY"},
}

func isCode(w string) bool {
	switch w {
	case "EUR", "USD", "GBP", "CHF", "JPY":
		return true
	}
	return false
}

// currencyWord maps a currency written after a number to its code.
func currencyWord(w string) string {
	if isCode(w) {
		return w
	}
	switch strings.ToLower(w) {
	case "euro", "euros":
		return "EUR"
	case "dollar", "dollars", "dollari", "dollaro":
		return "USD"
	}
	return ""
}

// Scale words and the factor they stand for. "m" means million only after a
// currency ("$1.2m"); elsewhere it is a metre.
func scaleWord(w string, money bool) float64 {
	switch w {
	case "k", "K":
		return 1e3
	case "M":
		return 1e6
	case "m":
		if money {
			return 1e6
		}
		return 0
	case "B", "b":
		if money {
			return 1e9
		}
		return 0
	}
	switch strings.ToLower(w) {
	case "thousand", "thousands", "mila", "migliaia", "migliaio":
		return 1e3
	case "cent", "cents", "centesimi", "centesimo":
		return 0.01 // a currency's hundredth: "35 centesimi" is 0,35 €
	case "million", "millions", "milioni", "milione", "mln", "mio":
		return 1e6
	case "billion", "billions", "miliardi", "miliardo", "mld", "mrd", "bn":
		return 1e9
	}
	return 0
}

// isUnit reports measurement units that may follow a number, attached or not.
func isUnit(w string) bool {
	switch strings.ToLower(w) {
	case "kg", "g", "gr", "mg", "km", "m", "cm", "mm", "l", "ml", "cl", "lt",
		"h", "min", "s", "sec", "ms", "x", "pz", "kb", "mb", "gb", "tb", "kw", "kwh", "w", "mq", "m2", "sqm":
		return true
	}
	return false
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// wordAt returns the run of ASCII letters at i and whether it ends at a word
// boundary (not followed by another letter, accented ones included).
func wordAt(s string, i int) (string, bool) {
	j := i
	for j < len(s) && (s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z') {
		j++
	}
	if j == i {
		return "", false
	}
	if j < len(s) {
		if isDigit(s[j]) || s[j] == '_' {
			return s[i:j], false
		}
		if s[j] >= utf8.RuneSelf {
			r, _ := utf8.DecodeRuneInString(s[j:])
			if identLetter(r) {
				return s[i:j], false
			}
		}
	}
	return s[i:j], true
}

// spaceAt returns the width of one space (ASCII, NBSP or narrow NBSP) at i.
func spaceAt(s string, i int) int {
	if i >= len(s) {
		return 0
	}
	if s[i] == ' ' {
		return 1
	}
	if sep, w := separatorAt(s, i); sep == sepSpace {
		return w
	}
	return 0
}
