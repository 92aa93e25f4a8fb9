package grounding

import (
	"unicode"
	"unicode/utf8"
)

// Identifiers and quantities. Digits that continue a word are a label, not
// an amount: "H2O", "Q3", "gpt-4o", "COVID-19", "v1.2.3", "#42". But a label
// in front of digits does not make them a name: "(rif. ID-48213.77) euro",
// "x-48213.77", "#48213.77" show a reader an amount. The digits after a label
// are a quantity when they are written the way amounts are and names are not:
//
//   - a decimal fraction or digit groups ("ID-48213.77", "#1.234,50",
//     "n.48213,77"), except a version after a letter: one dot between an
//     integer of at most three digits and at most two decimals ("gpt-4.1",
//     "ubuntu-22.04", "v1.2", "python3.11");
//   - a percent or a currency right after them ("ID-12 €", "x-12%").
//
// An integer after a label stays an identifier ("COVID-19", "#42", "ID-48213",
// "order-1234"), and so does a number that letters continue ("3.5b", "4o"):
// ids are integers, and a model that invents an id invents no amount.

// Kinds of label before digits (identifierBefore).
const (
	labelNone = iota
	labelWord // a letter or '_', touching or through '-', '.', '/': "H2O", "gpt-4"
	labelHash // '#': "#42"
)

// identifierBefore reports the label that digits at i continue: "H2O",
// "gpt-4o", "v1.2.3", "Q3", "#12". A currency code ("EUR12") is no label.
func identifierBefore(s string, i int) int {
	if i == 0 {
		return labelNone
	}
	c := s[i-1]
	switch {
	case (c == 'x' || c == 'X') && timesJoin(s, i-1):
		// "21956.62x48213.77": a label only when the left side is one ("Q3x4").
		a := i - 1
		for a > 0 && (isDigit(s[a-1]) || s[a-1] == '.' || s[a-1] == ',') {
			a--
		}
		if a > 0 && (s[a-1] == '_' || s[a-1]|0x20 >= 'a' && s[a-1]|0x20 <= 'z') {
			return labelWord
		}
		return labelNone
	case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		w := i
		for w > 0 && (s[w-1] >= 'A' && s[w-1] <= 'Z') {
			w--
		}
		if i-w == 3 && isCode(s[w:i]) && (w == 0 || !isWordByte(s[w-1])) {
			return labelNone
		}
		return labelWord
	case c == '-' || c == '.' || c == '/':
		if i < 2 {
			return labelNone
		}
		r, _ := utf8.DecodeLastRuneInString(s[:i-1])
		if identLetter(r) {
			return labelWord
		}
	case c == '#':
		return labelHash
	case c >= utf8.RuneSelf:
		r, _ := utf8.DecodeLastRuneInString(s[:i])
		if identLetter(r) {
			return labelWord
		}
	}
	return labelNone
}

// labelledQuantity reports whether the digits at i, which follow a label of
// the given kind, are an amount (see above) rather than part of a name.
func labelledQuantity(s string, i, label int) bool {
	nm := scanNumeral(s, i)
	// Only '.' and ',' make the shape of an amount: "COVID-19 123 casi" is
	// the label and the count 123, not 19123.
	for k := 1; k < nm.n; k++ {
		if nm.seps[k] != sepDot && nm.seps[k] != sepComma {
			nm.n, nm.end = k, nm.groups[k-1][1]
			break
		}
	}
	var st style
	if _, n, _ := nm.interpret(s, &st); n == 0 {
		return false // "v1.2.3"
	}
	sf := readSuffix(s, nm.end, false)
	switch {
	case sf.ident || sf.ordinal:
		return false
	case sf.pct || sf.currency != "":
		return true
	case nm.n == 1:
		return false
	}
	return label == labelHash || !versionShape(&nm)
}

// timesJoin reports an "x" at k that joins two numbers, as in
// "21956.62x48213.77" or "30x40": a digit on each side, and on the left not
// a lone "0", which makes a hexadecimal literal ("0x1F").
func timesJoin(s string, k int) bool {
	if k < 1 || k+1 >= len(s) || s[k]|0x20 != 'x' || !isDigit(s[k-1]) || !isDigit(s[k+1]) {
		return false
	}
	return s[k-1] != '0' || k >= 2 && (isDigit(s[k-2]) || s[k-2] == '.' || s[k-2] == ',')
}

// versionShape reports a numeral written as a version: one dot between an
// integer of one to three digits and one or two decimals ("4.1", "22.04",
// "3.11").
func versionShape(nm *numeral) bool {
	return nm.n == 2 && nm.seps[1] == sepDot && nm.glen(0) <= 3 && nm.glen(1) <= 2
}

// identLetter reports the letters that make touching digits an identifier:
// Latin ones ("H2O", "è2") and '_'. Scripts written without spaces (Han,
// kana, Thai, ...) put digits right after a letter in ordinary prose
// ("收入21956元"), and Greek letters are symbols in analytics ("Δ12%"): there
// the digits are a quantity and are checked.
func identLetter(r rune) bool {
	return r == '_' || unicode.Is(unicode.Latin, r)
}

// skipIdentifier returns the end of the word-like run of digits at i.
func skipIdentifier(s string, i int) int {
	for i < len(s) {
		c := s[i]
		if isWordByte(c) {
			i++
			continue
		}
		if (c == '-' || c == '.' || c == '/') && i+1 < len(s) && isWordByte(s[i+1]) {
			i++
			continue
		}
		break
	}
	return i
}
