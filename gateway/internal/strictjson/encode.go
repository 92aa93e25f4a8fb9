package strictjson

import (
	"bytes"
	"math/bits"
	"unicode/utf8"
)

// AppendString appends s to dst as a JSON string in Weir's canonical form: '"' and '\\'
// escaped, control characters as \b \f \n \r \t or \u00XX, U+2028 and U+2029 as \u2028
// and \u2029 (JavaScript source treats them as line ends), nothing else escaped (no HTML
// escaping of <, > and &), and each byte of invalid UTF-8 replaced by U+FFFD.
func AppendString(dst []byte, s string) []byte { return appendString(dst, s) }

func appendString[T ~string | ~[]byte](dst []byte, s T) []byte {
	dst = append(dst, '"')
	dst = appendStringBody(dst, s)
	return append(dst, '"')
}

// appendStringBody appends s escaped, without quotes. Runs of plain ASCII are found
// eight bytes at a time and copied whole.
func appendStringBody[T ~string | ~[]byte](dst []byte, s T) []byte {
	start := 0
	for i := 0; i < len(s); {
		if i+8 <= len(s) {
			m := specialBytes(load64(s, i))
			if m == 0 {
				i += 8
				continue
			}
			i += bits.TrailingZeros64(m) >> 3
		}
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		r, size := rune(c), 1
		if c >= utf8.RuneSelf {
			r, size = decodeAt(s, i)
			invalid := r == utf8.RuneError && size == 1 // appendRune writes U+FFFD
			if !invalid && r != '\u2028' && r != '\u2029' {
				i += size
				continue
			}
		}
		dst = append(dst, s[start:i]...)
		dst = appendRune(dst, r)
		i += size
		start = i
	}
	return append(dst, s[start:]...)
}

// appendRune appends r in its canonical escaped or literal form.
func appendRune(dst []byte, r rune) []byte {
	const hex = "0123456789abcdef"
	switch r {
	case '"', '\\':
		return append(dst, '\\', byte(r))
	case '\b':
		return append(dst, '\\', 'b')
	case '\f':
		return append(dst, '\\', 'f')
	case '\n':
		return append(dst, '\\', 'n')
	case '\r':
		return append(dst, '\\', 'r')
	case '\t':
		return append(dst, '\\', 't')
	case '\u2028', '\u2029':
		return append(dst, '\\', 'u', '2', '0', '2', hex[r&0xF])
	}
	if r < 0x20 {
		return append(dst, '\\', 'u', '0', '0', hex[r>>4], hex[r&0xF])
	}
	return utf8.AppendRune(dst, r)
}

// load64 reads the 8 bytes of s at i as a little-endian word.
func load64[T ~string | ~[]byte](s T, i int) uint64 {
	_ = s[i+7]
	return uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
		uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
}

// decodeAt decodes the rune at s[i:] (utf8.DecodeRune for a string or a byte slice).
func decodeAt[T ~string | ~[]byte](s T, i int) (rune, int) {
	var buf [utf8.UTFMax]byte
	n := copy(buf[:], s[i:min(i+utf8.UTFMax, len(s))])
	return utf8.DecodeRune(buf[:n])
}

// AppendValue appends v to dst in Weir's canonical compact form: no white space, members
// in source order, keys and strings re-encoded from their decoded values by
// AppendString, numbers as written. A Missing value appends nothing.
func AppendValue(dst []byte, v Value) []byte {
	if v.d == nil {
		return dst
	}
	return appendNode(dst, v.d, v.i)
}

func appendNode(dst []byte, d *Doc, i uint32) []byte {
	n := &d.tape[i]
	switch n.kind {
	case String:
		return appendStringNode(dst, d.src[n.start:n.end], n.flags)
	case Array:
		dst = append(dst, '[')
		for e := i + 1; e < n.next; e = d.tape[e].next {
			if e > i+1 {
				dst = append(dst, ',')
			}
			dst = appendNode(dst, d, e)
		}
		return append(dst, ']')
	case Object:
		dst = append(dst, '{')
		for k := i + 1; k < n.next; k = d.tape[k+1].next {
			if k > i+1 {
				dst = append(dst, ',')
			}
			dst = appendStringNode(dst, d.src[d.tape[k].start:d.tape[k].end], d.tape[k].flags)
			dst = append(dst, ':')
			dst = appendNode(dst, d, k+1)
		}
		return append(dst, '}')
	}
	return append(dst, d.src[n.start:n.end]...) // null, true, false, a number
}

// appendStringNode encodes a parsed string from its source contents raw. Without escapes
// or line separators the contents are already canonical (the parser refused control
// characters and invalid UTF-8) and are copied whole; otherwise each escape is decoded and
// re-encoded in the same pass.
func appendStringNode(dst, raw []byte, flags uint8) []byte {
	dst = append(dst, '"')
	if flags&(fEscaped|fLineSep) == 0 {
		dst = append(dst, raw...)
		return append(dst, '"')
	}
	for {
		i := bytes.IndexByte(raw, '\\')
		if i < 0 {
			break
		}
		dst = appendRun(dst, raw[:i], flags)
		r, n := unescape(raw[i:])
		dst = appendRune(dst, r)
		raw = raw[i+n:]
	}
	dst = appendRun(dst, raw, flags)
	return append(dst, '"')
}

// appendRun appends a run of string contents without escapes, which needs encoding only
// for its line separators.
func appendRun(dst, run []byte, flags uint8) []byte {
	if flags&fLineSep == 0 {
		return append(dst, run...)
	}
	return appendStringBody(dst, run)
}
