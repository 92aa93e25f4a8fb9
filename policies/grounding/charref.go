package grounding

import (
	"html"
	"strconv"
	"unicode/utf8"
)

// HTML character references. An answer shown as HTML renders "&#52;&#56;"
// as "48", "&#x34;" as "4", "&period;" as "." and "&nbsp;" as a no-break
// space, so a reader sees the number the references spell. Folding decodes
// each reference once, like a browser, and folds what it stands for like any
// other rune ("&#65298;" is a fullwidth 2, then 2); the reference is one
// segment of the folded text, so a span covers the references as written.
//
// Decoded: numeric references, decimal or hexadecimal, with or without the
// final ';' (browsers accept both), and named references ending in ';'.
// A doubly escaped "&amp;#52;" renders as the text "&#52;" and stays that.

// maxRefName bounds the name of a named reference ("&CounterClockwiseContourIntegral;" has 31 letters).
const maxRefName = 32

// plainEnd returns the end of the run of ASCII bytes at i that holds no
// character reference and no markup between digits (markup.go).
func plainEnd(s string, i int) int {
	for i < len(s) && s[i] < utf8.RuneSelf {
		switch s[i] {
		case '&':
			if _, n := charRef(s, i); n > 0 {
				return i
			}
		case '*', '~', '`', '<':
			if i > 0 {
				if n, _ := markupAt(s, i, s[i-1]); n > 0 {
					return i
				}
			}
		}
		i++
	}
	return i
}

// charRef decodes the character reference at s[i] == '&' and returns what
// it stands for and its length, or 0 when there is none.
func charRef(s string, i int) (string, int) {
	if i+2 >= len(s) || s[i] != '&' {
		return "", 0
	}
	if s[i+1] == '#' {
		return numericRef(s, i)
	}
	j := i + 1
	for j < len(s) && j-i <= maxRefName && (isWordByte(s[j]) && s[j] != '_') {
		j++
	}
	if j == i+1 || j >= len(s) || s[j] != ';' || isDigit(s[i+1]) {
		return "", 0
	}
	ref := s[i : j+1]
	if dec := html.UnescapeString(ref); dec != ref {
		return dec, len(ref)
	}
	return "", 0
}

// numericRef decodes "&#52;", "&#x34;", "&#52" at i. Code points a browser
// does not render as themselves (0, surrogates, beyond U+10FFFF) become
// U+FFFD, and 128–159 the Windows-1252 characters ("&#128;" is "€"), as
// html.UnescapeString does.
func numericRef(s string, i int) (string, int) {
	j, base := i+2, 10
	if j < len(s) && s[j]|0x20 == 'x' {
		j, base = j+1, 16
	}
	a, x := j, 0
	for ; j < len(s); j++ {
		d, ok := digitIn(s[j], float64(base))
		if !ok {
			break
		}
		x = min(x*base+int(d), utf8.MaxRune+1)
	}
	if j == a {
		return "", 0
	}
	end := j
	if j < len(s) && s[j] == ';' {
		end++
	}
	switch {
	case x >= 0x80 && x <= 0x9F:
		return html.UnescapeString("&#" + strconv.Itoa(x) + ";"), end - i
	case x == 0 || x > utf8.MaxRune || x >= 0xD800 && x <= 0xDFFF:
		return "\uFFFD", end - i
	}
	return string(rune(x)), end - i
}

// foldRef writes the folded form of the reference s[i:i+n], which stands
// for dec.
func (f *folder) foldRef(i, n int, dec string) {
	var rep []byte
	f.mark, f.next = false, 0
	if i+n < len(f.src) {
		f.next = f.src[i+n]
	}
	for _, r := range dec {
		if r < utf8.RuneSelf {
			rep = append(rep, byte(r))
			f.last, f.sup = byte(r), false
			continue
		}
		raw := string(r)
		part, same := f.foldRune(r, raw, nil)
		if same {
			part = []byte(raw)
		}
		rep = append(rep, part...)
		if len(part) > 0 {
			f.last = part[len(part)-1]
		}
	}
	f.replace(i, i+n, rep)
}
