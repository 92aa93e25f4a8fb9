package rules

import (
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// allNorm is the default pack setting: every normalization step on.
var allNorm = normOptions{lowercase: true, foldDiacritics: true, collapseWhitespace: true}

func TestNormalize(t *testing.T) {
	cases := []struct {
		name, in, want string
		o              normOptions
	}{
		{"empty", "", "", allNorm},
		{"clean ascii", "show findings", "show findings", allNorm},
		{"upper", "Show Findings", "show findings", allNorm},
		{"italian accent", "Qual è il fatturato?", "qual e il fatturato?", allNorm},
		{"upper accent", "QUAL È", "qual e", allNorm},
		{"typographic apostrophe", "l’anno scorso", "l'anno scorso", allNorm},
		{"typographic quotes", "“ciao” «mondo» „x“", `"ciao" "mondo" "x"`, allNorm},
		{"kelvin and long s", "\u212Aelvin ſun", "kelvin sun", allNorm},
		{"ligatures", "Straße Æsir Øre œuvre Łódź Đakovo", "strasse aesir ore oeuvre lodz dakovo", allNorm},
		{"spanish", "Año niño", "ano nino", allNorm},
		{"german umlaut", "Über", "uber", allNorm},
		{"combining mark", "e\u0301te", "ete", allNorm},
		{"invalid utf8", "a\xffb", "a b", allNorm},
		{"controls", "a\x00\x01b\tc\nd\u0085e", "a b c d e", allNorm},
		{"nbsp and ideographic space", "a\u00a0b\u3000c", "a b c", allNorm},
		{"collapse and trim", "  a   b  ", "a b", allNorm},
		{"no collapse", " a  b", " a  b", normOptions{lowercase: true}},
		{"no lowercase", "Qual È", "Qual E", normOptions{foldDiacritics: true, collapseWhitespace: true}},
		{"no fold", "Qual È", "qual è", normOptions{lowercase: true, collapseWhitespace: true}},
		{"only spaces", " \t\n ", "", allNorm},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := normalize(tc.in, tc.o)
			if got.text != tc.want {
				t.Fatalf("normalize(%q) = %q, want %q", tc.in, got.text, tc.want)
			}
			if term := normalizeTerm(tc.in, tc.o); term != tc.want {
				t.Fatalf("normalizeTerm(%q) = %q, want %q", tc.in, term, tc.want)
			}
		})
	}
}

func TestOrigSpan(t *testing.T) {
	cases := []struct {
		name       string
		in         string
		sub        string // first occurrence in the normalized text
		wantOrig   string
		start, end int // used when sub is empty: explicit span
	}{
		{name: "ascii identity", in: "show findings", sub: "findings", wantOrig: "findings"},
		{name: "upper ascii", in: "Show Findings", sub: "findings", wantOrig: "Findings"},
		{name: "accented e", in: "Qual È", sub: "e", wantOrig: "È"},
		{name: "word with accent", in: "Perché no", sub: "perche", wantOrig: "Perché"},
		{name: "collapsed space", in: "a \t b", sub: " ", wantOrig: " \t "},
		{name: "after trim", in: "   anno", sub: "anno", wantOrig: "anno"},
		{name: "ligature", in: "Straße", sub: "ss", wantOrig: "ß"},
		{name: "empty span", in: "Qual È", wantOrig: "", start: 2, end: 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			n := normalize(tc.in, allNorm)
			start, end := tc.start, tc.end
			if tc.sub != "" {
				start = strings.Index(n.text, tc.sub)
				end = start + len(tc.sub)
			}
			os, oe := n.origSpan(start, end)
			if got := tc.in[os:oe]; got != tc.wantOrig {
				t.Fatalf("origSpan(%d,%d) of %q = %q, want %q", start, end, n.text, got, tc.wantOrig)
			}
		})
	}
	t.Run("ascii is identity", func(t *testing.T) {
		in := "how many findings in 2024?"
		n := normalize(in, allNorm)
		for s := 0; s <= len(in); s++ {
			for e := s; e <= len(in); e++ {
				if os, oe := n.origSpan(s, e); os != s || oe != e {
					t.Fatalf("origSpan(%d,%d) = %d,%d", s, e, os, oe)
				}
			}
		}
	})
}

func TestFoldRune(t *testing.T) {
	cases := []struct {
		in, want rune
	}{{'A', 'a'}, {'k', 'k'}, {'\u212A', 'k'}, {'ſ', 's'}, {'S', 's'}, {'È', 'è'}, {'ß', 'ß'}, {'Σ', 'σ'}, {'ς', 'σ'}, {'Ι', 'ι'}, {0x345, 'ι'}, {'1', '1'}}
	for _, tc := range cases {
		t.Run(string(tc.in), func(t *testing.T) {
			if got := foldRune(tc.in); got != tc.want {
				t.Fatalf("foldRune(%U) = %U, want %U", tc.in, got, tc.want)
			}
		})
	}
}

func FuzzNormalize(f *testing.F) {
	for _, s := range []string{"", "Qual È il fatturato?", "a\xffb", "\u212A ſ ß", "  x  ", "e\u0301", "ǅ ǆ Ǆ", "İ ı"} {
		f.Add(s, true, true, true)
	}
	f.Fuzz(func(t *testing.T, s string, lower, fold, collapse bool) {
		o := normOptions{lowercase: lower, foldDiacritics: fold, collapseWhitespace: collapse}
		n := normalize(s, o)
		if !utf8.ValidString(n.text) {
			t.Fatalf("normalize(%q) = %q is not valid UTF-8", s, n.text)
		}
		if again := normalizeTerm(n.text, o); again != n.text {
			t.Fatalf("not idempotent: %q -> %q -> %q", s, n.text, again)
		}
		if term := normalizeTerm(s, o); term != n.text {
			t.Fatalf("normalizeTerm(%q) = %q, normalize = %q", s, term, n.text)
		}
		prevS, prevE := 0, 0
		for i := 0; i <= len(n.text); i++ {
			os, oe := n.origSpan(i, min(i+1, len(n.text)))
			if os < 0 || oe > len(s) || os > oe {
				t.Fatalf("origSpan(%d) = %d,%d out of bounds for %q", i, os, oe, s)
			}
			if os < prevS || oe < prevE {
				t.Fatalf("origSpan not monotone at %d: %d,%d after %d,%d", i, os, oe, prevS, prevE)
			}
			prevS, prevE = os, oe
		}
	})
}

func BenchmarkNormalize(b *testing.B) {
	q := "Qual è il fatturato totale del 2024 per i Clienti in Italia? Show me the TOP 10 findings " +
		"from l’anno scorso, perché the Revenue dropped — più o meno del 15% rispetto all'anno prima, Grazie!!"
	b.SetBytes(int64(len(q)))
	b.ReportAllocs()
	for b.Loop() {
		_ = normalize(q, allNorm)
	}
}

// legacySpans normalizes s with the normalizer that kept one span per output byte, the
// reference for the segment map.
func legacySpans(s string, o normOptions) (string, []int32) {
	var w legacyNormWriter
	w.keepSpans = true
	w.run(s, o)
	return string(w.buf), w.spans
}

// sameSpans fails unless normalize(s) yields the reference text and maps every span of it
// back like the reference (which maps byte i to spans[2i], spans[2i+1]).
func sameSpans(t *testing.T, s string, o normOptions) {
	t.Helper()
	n := normalize(s, o)
	text, spans := legacySpans(s, o)
	if n.text != text {
		t.Fatalf("normalize(%q) = %q, reference %q", s, n.text, text)
	}
	for i := range len(text) {
		for j := i + 1; j <= len(text) && j <= i+4; j++ {
			ws, we := int(spans[2*i]), int(spans[2*(j-1)+1])
			if gs, ge := n.origSpan(i, j); gs != ws || ge != we {
				t.Fatalf("normalize(%q).origSpan(%d,%d) = %d,%d, reference %d,%d", s, i, j, gs, ge, ws, we)
			}
		}
	}
}

func TestNormalizeSpansMatchLegacy(t *testing.T) {
	for _, s := range []string{"", "show", "Show Findings", "  a \t b  ", "Qual È il fatturato?", "Straße  Æsir", "a\xffb",
		"e\u0301te", "l’anno “x”", "ABC\x00def", "x\u00a0\u00a0y", "\u212Aelvin ſun"} {
		for _, o := range []normOptions{allNorm, {lowercase: true}, {foldDiacritics: true, collapseWhitespace: true}, {}} {
			sameSpans(t, s, o)
		}
	}
}

func FuzzNormalizeSpans(f *testing.F) {
	f.Add("Qual È il fatturato?", true, true, true)
	f.Add("  A\tB  ", true, false, true)
	f.Fuzz(func(t *testing.T, s string, lower, fold, collapse bool) {
		sameSpans(t, s, normOptions{lowercase: lower, foldDiacritics: fold, collapseWhitespace: collapse})
	})
}

// legacyNormWriter accumulates the normalized bytes and, when keepSpans is set, the original
// span of every output byte.
type legacyNormWriter struct {
	buf       []byte
	spans     []int32
	keepSpans bool
	// pending is set while a run of whitespace waits to be written as one space (collapse mode).
	pending            bool
	pendStart, pendEnd int
}

// byte appends one output byte produced by the original span [start,end).
func (w *legacyNormWriter) byte(c byte, start, end int) {
	w.flush()
	w.buf = append(w.buf, c)
	if w.keepSpans {
		w.spans = append(w.spans, int32(start), int32(end))
	}
}

// rune appends r produced by the original span [start,end).
func (w *legacyNormWriter) rune(r rune, start, end int) {
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
func (w *legacyNormWriter) space(start, end int, collapse bool) {
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
func (w *legacyNormWriter) flush() {
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
func (w *legacyNormWriter) run(s string, o normOptions) {
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
func (w *legacyNormWriter) special(s string, i, size int, r rune, o normOptions) {
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

// TestLatinTable normalizes every rune the table covers, alone and between letters and
// spaces, under every setting, with and without the table: text and map must be identical.
func TestLatinTable(t *testing.T) {
	run := func(s string, o normOptions, slow bool) normalized {
		w := normWriter{buf: []byte{}, keepSpans: true, slow: slow}
		w.run(s, o)
		return normalized{text: string(w.buf), segs: w.segs, origLen: len(s)}
	}
	n := 0
	for k := range 8 {
		o := normOptions{lowercase: k&1 != 0, foldDiacritics: k&2 != 0, collapseWhitespace: k&4 != 0}
		for r := rune(utf8.RuneSelf); r < latinEnd; r++ {
			c := string(r)
			for _, s := range []string{c, "A" + c + "b", "a " + c + " B", "x  " + c + c + "  ", c + "\u0301e" + c} {
				got, want := run(s, o, false), run(s, o, true)
				if got.text != want.text || !slices.Equal(got.segs, want.segs) {
					t.Fatalf("%+v %q: table %q %v, slow %q %v", o, s, got.text, got.segs, want.text, want.segs)
				}
				n++
			}
		}
	}
	t.Logf("%d strings agree", n)
}
