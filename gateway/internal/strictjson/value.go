package strictjson

import (
	"errors"
	"iter"
	"strconv"
	"unsafe"
)

// Value is a handle on one value of a Doc. The zero Value is Missing, as is what Get and
// Index return for an absent key or index; every method is safe on it.
type Value struct {
	d *Doc
	i uint32
}

func (v Value) node() *node { return &v.d.tape[v.i] }

// Kind returns the value's JSON type, Missing for an absent value.
func (v Value) Kind() Kind {
	if v.d == nil {
		return Missing
	}
	return v.node().kind
}

// Bool returns true for the literal true, false for anything else.
func (v Value) Bool() bool { return v.Kind() == Bool && v.node().flags&fTrue != 0 }

// Str returns the decoded value of a string, "" for any other kind. Common short strings
// of the OpenAI wire formats are returned without allocating.
func (v Value) Str() string {
	if v.Kind() != String {
		return ""
	}
	n := v.node()
	raw := v.d.src[n.start:n.end]
	if n.flags&fEscaped == 0 {
		return intern(raw)
	}
	if len(raw) <= 64 {
		var buf [64]byte
		return string(appendUnescaped(buf[:0], raw))
	}
	// A value is never longer than its escaped source. The buffer is the string's own
	// memory from here on, as in strings.Builder: a long answer is copied once, not twice.
	buf := appendUnescaped(make([]byte, 0, len(raw)), raw)
	return unsafe.String(unsafe.SliceData(buf), len(buf))
}

// AppendStr appends the decoded value of a string to dst (nothing for another kind): Str
// without the copy into a new string.
func (v Value) AppendStr(dst []byte) []byte {
	if v.Kind() != String {
		return dst
	}
	n := v.node()
	return appendUnescaped(dst, v.d.src[n.start:n.end])
}

// IsStr reports whether v is a string whose decoded value is s, without allocating for
// strings without escapes.
func (v Value) IsStr(s string) bool {
	if v.Kind() != String {
		return false
	}
	n := v.node()
	raw := v.d.src[n.start:n.end]
	if n.flags&fEscaped == 0 {
		return string(raw) == s
	}
	var buf [64]byte
	return string(appendUnescaped(buf[:0], raw)) == s
}

// Number returns a number's literal as written in the source (so big integers and
// 1e400 keep their exact text), nil for any other kind. It must not be modified.
func (v Value) Number() []byte {
	if v.Kind() != Number {
		return nil
	}
	n := v.node()
	return v.d.src[n.start:n.end:n.end]
}

// ErrNotNumber is the error of Float and Int on a value that is not a number.
var ErrNotNumber = errors.New("strictjson: not a number")

// Float returns a number as the nearest float64. Out of range (1e400) it returns ±Inf
// and a *strconv.NumError wrapping strconv.ErrRange: readers disagree there (Python
// reads inf, encoding/json refuses).
func (v Value) Float() (float64, error) {
	lit := v.Number()
	if lit == nil {
		return 0, ErrNotNumber
	}
	return strconv.ParseFloat(string(lit), 64)
}

// Int returns a number written as an integer that fits in an int64; 1.0 and 1e2 are
// errors.
func (v Value) Int() (int64, error) {
	lit := v.Number()
	if lit == nil {
		return 0, ErrNotNumber
	}
	return strconv.ParseInt(string(lit), 10, 64)
}

// Raw returns the value's source bytes (for a string, with its quotes), nil for a
// Missing value. It must not be modified, and it is the client's or upstream's text: to
// forward a value, encode it with AppendValue.
func (v Value) Raw() []byte {
	if v.d == nil {
		return nil
	}
	n := v.node()
	if n.kind == String {
		return v.d.src[n.start-1 : n.end+1 : n.end+1]
	}
	return v.d.src[n.start:n.end:n.end]
}

// Offset returns the byte offset of the value in the source, -1 for a Missing value.
func (v Value) Offset() int {
	if v.d == nil {
		return -1
	}
	if n := v.node(); n.kind == String {
		return int(n.start) - 1 // the opening quote
	}
	return int(v.node().start)
}

// Len returns the number of members of an object or elements of an array, 0 for any
// other kind.
func (v Value) Len() int {
	if k := v.Kind(); k != Object && k != Array {
		return 0
	}
	return int(v.node().n)
}

// Get returns the member of an object whose key, decoded, is exactly key; Missing when
// there is none or v is not an object. Parse refused documents with duplicate keys, so
// there is at most one.
func (v Value) Get(key string) Value {
	if v.Kind() != Object {
		return Value{}
	}
	t := v.d.tape
	for k := v.i + 1; k < t[v.i].next; k = t[k+1].next {
		if string(v.d.keyBytes(k)) == key {
			return Value{v.d, k + 1}
		}
	}
	return Value{}
}

// Index returns the i-th element of an array; Missing when out of range or v is not an
// array.
func (v Value) Index(i int) Value {
	for j, e := range v.Elems() {
		if j == i {
			return e
		}
	}
	return Value{}
}

// Members yields the keys (decoded) and values of an object in source order; nothing
// for any other kind.
func (v Value) Members() iter.Seq2[string, Value] {
	return func(yield func(string, Value) bool) {
		if v.Kind() != Object {
			return
		}
		t := v.d.tape
		for k := v.i + 1; k < t[v.i].next; k = t[k+1].next {
			if !yield(intern(v.d.keyBytes(k)), Value{v.d, k + 1}) {
				return
			}
		}
	}
}

// Elems yields the index and value of each element of an array; nothing for any other
// kind.
func (v Value) Elems() iter.Seq2[int, Value] {
	return func(yield func(int, Value) bool) {
		if v.Kind() != Array {
			return
		}
		t := v.d.tape
		for j, e := 0, v.i+1; e < t[v.i].next; j, e = j+1, t[e].next {
			if !yield(j, Value{v.d, e}) {
				return
			}
		}
	}
}

// MemberBytes yields the keys (decoded) and values of an object like Members, the keys as
// bytes valid until the Doc is dropped: a caller that matches keys against a list of its
// own needs no string of them.
func (v Value) MemberBytes() iter.Seq2[[]byte, Value] {
	return func(yield func([]byte, Value) bool) {
		if v.Kind() != Object {
			return
		}
		t := v.d.tape
		for k := v.i + 1; k < t[v.i].next; k = t[k+1].next {
			if !yield(v.d.keyBytes(k), Value{v.d, k + 1}) {
				return
			}
		}
	}
}
