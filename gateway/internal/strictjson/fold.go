package strictjson

import (
	"unicode"
	"unicode/utf8"
)

// Fold returns the canonical case fold of s: each rune replaced by the smallest rune of
// its unicode.SimpleFold orbit ("Content", "content" and "CONTENT" all fold to
// "CONTENT"; "ſ" (U+017F) to "S"; "K" (U+212A KELVIN SIGN) to "K"). Two keys fold
// equal exactly when encoding/json would match both to the same struct field. Invalid
// UTF-8 folds to U+FFFD, as encoding/json decodes it.
func Fold(s string) string {
	if foldedASCII(s) {
		return s
	}
	return string(appendFold(make([]byte, 0, len(s)), s, false))
}

// appendFold appends Fold(s) to dst; loose also drops '_' and '-', as the
// case-insensitive matching of encoding/json/v2 does.
func appendFold(dst []byte, s string, loose bool) []byte {
	for _, r := range s {
		if !loose || r != '_' && r != '-' {
			dst = utf8.AppendRune(dst, foldRune(r))
		}
	}
	return dst
}

// foldedASCII reports whether s is ASCII without lower-case letters: its own fold.
func foldedASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= utf8.RuneSelf || 'a' <= c && c <= 'z' {
			return false
		}
	}
	return true
}

// FoldEqual reports whether Fold(a) == Fold(b), without allocating.
func FoldEqual(a, b string) bool {
	for a != "" && b != "" {
		ra, na := utf8.DecodeRuneInString(a)
		rb, nb := utf8.DecodeRuneInString(b)
		if ra != rb && foldRune(ra) != foldRune(rb) {
			return false
		}
		a, b = a[na:], b[nb:]
	}
	return a == b
}

// foldEqualBytes is FoldEqual for byte slices.
func foldEqualBytes(a, b []byte) bool {
	for len(a) > 0 && len(b) > 0 {
		ra, na := utf8.DecodeRune(a)
		rb, nb := utf8.DecodeRune(b)
		if ra != rb && foldRune(ra) != foldRune(rb) {
			return false
		}
		a, b = a[na:], b[nb:]
	}
	return len(a) == len(b)
}

// asciiFoldEqual reports whether the ASCII strings a and b, of equal length, differ only
// in the case of letters.
func asciiFoldEqual(a, b []byte) bool {
	for i := range a {
		ca, cb := a[i], b[i]
		if ca == cb {
			continue
		}
		if ca|0x20 != cb|0x20 || ca|0x20 < 'a' || ca|0x20 > 'z' {
			return false
		}
	}
	return true
}

// foldRune returns the smallest rune of r's SimpleFold orbit (encoding/json's foldRune).
func foldRune(r rune) rune {
	if r < utf8.RuneSelf {
		if 'a' <= r && r <= 'z' {
			r -= 'a' - 'A'
		}
		return r
	}
	for {
		r2 := unicode.SimpleFold(r)
		if r2 <= r {
			return r2
		}
		r = r2
	}
}
