package strictjson

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
)

// str reads the string token at the position (its opening quote) into a node of kind
// String or kindKey. Eight bytes at a time are skipped while none of them is special.
func (p *parser) str(kind Kind) error {
	b := p.src
	start := p.i + 1
	var flags uint8
	high := false
	for i := start; ; {
		i = skipPlain(b, i)
		if i >= len(b) {
			return p.failStr(kind, Syntax, p.i, "unterminated string")
		}
		switch c := b[i]; {
		case c == '"':
			if !high && flags&fEscaped == 0 {
				flags |= fASCII
			}
			p.push(node{start: uint32(start), end: uint32(i), kind: kind, flags: flags})
			p.i = i + 1
			return nil
		case c == '\\':
			n, err := p.escape(kind, i)
			if err != nil {
				return err
			}
			flags |= fEscaped
			i += n
		case c < 0x20:
			return p.failStr(kind, ControlChar, i, "control character %#04x in a string", c)
		case c < utf8.RuneSelf:
			i++
		default:
			r, size := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && size == 1 {
				return p.failStr(kind, InvalidUTF8, i, "invalid UTF-8 byte %#04x in a string", c)
			}
			if r == '\u2028' || r == '\u2029' {
				flags |= fLineSep
			}
			high = true
			i += size
		}
	}
}

// skipPlain returns the index of the first byte from i on that a string scan must look
// at, or a position less than 8 bytes before the end of b, or len(b).
func skipPlain(b []byte, i int) int {
	for i+8 <= len(b) {
		if m := specialBytes(binary.LittleEndian.Uint64(b[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
		i += 8
	}
	return i
}

// specialBytes marks, in the high bit of its byte, each of the 8 bytes of w (little
// endian) a string scan must look at: '"', '\\', a control character or a non-ASCII byte.
// These are the SWAR tests of "Bit Twiddling Hacks" (a byte is zero in w^c, or less than
// 0x20, or has its high bit set); only the lowest mark is exact, which is the one the
// scans use: zero when none of the 8 bytes is special.
func specialBytes(w uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	q, bs := w^(ones*'"'), w^(ones*'\\')
	return ((q-ones)&^q | (bs-ones)&^bs | (w-ones*0x20)&^w | w) & highs
}

// escape validates the escape at b[i] ('\\') and returns its length. A \u escape of a
// surrogate must be the high half of a pair whose low half follows at once.
func (p *parser) escape(kind Kind, i int) (int, error) {
	b := p.src
	if i+1 >= len(b) {
		return 0, p.failStr(kind, Syntax, i, "unterminated string")
	}
	switch b[i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2, nil
	case 'u':
	default:
		return 0, p.failStr(kind, BadEscape, i, "invalid escape %q", b[i:i+2])
	}
	r, ok := hex4(b, i+2)
	switch {
	case !ok:
		return 0, p.failStr(kind, BadEscape, i, "malformed \\u escape")
	case r < 0xD800 || r >= 0xE000:
		return 6, nil
	case r >= 0xDC00:
		return 0, p.failStr(kind, BadSurrogate, i, "\\u%04x is a low surrogate without a high one", r)
	}
	if i+8 > len(b) || b[i+6] != '\\' || b[i+7] != 'u' {
		return 0, p.failStr(kind, BadSurrogate, i, "\\u%04x is a high surrogate without a low one", r)
	}
	r2, ok := hex4(b, i+8)
	switch {
	case !ok:
		return 0, p.failStr(kind, BadEscape, i+6, "malformed \\u escape")
	case r2 < 0xDC00 || r2 >= 0xE000:
		return 0, p.failStr(kind, BadSurrogate, i, "\\u%04x is a high surrogate followed by \\u%04x, not a low one", r, r2)
	}
	return 12, nil
}

// hex4 decodes the four hex digits at b[i:].
func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// number reads -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?.
func (p *parser) number() error {
	b, start := p.src, p.i
	i := start
	if b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		if i++; i < len(b) && isDigit(b[i]) {
			return p.fail(BadNumber, start, "number with a leading zero")
		}
	case i < len(b) && isDigit(b[i]):
		i = digits(b, i)
	case i < len(b) && b[i] == 'I':
		return p.fail(BadLiteral, start, "-Infinity is not JSON")
	default:
		return p.fail(BadNumber, start, "minus sign without digits")
	}
	if i < len(b) && b[i] == '.' {
		if i = digits(b, i+1); !isDigit(b[i-1]) {
			return p.fail(BadNumber, start, "no digits after the decimal point")
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if j := digits(b, i); j > i {
			i = j
		} else {
			return p.fail(BadNumber, start, "no digits in the exponent")
		}
	}
	if i < len(b) && (isDigit(b[i]) || b[i] == '.' || 'a' <= b[i]|0x20 && b[i]|0x20 <= 'z') {
		return p.fail(BadNumber, start, "invalid character %q in a number", b[i])
	}
	p.push(node{start: uint32(start), end: uint32(i), kind: Number})
	p.i = i
	return nil
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func digits(b []byte, i int) int {
	for i < len(b) && isDigit(b[i]) {
		i++
	}
	return i
}

// literal reads true, false or null; another word is a BadLiteral (NaN, Infinity, True,
// None), anything else a syntax error.
func (p *parser) literal(c byte) error {
	rest := p.src[p.i:]
	switch {
	case c == 't' && len(rest) >= 4 && string(rest[:4]) == "true":
		p.push(node{start: uint32(p.i), end: uint32(p.i + 4), kind: Bool, flags: fTrue})
	case c == 'f' && len(rest) >= 5 && string(rest[:5]) == "false":
		p.push(node{start: uint32(p.i), end: uint32(p.i + 5), kind: Bool})
	case c == 'n' && len(rest) >= 4 && string(rest[:4]) == "null":
		p.push(node{start: uint32(p.i), end: uint32(p.i + 4), kind: Null})
	case c == '+' || c == '.':
		return p.fail(BadNumber, p.i, "number starting with %q", c)
	case 'a' <= c|0x20 && c|0x20 <= 'z':
		return p.fail(BadLiteral, p.i, "%q is not a JSON literal", word(rest))
	default:
		return p.fail(Syntax, p.i, "invalid character %q, expecting a value", c)
	}
	p.i = int(p.doc.tape[len(p.doc.tape)-1].end)
	return nil
}

// word returns the run of ASCII letters at the start of b, at most 16 of them.
func word(b []byte) []byte {
	n := 0
	for n < len(b) && n < 16 && 'a' <= b[n]|0x20 && b[n]|0x20 <= 'z' {
		n++
	}
	return b[:n]
}
