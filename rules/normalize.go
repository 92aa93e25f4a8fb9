package rules

import (
	"sync"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"golang.org/x/text/unicode/norm"

	"github.com/weirgw/weir/rules/internal/fold"
)

// normOptions selects the normalization steps (the pack's `normalize` settings).
type normOptions struct{ lowercase, foldDiacritics, collapseWhitespace bool }

// normalized is a normalized question with the map back to the original text.
type normalized struct {
	text string
	// segs maps output bytes back to the original text, sorted by out. A nil segs means an
	// identity map: the text has the original's length and byte i came from original byte i
	// (clean ASCII questions, and ASCII questions that only needed lower-casing).
	segs []normSeg
	// origLen is the length of the original string, used to place empty spans at the end.
	origLen int
}

// normSeg covers the output bytes from out up to the next segment's out. With end < 0 it maps
// byte for byte (output byte out+k came from original byte start+k); otherwise every output
// byte in it came from the original span [start, end) (a folded rune, a ligature, a collapsed
// run of whitespace). Runs of copied ASCII thus cost one segment instead of a span per byte.
type normSeg struct{ out, start, end int32 }

// normalize returns s normalized as described in rules/README.md ("Normalization").
func normalize(s string, o normOptions) normalized { return normalizeSegs(s, o, nil) }

// normalizeSegs is normalize with the map's segments appended to segs, a buffer the caller
// reuses: the map lives only as long as the classification, unlike the text, which extracted
// values may keep.
func normalizeSegs(s string, o normOptions, segs []normSeg) normalized {
	switch asciiShape(s, o) {
	case shapeClean:
		return normalized{text: s, origLen: len(s)}
	case shapeOneToOne:
		return normalized{text: asciiMap(s, o), origLen: len(s)}
	}
	var w normWriter
	w.buf = make([]byte, 0, len(s)+len(s)/8+8)
	w.segs = segs[:0]
	if w.segs == nil {
		w.segs = make([]normSeg, 0, 16)
	}
	w.keepSpans = true
	w.run(s, o)
	return normalized{text: bytesToString(w.buf), segs: w.segs, origLen: len(s)}
}

// normalizeTerm normalizes an alias term, pattern literal or test string like a question (no mapping kept).
func normalizeTerm(s string, o normOptions) string {
	switch asciiShape(s, o) {
	case shapeClean:
		return s
	case shapeOneToOne:
		return asciiMap(s, o)
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
	if n.segs == nil {
		return start, end
	}
	if start == end {
		var p int
		switch {
		case start < len(n.text):
			p, _ = n.byteSpan(start)
		case len(n.text) > 0:
			_, p = n.byteSpan(len(n.text) - 1)
		}
		return p, p
	}
	s, _ := n.byteSpan(start)
	_, e := n.byteSpan(end - 1)
	return s, e
}

// byteSpan returns the original span that produced output byte j (0 <= j < len(n.text)).
func (n normalized) byteSpan(j int) (int, int) {
	lo, hi := 0, len(n.segs)
	for hi-lo > 1 { // the last segment with out <= j; segs[0].out is always 0
		m := int(uint(lo+hi) >> 1)
		if int(n.segs[m].out) <= j {
			lo = m
		} else {
			hi = m
		}
	}
	g := n.segs[lo]
	if g.end < 0 {
		s := int(g.start) + j - int(g.out)
		return s, s + 1
	}
	return int(g.start), int(g.end)
}

// textShape classifies a string for normalization's fast paths.
type textShape uint8

// The shapes asciiShape reports.
const (
	shapeGeneral  textShape = iota // needs the full normalizer
	shapeOneToOne                  // ASCII that maps byte for byte (only case or control bytes change)
	shapeClean                     // ASCII that is already normalized
)

// asciiShape reports whether s is ASCII and, if so, whether normalizing it changes nothing or
// changes bytes one for one: no whitespace run longer than one byte and none at either end
// when collapsing, so that only lower-casing and control bytes (which become spaces) differ.
func asciiShape(s string, o normOptions) textShape {
	shape := shapeClean
	prevSpace := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= utf8.RuneSelf:
			return shapeGeneral
		case c < ' ' || c == 0x7f:
			shape = shapeOneToOne
			fallthrough
		case c == ' ':
			if o.collapseWhitespace && prevSpace {
				return shapeGeneral
			}
			prevSpace = true
		case o.lowercase && 'A' <= c && c <= 'Z':
			shape = shapeOneToOne
			prevSpace = false
		default:
			prevSpace = false
		}
	}
	if o.collapseWhitespace && prevSpace && len(s) > 0 {
		return shapeGeneral
	}
	return shape
}

// asciiMap normalizes an ASCII string of shapeOneToOne: lower-cases and turns control bytes
// into spaces, byte for byte.
func asciiMap(s string, o normOptions) string {
	b := make([]byte, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c < ' ' || c == 0x7f:
			c = ' '
		case o.lowercase && 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		}
		b[i] = c
	}
	return bytesToString(b)
}

// normWriter accumulates the normalized bytes and, when keepSpans is set, the segments that
// map them back to the original.
type normWriter struct {
	buf       []byte
	segs      []normSeg
	keepSpans bool
	slow      bool // no table (tests compare the two)
	// pending is set while a run of whitespace waits to be written as one space (collapse mode).
	pending            bool
	pendStart, pendEnd int
}

// mark records that the output bytes from out on came from the original span [start,end),
// extending the last segment when it already says so.
func (w *normWriter) mark(out, start, end int) {
	if n := len(w.segs); n > 0 {
		l := w.segs[n-1]
		if l.end < 0 && end == start+1 && int(l.start)+out-int(l.out) == start ||
			l.end >= 0 && int(l.start) == start && int(l.end) == end {
			return
		}
	}
	e := int32(end)
	if end == start+1 {
		e = -1
	}
	w.segs = append(w.segs, normSeg{out: int32(out), start: int32(start), end: e})
}

// byte appends one output byte produced by the original span [start,end).
func (w *normWriter) byte(c byte, start, end int) {
	w.flush()
	if w.keepSpans {
		w.mark(len(w.buf), start, end)
	}
	w.buf = append(w.buf, c)
}

// copyRun appends the plain ASCII bytes s[i:j] (lower-cased when lower is set), each produced
// by the byte at the same offset: the common case, handled without per-byte bookkeeping.
func (w *normWriter) copyRun(s string, i, j int, lower bool) {
	w.flush()
	if w.keepSpans {
		w.mark(len(w.buf), i, i+1)
	}
	if !lower {
		w.buf = append(w.buf, s[i:j]...)
		return
	}
	for ; i < j; i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		w.buf = append(w.buf, c)
	}
}

// rune appends r produced by the original span [start,end).
func (w *normWriter) rune(r rune, start, end int) {
	if r < utf8.RuneSelf {
		w.byte(byte(r), start, end)
		return
	}
	w.flush()
	if w.keepSpans {
		w.mark(len(w.buf), start, end)
	}
	w.buf = utf8.AppendRune(w.buf, r)
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
	if w.keepSpans {
		w.mark(len(w.buf), w.pendStart, w.pendEnd)
	}
	w.buf = append(w.buf, ' ')
}

// isPlain reports whether the ASCII byte c is copied as is (or only lower-cased).
func isPlain(c byte) bool { return c > ' ' && c < 0x7f }

// run normalizes s into w.
func (w *normWriter) run(s string, o normOptions) {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if isPlain(c) {
				j := i + 1
				for j < len(s) && isPlain(s[j]) {
					j++
				}
				w.copyRun(s, i, j, o.lowercase)
				i = j
				continue
			}
			w.space(i, i+1, o.collapseWhitespace)
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

// special handles one non-ASCII rune r at s[i:i+size]: the Latin letters of European
// questions from a table (see latinTable), the rest by specialSlow.
func (w *normWriter) special(s string, i, size int, r rune, o normOptions) {
	if r >= latinEnd || w.slow {
		w.specialSlow(s, i, size, r, o)
		return
	}
	e := latinTables[latinIndex(o)]()[r-utf8.RuneSelf]
	switch {
	case e.space:
		w.space(i, i+size, o.collapseWhitespace)
	case e.out != "":
		w.flush()
		if w.keepSpans {
			w.mark(len(w.buf), i, i+size)
		}
		w.buf = append(w.buf, e.out...)
	}
}

// latinEnd bounds the runes normalized from a table: Latin-1 Supplement and Latin
// Extended-A and -B.
const latinEnd = 0x250

// latinEntry is what specialSlow writes for one rune: whitespace, or the bytes out (none: the
// rune is dropped, and a pending space stays pending).
type latinEntry struct {
	space bool
	out   string
}

// latinTables hold, per lowercase and foldDiacritics setting (see latinIndex), the entries
// of the runes from utf8.RuneSelf to latinEnd, built on first use by specialSlow itself, so
// the table answers exactly what the slow path would.
var latinTables = func() (t [4]func() []latinEntry) {
	for k := range t {
		o := normOptions{lowercase: k&1 != 0, foldDiacritics: k&2 != 0}
		t[k] = sync.OnceValue(func() []latinEntry { return latinTable(o) })
	}
	return t
}()

func latinIndex(o normOptions) int {
	k := 0
	if o.lowercase {
		k |= 1
	}
	if o.foldDiacritics {
		k |= 2
	}
	return k
}

// latinTable runs specialSlow on every rune below latinEnd.
func latinTable(o normOptions) []latinEntry {
	tab := make([]latinEntry, latinEnd-utf8.RuneSelf)
	for r := rune(utf8.RuneSelf); r < latinEnd; r++ {
		if isSpaceRune(r) {
			tab[r-utf8.RuneSelf].space = true
			continue
		}
		var w normWriter
		s := string(r)
		w.specialSlow(s, 0, len(s), r, o)
		tab[r-utf8.RuneSelf].out = string(w.buf)
	}
	return tab
}

// isSpaceRune reports whether the non-ASCII rune r normalizes as whitespace.
func isSpaceRune(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }

// specialSlow is special without the table.
func (w *normWriter) specialSlow(s string, i, size int, r rune, o normOptions) {
	end := i + size
	if isSpaceRune(r) {
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

// foldRune is fold.Rune: the normalizer and the prefilter share one definition of case.
func foldRune(r rune) rune { return fold.Rune(r) }
