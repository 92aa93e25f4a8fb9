package gateway

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math/bits"
	"unicode/utf8"
)

// jscan is a validating JSON reader over a byte slice, used by the fast paths that decode
// chat requests, chat responses and stream chunks in one pass (chat_scan.go,
// response_scan.go, stream_scan.go). encoding/json validates its whole input on every
// Unmarshal call and decodes through reflection; the gateway used to call it several times
// per body, which was about a quarter of its CPU.
//
// jscan accepts a subset of what encoding/json accepts, never more: RFC 8259 syntax with
// encoding/json's rules (control characters in strings refused, invalid UTF-8 accepted),
// nesting at most maxScanDepth deep. Every fast path that meets anything it does not
// handle exactly like encoding/json (an escaped key, a duplicate field, a wrong type, a
// syntax error) reports !ok, and its caller runs the encoding/json path instead, which
// also produces the error message. So the two paths agree by construction;
// chat_scan_test.go runs one corpus through both and fuzzes them against each other.
type jscan struct {
	b     []byte
	i     int
	depth int
	ok    bool
}

// maxScanDepth bounds nesting; deeper input goes the encoding/json path (whose limit is
// 10000).
const maxScanDepth = 512

func newScan(b []byte) *jscan { return &jscan{b: b, ok: true} }

// fail marks the input as one the fast path does not take and returns false.
func (s *jscan) fail() bool {
	s.ok = false
	return false
}

// ws skips white space.
func (s *jscan) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// peek returns the next byte after white space, 0 at the end.
func (s *jscan) peek() byte {
	s.ws()
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

// end reports whether only white space is left.
func (s *jscan) end() bool {
	s.ws()
	return s.ok && s.i == len(s.b)
}

// strClass marks the bytes a string scan must look at: 1 ends or escapes, 2 is refused
// (a control character), 3 is non-ASCII.
var strClass = func() (t [256]uint8) {
	for c := 0; c < 0x20; c++ {
		t[c] = 2
	}
	t['"'], t['\\'] = 1, 1
	for c := 0x80; c < 0x100; c++ {
		t[c] = 3
	}
	return t
}()

// str reads a string token at the position and returns the bounds of its contents; plain
// reports that it has no escape and is valid UTF-8, so its bytes are its value.
func (s *jscan) str() (start, end int, plain bool) {
	if s.peek() != '"' {
		s.fail()
		return 0, 0, false
	}
	s.i++
	start, esc, high := s.i, false, false
	b := s.b
	for i := s.i; i < len(b); {
		if i+8 <= len(b) {
			m := specialBytes(binary.LittleEndian.Uint64(b[i:]))
			if m == 0 {
				i += 8
				continue
			}
			i += bits.TrailingZeros64(m) >> 3 // the first byte to look at
		}
		switch strClass[b[i]] {
		case 0:
			i++
		case 3:
			high = true
			i++
		case 2:
			s.fail()
			return 0, 0, false
		default:
			if b[i] == '"' {
				s.i = i + 1
				plain = !esc && (!high || utf8.Valid(b[start:i]))
				return start, i, plain
			}
			esc = true
			if !validEscape(b, i) {
				s.fail()
				return 0, 0, false
			}
			if b[i+1] == 'u' {
				i += 6
			} else {
				i += 2
			}
		}
	}
	s.fail()
	return 0, 0, false
}

// specialBytes marks, in the high bit of its byte, each of the 8 bytes of w (little
// endian) a string scan must look at: '"', '\\', a control character or a non-ASCII byte.
// These are the SWAR tests of "Bit Twiddling Hacks" (a byte is zero in w^c, or less than
// 0x20, or has its high bit set); only the lowest mark is exact, which is the one the scan
// uses: zero when none of the 8 bytes is special.
func specialBytes(w uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	q, bs := w^(ones*'"'), w^(ones*'\\')
	return ((q-ones)&^q | (bs-ones)&^bs | (w-ones*0x20)&^w | w) & highs
}

// validEscape reports whether b[i] ('\\') starts an escape encoding/json accepts.
func validEscape(b []byte, i int) bool {
	if i+1 >= len(b) {
		return false
	}
	switch b[i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return true
	case 'u':
		if i+6 > len(b) {
			return false
		}
		for _, c := range b[i+2 : i+6] {
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return false
			}
		}
		return true
	}
	return false
}

// stringValue reads a string token and returns its value: its bytes when plain, else
// what encoding/json makes of it (escapes decoded, invalid UTF-8 replaced).
func (s *jscan) stringValue() (string, bool) {
	start, end, plain := s.str()
	if !s.ok {
		return "", false
	}
	if plain {
		return string(s.b[start:end]), true
	}
	var v string
	if json.Unmarshal(s.b[start-1:end+1], &v) != nil {
		return "", s.fail()
	}
	return v, true
}

// key reads an object key and the colon after it. A key with an escape goes the
// encoding/json path: its value is what matches a field.
func (s *jscan) key() []byte {
	start, end, _ := s.str()
	if !s.ok || bytes.IndexByte(s.b[start:end], '\\') >= 0 || s.peek() != ':' {
		s.fail()
		return nil
	}
	s.i++
	return s.b[start:end]
}

// enter consumes the opening byte of an object or array.
func (s *jscan) enter(open byte) bool {
	if s.peek() != open || s.depth >= maxScanDepth {
		return s.fail()
	}
	s.i++
	s.depth++
	return true
}

// more is called before each member or element of the object or array entered last, n
// being the number read so far: it consumes the separator and reports whether one
// follows, or consumes the closing byte (close) and reports false.
func (s *jscan) more(n int, close byte) bool {
	if !s.ok {
		return false
	}
	c := s.peek()
	if c == close {
		s.i++
		s.depth--
		return false
	}
	if n > 0 {
		if c != ',' {
			return s.fail()
		}
		s.i++
	}
	return true
}

// null consumes a null literal if there is one.
func (s *jscan) null() bool {
	if s.peek() == 'n' && bytes.HasPrefix(s.b[s.i:], litNull) {
		s.i += 4
		return true
	}
	return false
}

var (
	litNull  = []byte("null")
	litTrue  = []byte("true")
	litFalse = []byte("false")
)

// skip validates the value at the position and moves past it; it returns the value's
// bounds.
func (s *jscan) skip() (start, end int) {
	c := s.peek()
	start = s.i
	switch {
	case c == '"':
		s.str()
	case c == '{':
		s.enter('{')
		for n := 0; s.more(n, '}'); n++ {
			s.str()
			if s.peek() != ':' {
				s.fail()
				break
			}
			s.i++
			s.skip()
		}
	case c == '[':
		s.enter('[')
		for n := 0; s.more(n, ']'); n++ {
			s.skip()
		}
	case c == 't':
		s.literal(litTrue)
	case c == 'f':
		s.literal(litFalse)
	case c == 'n':
		s.literal(litNull)
	case c == '-' || '0' <= c && c <= '9':
		s.number()
	default:
		s.fail()
	}
	return start, s.i
}

func (s *jscan) literal(lit []byte) {
	if !bytes.HasPrefix(s.b[s.i:], lit) {
		s.fail()
		return
	}
	s.i += len(lit)
}

// number reads -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?.
func (s *jscan) number() {
	b, i := s.b, s.i
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		i = digits(b, i)
	default:
		s.fail()
		return
	}
	if i < len(b) && b[i] == '.' {
		if j := digits(b, i+1); j > i+1 {
			i = j
		} else {
			s.fail()
			return
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digits(b, i)
		if j == i {
			s.fail()
			return
		}
		i = j
	}
	s.i = i
}

func digits(b []byte, i int) int {
	for i < len(b) && '0' <= b[i] && b[i] <= '9' {
		i++
	}
	return i
}

// field reports whether key names the struct field name the way encoding/json matches
// keys to fields: exactly, or equal under Unicode case folding.
func field(key []byte, name string) bool {
	return string(key) == name || bytes.EqualFold(key, []byte(name))
}
