package audit

import (
	"math"
	"strconv"
	"unicode/utf8"
)

// The primitives of RFC 8785 (JSON Canonicalization Scheme) that the record encoder
// needs: strings with the minimal escaping, numbers as ECMAScript writes them, and keys
// ordered by their UTF-16 code units. jcs_test.go checks them against the RFC's examples
// and against github.com/gowebpki/jcs, the generic canonicalisation verify uses.

const hexDigits = "0123456789abcdef"

// appendString appends s as a JCS string: only '"', '\\' and the control characters are
// escaped (\b \t \n \f \r, the others as \u00xx); everything else is written as UTF-8. An
// invalid UTF-8 byte becomes U+FFFD, as encoding/json would read it.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r != utf8.RuneError || size != 1 {
				i += size
				continue
			}
			b = append(append(b, s[start:i]...), "\uFFFD"...)
			i++
			start = i
			continue
		}
		b = appendEscape(append(b, s[start:i]...), c)
		i++
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

func appendEscape(b []byte, c byte) []byte {
	switch c {
	case '\\', '"':
		return append(b, '\\', c)
	case '\b':
		return append(b, '\\', 'b')
	case '\f':
		return append(b, '\\', 'f')
	case '\n':
		return append(b, '\\', 'n')
	case '\r':
		return append(b, '\\', 'r')
	case '\t':
		return append(b, '\\', 't')
	}
	return append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
}

// appendFloat appends f as ECMAScript's Number.prototype.toString writes it (RFC 8785
// §3.2.2.3): the shortest digits that read back as f, fixed notation from 1e-6 to 1e21,
// "-0" as "0". NaN and infinities are not JSON and are errors.
func appendFloat(b []byte, f float64) ([]byte, error) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return nil, &unsupportedNumber{f}
	}
	if f == 0 {
		return append(b, '0'), nil
	}
	format := byte('f')
	if abs := math.Abs(f); abs < 1e-6 || abs >= 1e21 {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// Go writes e-07 and e+21; ECMAScript e-7 and e+21.
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, nil
}

// appendInt appends an integer as a JCS number: an IEEE double, so beyond 2^53 it is
// rounded as every other JCS implementation rounds it.
func appendInt(b []byte, v int64) []byte {
	if v > 1<<53 || v < -(1<<53) {
		b, _ = appendFloat(b, float64(v))
		return b
	}
	return strconv.AppendInt(b, v, 10)
}

type unsupportedNumber struct{ f float64 }

func (e *unsupportedNumber) Error() string {
	return "audit: " + strconv.FormatFloat(e.f, 'g', -1, 64) + " is not a JSON number"
}

// compareKeys orders object keys as RFC 8785 §3.2.3 does: by their UTF-16 code units.
// It differs from byte order only between a character above U+FFFF and one in
// U+E000..U+FFFF.
func compareKeys(a, b string) int {
	for a != "" && b != "" {
		ra, na := utf8.DecodeRuneInString(a)
		rb, nb := utf8.DecodeRuneInString(b)
		if ra != rb {
			ua, ub := firstUnit(ra), firstUnit(rb)
			if ua == ub {
				return cmpInt(int(ra), int(rb))
			}
			return cmpInt(ua, ub)
		}
		a, b = a[na:], b[nb:]
	}
	return cmpInt(len(a), len(b))
}

// firstUnit is the first UTF-16 code unit of r.
func firstUnit(r rune) int {
	if r >= 0x10000 {
		return 0xD800 + int((r-0x10000)>>10)
	}
	return int(r)
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
