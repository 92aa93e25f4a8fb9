package strictjson

import (
	"bytes"
	"unicode/utf16"
	"unicode/utf8"
)

// appendUnescaped appends the value of a string's contents, validated by the parser, to
// dst.
func appendUnescaped(dst, s []byte) []byte {
	for {
		i := bytes.IndexByte(s, '\\')
		if i < 0 {
			return append(dst, s...)
		}
		dst = append(dst, s[:i]...)
		r, n := unescape(s[i:])
		dst = utf8.AppendRune(dst, r)
		s = s[i+n:]
	}
}

// unescape decodes the escape, validated by the parser, at the start of s and returns it
// and its length.
func unescape(s []byte) (rune, int) {
	switch s[1] {
	case 'b':
		return '\b', 2
	case 'f':
		return '\f', 2
	case 'n':
		return '\n', 2
	case 'r':
		return '\r', 2
	case 't':
		return '\t', 2
	case 'u':
		r, _ := hex4(s, 2)
		if utf16.IsSurrogate(r) {
			r2, _ := hex4(s, 8)
			return utf16.DecodeRune(r, r2), 12
		}
		return r, 6
	}
	return rune(s[1]), 2 // '"', '\\', '/'
}
