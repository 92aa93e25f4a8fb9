package rules

import (
	"unicode"
	"unicode/utf8"
	"unsafe"

	"golang.org/x/text/unicode/norm"
)

// normOptions selects the normalization steps (the pack's `normalize` settings).
type normOptions struct{ lowercase, foldDiacritics, collapseWhitespace bool }

// normalized is a normalized question with the map back to the original text.
type normalized struct {
	text string
	// spans holds, for output byte i, the original span [spans[2i], spans[2i+1]) that
	// produced it. A nil spans means the text is the original unchanged (identity map),
	// which lets clean ASCII questions skip the allocation entirely.
	spans []int32
	// origLen is the length of the original string, used to place empty spans at the end.
	origLen int
}

// normalize returns s normalized as described in rules/README.md ("Normalization").
func normalize(s string, o normOptions) normalized {
	if isClean(s, o) {
		return normalized{text: s, origLen: len(s)}
	}
	var w normWriter
	w.buf = make([]byte, 0, len(s)+len(s)/8+8)
	w.spans = make([]int32, 0, 2*cap(w.buf))
	w.keepSpans = true
	w.run(s, o)
	return normalized{text: bytesToString(w.buf), spans: w.spans, origLen: len(s)}
}

// normalizeTerm normalizes an alias term, pattern literal or test string like a question (no mapping kept).
func normalizeTerm(s string, o normOptions) string {
	if isClean(s, o) {
		return s
	}
	var w normWriter
	w.buf = make([]byte, 0, len(s)+len(s)/8+8)
	w.run(s, o)
	return bytesToString(w.buf)
}

// bytesToString converts without copying: the buffer is never written again after
// normalization finishes, so sharing it with the string is safe and saves one allocation.
func bytesToString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// origSpan maps the byte span [start,end) of n.text to the smallest byte span of the original
// string that produced it. start<=end, both within [0,len(n.text)]; an empty span maps to an empty span.
func (n normalized) origSpan(start, end int) (int, int) {
	start = max(0, min(start, len(n.text)))
	end = max(start, min(end, len(n.text)))
	if n.spans == nil {
		return start, end
	}
	if start == end {
		var p int
		switch {
		case start < len(n.text):
			p = int(n.spans[2*start])
		case len(n.text) > 0:
			p = int(n.spans[2*len(n.text)-1])
		}
		return p, p
	}
	return int(n.spans[2*start]), int(n.spans[2*(end-1)+1])
}

// isClean reports whether s is already normalized under o and consists of ASCII only,
// so normalize can return it as is.
func isClean(s string, o normOptions) bool {
	prevSpace := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= utf8.RuneSelf || c < ' ' || c == 0x7f:
			return false
		case o.lowercase && 'A' <= c && c <= 'Z':
			return false
		case c == ' ':
			if o.collapseWhitespace && prevSpace {
				return false
			}
			prevSpace = true
		default:
			prevSpace = false
		}
	}
	return !(o.collapseWhitespace && prevSpace && len(s) > 0)
}

// normWriter accumulates the normalized bytes and, when keepSpans is set, the original
// span of every output byte.
type normWriter struct {
	buf       []byte
	spans     []int32
	keepSpans bool
	// pending is set while a run of whitespace waits to be written as one space (collapse mode).
	pending            bool
	pendStart, pendEnd int
}

// byte appends one output byte produced by the original span [start,end).
func (w *normWriter) byte(c byte, start, end int) {
	w.flush()
	w.buf = append(w.buf, c)
	if w.keepSpans {
		w.spans = append(w.spans, int32(start), int32(end))
	}
}

// rune appends r produced by the original span [start,end).
func (w *normWriter) rune(r rune, start, end int) {
	if r < utf8.RuneSelf {
		w.byte(byte(r), start, end)
		return
	}
	w.flush()
	n := len(w.buf)
	w.buf = utf8.AppendRune(w.buf, r)
	if w.keepSpans {
		for range len(w.buf) - n {
			w.spans = append(w.spans, int32(start), int32(end))
		}
	}
}

// space records whitespace from [start,end): written at once without collapsing, else deferred
// so that runs become one space and leading/trailing space disappears.
func (w *normWriter) space(start, end int, collapse bool) {
	if !collapse {
		w.byte(' ', start, end)
		return
	}
	if len(w.buf) == 0 {
		return
	}
	if !w.pending {
		w.pending, w.pendStart = true, start
	}
	w.pendEnd = end
}

// flush writes a deferred space before the next visible byte.
func (w *normWriter) flush() {
	if !w.pending {
		return
	}
	w.pending = false
	w.buf = append(w.buf, ' ')
	if w.keepSpans {
		w.spans = append(w.spans, int32(w.pendStart), int32(w.pendEnd))
	}
}

// run normalizes s into w.
func (w *normWriter) run(s string, o normOptions) {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c < ' ' || c == 0x7f || c == ' ':
				w.space(i, i+1, o.collapseWhitespace)
			case o.lowercase && 'A' <= c && c <= 'Z':
				w.byte(c+'a'-'A', i, i+1)
			default:
				w.byte(c, i, i+1)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			w.space(i, i+1, o.collapseWhitespace)
			i++
			continue
		}
		w.special(s, i, size, r, o)
		i += size
	}
}

// special handles one non-ASCII rune r at s[i:i+size].
func (w *normWriter) special(s string, i, size int, r rune, o normOptions) {
	end := i + size
	if unicode.IsSpace(r) || unicode.IsControl(r) {
		w.space(i, end, o.collapseWhitespace)
		return
	}
	if q := asciiQuote(r); q != 0 {
		w.byte(q, i, end)
		return
	}
	if o.lowercase {
		r = foldRune(r)
	}
	if !o.foldDiacritics {
		w.rune(r, i, end)
		return
	}
	if rep := ligature(r); rep != "" {
		for j := 0; j < len(rep); j++ {
			w.byte(rep[j], i, end)
		}
		return
	}
	var tmp [utf8.UTFMax]byte
	enc := utf8.AppendRune(tmp[:0], r)
	d := norm.NFD.Properties(enc).Decomposition()
	if d == nil {
		if !unicode.Is(unicode.Mn, r) {
			w.rune(r, i, end)
		}
		return
	}
	for len(d) > 0 {
		dr, n := utf8.DecodeRune(d)
		d = d[n:]
		if unicode.Is(unicode.Mn, dr) {
			continue
		}
		if o.lowercase {
			dr = foldRune(dr)
		}
		if rep := ligature(dr); rep != "" {
			for j := 0; j < len(rep); j++ {
				w.byte(rep[j], i, end)
			}
			continue
		}
		w.rune(dr, i, end)
	}
}

// asciiQuote returns the ASCII quote that stands for a typographic quote, or 0.
func asciiQuote(r rune) byte {
	switch r {
	case '’', '‘', '‚', '‛', '′':
		return '\''
	case '“', '”', '„', '«', '»', '″':
		return '"'
	}
	return 0
}

// ligature returns the ASCII spelling of letters that have no canonical decomposition but
// that people expect to fold (ß, æ, ø, œ, ł, đ), or "".
func ligature(r rune) string {
	switch r {
	case 'ß':
		return "ss"
	case 'ẞ':
		return "SS"
	case 'æ':
		return "ae"
	case 'Æ':
		return "AE"
	case 'ø':
		return "o"
	case 'Ø':
		return "O"
	case 'œ':
		return "oe"
	case 'Œ':
		return "OE"
	case 'ł':
		return "l"
	case 'Ł':
		return "L"
	case 'đ':
		return "d"
	case 'Đ':
		return "D"
	}
	return ""
}

// foldRune returns the fold-canonical lower-case form of r: unicode.ToLower of the smallest rune in r's
// unicode.SimpleFold orbit, so 'K' (Kelvin) and 'K' become 'k', 'ſ' becomes 's'. The prefilter uses it too.
// The one exception is the iota orbit, whose smallest rune is a combining mark: it folds to 'ι'.
func foldRune(r rune) rune {
	if r < utf8.RuneSelf {
		if 'A' <= r && r <= 'Z' {
			r += 'a' - 'A'
		}
		return r
	}
	// The combining ypogegrammeni U+0345 is the smallest rune of the iota orbit; skipping it
	// keeps Greek iota a letter instead of a mark that diacritic folding would then drop.
	m := r
	if r == 0x345 {
		m = unicode.MaxRune
	}
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		if f != 0x345 {
			m = min(m, f)
		}
	}
	return unicode.ToLower(m)
}
