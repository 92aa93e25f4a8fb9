package rules

import (
	"strings"
	"testing"
	"unicode/utf8"
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
