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
	s       string
	i       int
	path    []byte
	keyPct  bool   // the innermost object key names a percentage
	keyName bool   // the innermost object key names or identifies something
	key     string // the innermost object key, as written
	norm    string // the same, normalized (normKey)
	depth   int
	b       *builder
	src     *srcLabel
	acc     *groupAcc    // the sums of the innermost array of objects
	keys    [64]keyEntry // the flags of recent keys: rows repeat them
}

type keyEntry struct {
	key       string
	norm      string
	set       bool
	pct, name bool
}

// flags returns keyFlags(k) and normKey(k), remembered for the keys seen
// last.
func (w *jsonWalker) flags(k string) (pct, name bool, norm string) {
	h := uint32(2166136261) // FNV-1a
	for i := 0; i < len(k); i++ {
		h = (h ^ uint32(k[i])) * 16777619
	}
	e := &w.keys[int(h^h>>8)&(len(w.keys)-1)]
	if !e.set || e.key != k {
		e.pct, e.name = keyFlags(k)
		e.key, e.norm, e.set = k, normKey(k), true
	}
	return e.pct, e.name, e.norm
}

// walkJSON reports whether s is one JSON value and, if so, has added its
// numbers to b.
func walkJSON(s string, b *builder, src *srcLabel) bool {
	var buf [128]byte
	w := jsonWalker{s: s, path: append(buf[:0], '$'), b: b, src: src}
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
		if ok && !w.keyName && mayHoldNumber(str) {
			w.b.text(str, w.src, w.path)
		}
		if ok && w.depth == 1 && isMetricKey(w.key) {
			w.b.ix.metrics[w.src.src] = normKey(str)
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
	mark, outerPct, outerName, outerKey, outerNorm := len(w.path), w.keyPct, w.keyName, w.key, w.norm
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
		w.keyPct, w.keyName, w.norm = w.flags(key)
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
	w.path, w.keyPct, w.keyName, w.key, w.norm = w.path[:mark], outerPct, outerName, outerKey, outerNorm
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
	outer := w.acc
	w.acc = &groupAcc{depth: w.depth, key: w.key}
	defer func() { w.acc = outer }()
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
	w.acc.emit(w.b, w.src, w.path)
	w.depth--
	return true
}

func (w *jsonWalker) number() bool {
	a := w.i
	if w.s[w.i] == '-' {
		w.i++
	}
	for w.i < len(w.s) && isNumberByte(w.s[w.i]) {
		w.i++
	}
	v, ok := fastFloat(w.s[a:w.i])
	if !ok {
		var err error
		if v, err = strconv.ParseFloat(w.s[a:w.i], 64); err != nil {
			return false
		}
	}
	n := w.b.number(v, w.keyPct, w.src, w.path)
	if w.norm != "" {
		w.b.ix.keys = append(w.b.ix.keys, keyRef{entry: n, src: w.src.src, key: w.norm})
	}
	if a := w.acc; a != nil && !w.keyPct && (w.depth == a.depth || w.depth == a.depth+1) {
		a.add(w.key, v)
	}
	return true
}

// isMetricKey reports the keys that name what a whole result is about:
// {"metric": "revenue", "value": 21956.62}.
func isMetricKey(k string) bool {
	return k == "metric" || k == "metricName" || k == "metric_name"
}

func isNumberByte(c byte) bool {
	return isDigit(c) || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-'
}

// fastFloat parses the common "-123.45" without an exponent and with at
// most 15 digits, where float64(mantissa) / 10^decimals is exact and gives
// what strconv.ParseFloat gives. It reports false for anything else.
func fastFloat(s string) (float64, bool) {
	i, neg := 0, false
	if i < len(s) && s[i] == '-' {
		i, neg = 1, true
	}
	var m uint64
	digits, dec, dot := 0, 0, false
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case isDigit(c):
			m = m*10 + uint64(c-'0')
			digits++
			if dot {
				dec++
			}
		case c == '.' && !dot && digits > 0:
			dot = true
		default:
			return 0, false
		}
	}
	if digits == 0 || digits > 15 {
		return 0, false
	}
	v := float64(m) / pow10tab[dec]
	if neg {
		v = -v
	}
	return v, true
}

// mayHoldNumber reports whether s has an ASCII digit or a non-ASCII byte:
// the digits of other scripts, superscripts and enclosed numbers are
// non-ASCII until folded.
func mayHoldNumber(s string) bool {
	for i := 0; i < len(s); i++ {
		if isDigit(s[i]) || s[i] >= utf8.RuneSelf {
			return true
		}
	}
	return false
}

// keyFlags reports whether k names a percentage (percentKey) and whether
// it names or identifies something (nameKey). ASCII keys, the usual case,
// are compared ignoring case without allocating.
func keyFlags(k string) (pct, name bool) {
	for i := 0; i < len(k); i++ {
		if k[i] >= 0x80 {
			return percentKey(k), nameKey(k)
		}
	}
	pct = containsFold(k, "percent") || containsFold(k, "pct") || hasSuffixFold(k, "perc")
	for _, s := range nameWords {
		if n := len(k) - len(s); n == 0 && strings.EqualFold(k, s) ||
			n > 0 && (k[n-1] == '_' || k[n-1] == '-') && strings.EqualFold(k[n:], s) {
			return pct, true
		}
	}
	return pct, hasSuffixFold(k, "name")
}

var nameWords = [...]string{"name", "id", "code", "sku", "label", "title", "product", "item", "category", "uuid", "key", "ref"}

func hasSuffixFold(s, suf string) bool {
	return len(s) >= len(suf) && strings.EqualFold(s[len(s)-len(suf):], suf)
}

// containsFold reports whether the ASCII string s contains the lower-case
// word sub, ignoring case.
func containsFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i]|0x20 == sub[0] && strings.EqualFold(s[i:i+len(sub)], sub) {
			return true
		}
	}
	return false
}

// nameKey reports keys whose string values name or identify something
// ("product": "Piatto 50", "order_id": "A-123"): their digits are no
// quantities and would otherwise ground small numbers by accident.
func nameKey(k string) bool {
	k = strings.ToLower(k)
	for _, s := range nameWords {
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
