package grounding

import (
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// maxJSONDepth bounds the nesting a tool result may have before it is read
// as plain text instead.
const maxJSONDepth = 64

// jsonWalker visits every number of a JSON document, with its path
// ("$.rows[3].revenue"), including the numbers written inside strings.
// It is a small validating scanner, not a decoder: nothing is built but the
// paths of the numbers it reports.
type jsonWalker struct {
	s     string
	i     int
	path  []byte
	key   string // the innermost object key, for percent detection
	depth int
	emit  func(v float64, pct bool, path []byte)
	text  func(str string, path []byte)
}

// walkJSON reports whether s is one JSON value and, if so, has emitted its numbers.
func walkJSON(s string, emit func(float64, bool, []byte), text func(string, []byte)) bool {
	w := jsonWalker{s: s, path: append(make([]byte, 0, 64), '$'), emit: emit, text: text}
	w.ws()
	if !w.value() {
		return false
	}
	w.ws()
	return w.i == len(w.s)
}

func (w *jsonWalker) ws() {
	for w.i < len(w.s) {
		switch w.s[w.i] {
		case ' ', '\t', '\n', '\r':
			w.i++
		default:
			return
		}
	}
}

func (w *jsonWalker) value() bool {
	if w.i >= len(w.s) {
		return false
	}
	switch c := w.s[w.i]; {
	case c == '{':
		return w.object()
	case c == '[':
		return w.array()
	case c == '"':
		str, ok := w.str()
		if ok && !nameKey(w.key) && strings.ContainsAny(str, "0123456789") {
			w.text(str, w.path)
		}
		return ok
	case c == '-' || isDigit(c):
		return w.number()
	case strings.HasPrefix(w.s[w.i:], "true"):
		w.i += 4
	case strings.HasPrefix(w.s[w.i:], "false"):
		w.i += 5
	case strings.HasPrefix(w.s[w.i:], "null"):
		w.i += 4
	default:
		return false
	}
	return true
}

func (w *jsonWalker) object() bool {
	if w.depth++; w.depth > maxJSONDepth {
		return false
	}
	w.i++
	mark, outer := len(w.path), w.key
	w.ws()
	if w.i < len(w.s) && w.s[w.i] == '}' {
		w.i++
		w.depth--
		return true
	}
	for {
		w.ws()
		if w.i >= len(w.s) || w.s[w.i] != '"' {
			return false
		}
		key, ok := w.str()
		if !ok {
			return false
		}
		w.ws()
		if w.i >= len(w.s) || w.s[w.i] != ':' {
			return false
		}
		w.i++
		w.ws()
		w.path = append(append(w.path[:mark], '.'), key...)
		w.key = key
		if !w.value() {
			return false
		}
		w.ws()
		if w.i >= len(w.s) {
			return false
		}
		if w.s[w.i] == '}' {
			w.i++
			break
		}
		if w.s[w.i] != ',' {
			return false
		}
		w.i++
	}
	w.path, w.key = w.path[:mark], outer
	w.depth--
	return true
}

func (w *jsonWalker) array() bool {
	if w.depth++; w.depth > maxJSONDepth {
		return false
	}
	w.i++
	mark := len(w.path)
	w.ws()
	if w.i < len(w.s) && w.s[w.i] == ']' {
		w.i++
		w.depth--
		return true
	}
	for n := 0; ; n++ {
		w.path = append(strconv.AppendInt(append(w.path[:mark], '['), int64(n), 10), ']')
		w.ws()
		if !w.value() {
			return false
		}
		w.ws()
		if w.i >= len(w.s) {
			return false
		}
		if w.s[w.i] == ']' {
			w.i++
			break
		}
		if w.s[w.i] != ',' {
			return false
		}
		w.i++
	}
	w.path = w.path[:mark]
	w.depth--
	return true
}

func (w *jsonWalker) number() bool {
	a := w.i
	if w.s[w.i] == '-' {
		w.i++
	}
	for w.i < len(w.s) && strings.IndexByte("0123456789.eE+-", w.s[w.i]) >= 0 {
		w.i++
	}
	v, err := strconv.ParseFloat(w.s[a:w.i], 64)
	if err != nil {
		return false
	}
	w.emit(v, percentKey(w.key), w.path)
	return true
}

// nameKey reports keys whose string values name or identify something
// ("product": "Piatto 50", "order_id": "A-123"): their digits are no
// quantities and would otherwise ground small numbers by accident.
func nameKey(k string) bool {
	k = strings.ToLower(k)
	for _, s := range [...]string{"name", "id", "code", "sku", "label", "title", "product", "item", "category", "uuid", "key", "ref"} {
		if k == s || strings.HasSuffix(k, "_"+s) || strings.HasSuffix(k, "-"+s) {
			return true
		}
	}
	return strings.HasSuffix(k, "name")
}

// percentKey reports keys whose values are percentages: "food_cost_percent",
// "margin_pct", "percentuale".
func percentKey(k string) bool {
	k = strings.ToLower(k)
	return strings.Contains(k, "percent") || strings.Contains(k, "pct") || strings.HasSuffix(k, "perc")
}

// str reads a JSON string and returns its value; it allocates only when the
// string holds escapes.
func (w *jsonWalker) str() (string, bool) {
	w.i++
	a := w.i
	for w.i < len(w.s) {
		switch c := w.s[w.i]; {
		case c == '"':
			w.i++
			return w.s[a : w.i-1], true
		case c == '\\':
			return w.escaped(a)
		case c < 0x20:
			return "", false
		}
		w.i++
	}
	return "", false
}

func (w *jsonWalker) escaped(a int) (string, bool) {
	b := []byte(w.s[a:w.i])
	for w.i < len(w.s) {
		c := w.s[w.i]
		switch {
		case c == '"':
			w.i++
			return string(b), true
		case c < 0x20:
			return "", false
		case c != '\\':
			b = append(b, c)
			w.i++
			continue
		}
		if w.i+1 >= len(w.s) {
			return "", false
		}
		e := w.s[w.i+1]
		w.i += 2
		switch e {
		case '"', '\\', '/':
			b = append(b, e)
		case 'n':
			b = append(b, '\n')
		case 'b', 'f', 'r', 't':
			b = append(b, ' ')
		case 'u':
			r, ok := w.hex4()
			if !ok {
				return "", false
			}
			if utf16.IsSurrogate(r) && strings.HasPrefix(w.s[w.i:], `\u`) {
				w.i += 2
				r2, ok := w.hex4()
				if !ok {
					return "", false
				}
				r = utf16.DecodeRune(r, r2)
			}
			b = utf8.AppendRune(b, r)
		default:
			return "", false
		}
	}
	return "", false
}

func (w *jsonWalker) hex4() (rune, bool) {
	if w.i+4 > len(w.s) {
		return 0, false
	}
	v, err := strconv.ParseUint(w.s[w.i:w.i+4], 16, 32)
	if err != nil {
		return 0, false
	}
	w.i += 4
	return rune(v), true
}
