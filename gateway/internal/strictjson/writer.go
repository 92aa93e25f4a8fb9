package strictjson

import (
	"math"
	"strconv"
)

// Writer builds a JSON document field by field in Weir's canonical compact form: the
// encoder for answers and stream chunks, where the order of members is Weir's choice.
// Commas are inserted where they belong; the caller only keeps keys and values in turn.
// The zero Writer is ready to use.
//
//	var w strictjson.Writer
//	w.ObjectStart()
//	w.Key("id")
//	w.String(id)
//	w.Key("choices")
//	w.ArrayStart()
//	...
//	w.ArrayEnd()
//	w.ObjectEnd()
//	body := w.Bytes()
type Writer struct {
	buf   []byte
	depth int
}

// Reset empties the writer and makes it append to dst (which may hold a prefix, e.g.
// "data: "); Reset(nil) reuses nothing.
func (w *Writer) Reset(dst []byte) {
	w.buf, w.depth = dst, 0
}

// Bytes returns what was written, sharing the writer's buffer.
func (w *Writer) Bytes() []byte { return w.buf }

// Len returns the number of bytes written.
func (w *Writer) Len() int { return len(w.buf) }

// sep writes the comma that precedes a key, or a value in an array, when something came
// before it at the same level.
func (w *Writer) sep() {
	if w.depth == 0 || len(w.buf) == 0 {
		return
	}
	switch w.buf[len(w.buf)-1] {
	case '{', '[', ':':
	default:
		w.buf = append(w.buf, ',')
	}
}

// ObjectStart opens an object.
func (w *Writer) ObjectStart() {
	w.sep()
	w.buf = append(w.buf, '{')
	w.depth++
}

// ObjectEnd closes the innermost object.
func (w *Writer) ObjectEnd() {
	w.buf = append(w.buf, '}')
	w.depth--
}

// ArrayStart opens an array.
func (w *Writer) ArrayStart() {
	w.sep()
	w.buf = append(w.buf, '[')
	w.depth++
}

// ArrayEnd closes the innermost array.
func (w *Writer) ArrayEnd() {
	w.buf = append(w.buf, ']')
	w.depth--
}

// Key writes a member's key; the member's value is written next.
func (w *Writer) Key(k string) {
	w.sep()
	w.buf = AppendString(w.buf, k)
	w.buf = append(w.buf, ':')
}

// String writes a string value.
func (w *Writer) String(s string) {
	w.sep()
	w.buf = AppendString(w.buf, s)
}

// Int writes an integer value.
func (w *Writer) Int(n int64) {
	w.sep()
	w.buf = strconv.AppendInt(w.buf, n, 10)
}

// Float writes a number the way encoding/json does (shortest form that reads back the
// same; exponent only below 1e-6 or from 1e21). NaN and infinities, which JSON cannot
// hold, are written as null.
func (w *Writer) Float(f float64) {
	w.sep()
	if math.IsNaN(f) || math.IsInf(f, 0) {
		w.buf = append(w.buf, "null"...)
		return
	}
	w.buf = appendFloat(w.buf, f)
}

// Bool writes true or false.
func (w *Writer) Bool(b bool) {
	w.sep()
	w.buf = strconv.AppendBool(w.buf, b)
}

// Null writes null.
func (w *Writer) Null() {
	w.sep()
	w.buf = append(w.buf, "null"...)
}

// Value writes a parsed value in canonical form (AppendValue); null for a Missing value.
func (w *Writer) Value(v Value) {
	if v.Kind() == Missing {
		w.Null()
		return
	}
	w.sep()
	w.buf = AppendValue(w.buf, v)
}

// Raw writes json, which must be one canonical JSON value Weir encoded itself (from
// AppendValue or another Writer): it is copied as it is.
func (w *Writer) Raw(json []byte) {
	w.sep()
	w.buf = append(w.buf, json...)
}

// appendFloat is encoding/json's float formatting.
func appendFloat(dst []byte, f float64) []byte {
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	dst = strconv.AppendFloat(dst, f, format, -1, 64)
	if format == 'e' {
		// Clean up e-09 to e-9, as encoding/json does.
		if n := len(dst); n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst
}
