package openai

import (
	"github.com/weirgw/weir/gateway/internal/strictjson"
	"strconv"
)

// keys is an allowlist of an object's exact keys, with what finds their variants.
type keys struct {
	list []string
	set  *strictjson.KeySet
}

func newKeys(list ...string) *keys { return &keys{list: list, set: strictjson.NewKeySet(list...)} }

// object reads the members of obj against known, its allowlist of exact keys: fn gets each
// known member; a variant of a known key — equal to it under case folding, or under the
// looser matching some decoders use (without '_' and '-') — is refused with code, since a
// client could read it as the known key; any other key is refused or dropped (unknown).
func object(obj strictjson.Value, path loc, known *keys, code string,
	fn func(key string, v strictjson.Value) error, unknown others) error {
	if obj.Kind() != strictjson.Object {
		if path.n == 0 {
			return errorf(code, "the body is not a JSON object")
		}
		return errorf(code, "%s must be an object", path)
	}
	for kb, v := range obj.MemberBytes() {
		if k, ok := known.match(kb); ok {
			if err := fn(k, v); err != nil {
				return err
			}
			continue
		}
		k := string(kb)
		if twin, ok := known.set.Variant(k); ok {
			return errorf(code, "%s: the key %q differs only in case from %q; clients could read it as %q or ignore it", path.orTop(), k, twin, twin)
		}
		if unknown == refuse {
			return errorf(CodeUnsupported, "%s: %q is not a parameter weir forwards", path.key(k), k)
		}
	}
	return nil
}

// match returns the known key equal to kb, without allocating.
func (ks *keys) match(kb []byte) (string, bool) {
	for _, k := range ks.list {
		if string(kb) == k {
			return k, true
		}
	}
	return "", false
}

// others says what object does with a key outside its allowlist.
type others uint8

const (
	drop   others = iota // an upstream's answer: dropped, never forwarded
	refuse               // a client's request: refused, naming the key
)

// loc is where a value is in a document ("messages[2].content"), kept as segments and
// made a string only for an error message: the request path builds none.
type loc struct {
	segs [8]seg
	n    int
}

type seg struct {
	key string // a member's key; "" for an element
	i   int    // an element's index
}

// root is the location of a document's top-level value.
var root loc

// key returns the location of member k of the value at l.
func (l loc) key(k string) loc {
	if l.n < len(l.segs) {
		l.segs[l.n] = seg{key: k}
		l.n++
	}
	return l
}

// idx returns the location of element i of the array at l.
func (l loc) idx(i int) loc {
	if l.n < len(l.segs) {
		l.segs[l.n] = seg{i: i}
		l.n++
	}
	return l
}

// String writes the location as messages[2].content; a path deeper than loc holds ends
// with "…".
func (l loc) String() string {
	var b []byte
	for i := range l.n {
		s := l.segs[i]
		switch {
		case s.key == "":
			b = append(strconv.AppendInt(append(b, '['), int64(s.i), 10), ']')
		case i > 0:
			b = append(append(b, '.'), s.key...)
		default:
			b = append(b, s.key...)
		}
	}
	if l.n == len(l.segs) {
		b = append(b, "…"...)
	}
	return string(b)
}

// orTop is the location as an error message names it: "the body" for the top level.
func (l loc) orTop() string {
	if l.n == 0 {
		return "the body"
	}
	return l.String()
}

// str reads a string member (null counts as absent); another kind is refused.
func str(v strictjson.Value, path loc, code string) (string, error) {
	switch v.Kind() {
	case strictjson.String:
		return v.Str(), nil
	case strictjson.Null:
		return "", nil
	}
	return "", errorf(code, "%s must be a string", path)
}
