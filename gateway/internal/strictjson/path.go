package strictjson

import (
	"fmt"
	"strconv"
)

// fail returns an error at off whose path includes the member or element being read.
func (p *parser) fail(r Reason, off int, format string, args ...any) error {
	return &Error{Offset: off, Path: p.path(true), Reason: r, detail: fmt.Sprintf(format, args...)}
}

// failIn returns an error at off about the innermost container itself (a key, a
// separator): its path ends at the container.
func (p *parser) failIn(r Reason, off int, format string, args ...any) error {
	return &Error{Offset: off, Path: p.path(false), Reason: r, detail: fmt.Sprintf(format, args...)}
}

// failStr is fail for a string value and failIn for a key.
func (p *parser) failStr(kind Kind, r Reason, off int, format string, args ...any) error {
	if kind == kindKey {
		return p.failIn(r, off, format, args...)
	}
	return p.fail(r, off, format, args...)
}

// path returns the path of the position from the open containers; member says whether
// it ends with the innermost container's current member.
func (p *parser) path(member bool) string {
	var buf []byte
	for j, f := range p.stack {
		if f.count == 0 || j == len(p.stack)-1 && !member {
			break
		}
		if p.doc.tape[f.node].kind == Object {
			buf = appendPathKey(buf, p.doc.keyBytes(f.key))
		} else {
			buf = appendPathIndex(buf, int(f.count)-1)
		}
	}
	return string(buf)
}

// appendPathKey appends a member to a path: ".name" for a plain name, else a quoted
// ["key"], so that any key, even one with dots or control characters, reads unambiguously.
// A long key is cut (shortKey).
func appendPathKey(dst, key []byte) []byte {
	key = shortKey(key)
	if !pathName(key) {
		dst = append(dst, '[')
		dst = appendString(dst, key)
		return append(dst, ']')
	}
	if len(dst) > 0 {
		dst = append(dst, '.')
	}
	return append(dst, key...)
}

func appendPathIndex(dst []byte, i int) []byte {
	dst = append(dst, '[')
	dst = strconv.AppendInt(dst, int64(i), 10)
	return append(dst, ']')
}

// pathName reports whether key can be written bare in a path: an ASCII letter or '_'
// followed by letters, digits, '_' and '-'.
func pathName(key []byte) bool {
	for i, c := range key {
		letter := 'a' <= c|0x20 && c|0x20 <= 'z' || c == '_'
		if !letter && (i == 0 || !isDigit(c) && c != '-') {
			return false
		}
	}
	return len(key) > 0
}

// Path returns where v is in its document, in the style of Error.Path
// ("choices[0].message.tool_calls[1]"), or "" for the top level and a Missing value. It
// walks down from the top, so it costs a few jumps per level: fine for messages, not for
// loops.
func (v Value) Path() string {
	if v.d == nil {
		return ""
	}
	d, t := v.d, v.d.tape
	var buf []byte
	for cur := uint32(0); cur != v.i; {
		obj := t[cur].kind == Object
		child, idx := cur+1, 0
		if obj {
			child++
		}
		for t[child].next <= v.i {
			child, idx = nextChild(t, child, obj), idx+1
		}
		if obj {
			buf = appendPathKey(buf, d.keyBytes(child-1))
		} else {
			buf = appendPathIndex(buf, idx)
		}
		cur = child
	}
	return string(buf)
}

// nextChild returns the value node after child in its container.
func nextChild(t []node, child uint32, obj bool) uint32 {
	if obj {
		return t[child].next + 1 // skip the next member's key
	}
	return t[child].next
}
