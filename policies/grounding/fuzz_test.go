package grounding

import (
	"testing"
	"unicode/utf8"
)

var fuzzSeeds = []string{
	"Il fatturato totale è di 21.956,62 €, con un food cost del 35,02%.",
	"$1.2M, 22k, 3,5 mln €, −12,5%, 1'234.50, 1 913, 10–20%, tra 10 e 20 mila",
	"1. **Volume**\n## 2.1 Risultati\n2024-01-15 12:30 +39 02 1234 5678 gpt-4o `x=1` https://a.b/1",
	"-", "€", "1.", "0,", "9'", "+-1", "1\u00a0", "1 000 000,5 €", "1e308", "99999999999999999999999.5",
	// Numbers as readers see them (fold.go, notation.go).
	"２１９５６ € ٢١٩٥٦ ۲۱۹۵۶ २१९५६ 𝟐𝟏𝟗𝟓𝟔 2١9५6 ٣٥٫٠٢٪ ²¹⁹⁵⁶ 收入21956元",
	"21\u200b956 2\u200c19\u200d56 21\u2060956\ufeff.62 21\u00ad956 €\u200b21.956,62 7\ufe0f\u20e3 21\u0301956",
	"① Volume\n② ⑫ ❸ ㉑ ⒊ ⑴ ①②③",
	"＄1,200.50 ￥500 ￡99 35％ 21﹐956 21\u3000956,62 ２２ｋ \u201112,5% ½ 2½ milioni 2 ¾ 3⁄4 ⅟ 1⁄0 ↉",
	"4.8e4 4,8E+4 3.5e-2 4.8×10^4 4.8·10⁴ 4.8 x 10^4 4.8*10**4 10⁴ 10⁻³ 1.2e1% 0x1e4 3e 2^1024 10^999 9e308",
	// Number words and multipliers (words.go).
	"ventiduemila euro, twenty-two thousand, due milioni e mezzo, mezzo milione, a dozen, tre quarti del, a third of, half a million",
	"one and a half million, un milione e duecentomila, 21,96 migliaia, 35 centesimi, tra venti e trenta mila, the third quarter",
	"| # | x |\n|---|---|\n| 1 | a |\n| 2 | b |",
	// Amounts after a label, ids and versions (ident.go).
	"(rif. ID-48213.77) euro x-48213.77 #48213.77 #48.213,77 ID48213.77 n.48213,77 ID-12 € x-12% gpt-4.1 claude-3.5-sonnet x-482.13 COVID-19 123 #42 3.5b",
	// Numbers joined by "-" or "x" (context.go, ident.go).
	"21956.62-48213.77 tra 48213.77-21956.62 euro 2024-48213.77 +21956.62-48213.77 21956.62x48213.77 1920x1080 Q3x4 0x1 1x1x1x1 tel. 02.1234-5678",
	// Exponents and powers beyond float64 (notation.go).
	"21956.62e48213 21956.62e-48213 -1E+99999 0e99999 4.8×10^9999 10^999 10⁻⁹⁹⁹ 9e308 1e400% 2^99999",
	// Spelled digits and decimals in words (spelled.go).
	"quattro-otto-due-uno-tre virgola sette-sette euro, four eight two one three point seven seven, zero point five, tre virgola venticinque, tre virgola due milioni, due-tre, virgola, point, uno due tre quattro cinque sei sette otto nove zero uno due tre quattro cinque sei sette otto virgola uno due tre quattro cinque sei sette otto nove zero uno due tre quattro cinque sei sette",
	// URL query values (skip.go).
	"[report](https://example.invalid/r?total=48213.77) www.x.it/?a=1.234,56;b=-12,5&c=&=1.5&&d=2#e=4.5 https://x/? https://x/?a=1.2.3&b=2024-01-15",
	// HTML character references (charref.go).
	"&#52;&#56;&#50;&#49;&#51;.&#55;&#55; euro &#x34;&#X38; &#52&#56 48&period;213&comma;77 &euro; 48&nbsp;213 &#65300; 4&#8203;8 10&sup2; &frac12; &#128;1 &amp;#52; R&D &#; &#x; &#0; &#99999999999; &#xD800; &CounterClockwiseContourIntegral; &",
	// Literals in another base (bases.go).
	"0xBC55 0o136125 0b1011110001010101 0XBC_55 0b12 0xBC55g a0x12 0b_1 0x1_ -0x10 €0x10 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF",
}

func FuzzExtract(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		end := 0
		for _, n := range Extract(s) {
			if n.Start < 0 || n.End > len(s) || n.Start >= n.End {
				t.Fatalf("span %d:%d out of bounds for %d bytes", n.Start, n.End, len(s))
			}
			if s[n.Start:n.End] != n.Text {
				t.Fatalf("Text %q != answer[%d:%d] %q", n.Text, n.Start, n.End, s[n.Start:n.End])
			}
			if utf8.ValidString(s) && !utf8.ValidString(n.Text) {
				t.Fatalf("Text %q splits a rune", n.Text)
			}
			if n.Start < end {
				t.Fatalf("span %d:%d overlaps the previous one, which ends at %d", n.Start, n.End, end)
			}
			end = n.End
		}
	})
}

func FuzzCheck(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, metricsJSON)
	}
	f.Add("32.934,93 €", `{"a":[1,2,{"b":"21.956,62 €"}],"c":-0.0}`)
	f.Add("1", `[[[[[[["\u00e8 5"]]]]]]]`)
	f.Add("Revenue ２１９５６.６２, 21\u200b956 €, 4.8e4", `{"r":"٢١٩٥٦٫٦٢","s":"収入２１，９５６円","e":4.8e4}`)
	f.Fuzz(func(t *testing.T, answer, tool string) {
		ix := NewIndex([]Source{{Kind: Tool, Name: "t", Content: tool}, {Kind: User, Content: tool}})
		for _, opt := range []Options{{}, {AllowDerivations: true}} {
			ns := ix.Check(answer, opt)
			for _, n := range ns {
				if answer[n.Start:n.End] != n.Text {
					t.Fatalf("bad span")
				}
			}
		}
	})
}
