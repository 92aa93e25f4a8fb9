package grounding

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// foldCases are numbers as readers see them and the scanner, reading ASCII
// digits, would miss or split. Each expected text is the original span.
var foldCases = []extractCase{
	// Decimal digits of every script are read as their value.
	{"digits", "fullwidth", "Fatturato ２１９５６ €", []string{"２１９５６ €=21956 EUR"}},
	{"digits", "arabic-indic", "الإيرادات ٢١٩٥٦", []string{"٢١٩٥٦=21956"}},
	{"digits", "extended arabic-indic", "درآمد ۲۱۹۵۶", []string{"۲۱۹۵۶=21956"}},
	{"digits", "devanagari", "राजस्व २१९५६", []string{"२१९५६=21956"}},
	{"digits", "bengali", "রাজস্ব ২১৯৫৬", []string{"২১৯৫৬=21956"}},
	{"digits", "thai", "รายได้ ๒๑๙๕๖", []string{"๒๑๙๕๖=21956"}},
	{"digits", "mathematical bold", "Revenue 𝟐𝟏𝟗𝟓𝟔", []string{"𝟐𝟏𝟗𝟓𝟔=21956"}},
	{"digits", "scripts mixed in one number", "Revenue 2١9५6", []string{"2١9५6=21956"}},
	{"digits", "arabic separators and percent", "نسبة ٣٥٫٠٢٪ من ٢١٬٩٥٦", []string{"٣٥٫٠٢٪=35.02%", "٢١٬٩٥٦=21956"}},
	{"digits", "superscript digits alone", "Revenue ²¹⁹⁵⁶", []string{"²¹⁹⁵⁶=21956"}},
	{"digits", "subscript digits", "Revenue ₂₁₉₅₆", []string{"₂₁₉₅₆=21956"}},
	{"digits", "han letters touch digits", "收入21956元", []string{"21956=21956"}},
	{"digits", "kana and fullwidth", "売上は２１，９５６円", []string{"２１，９５６=21956"}},
	{"digits", "greek symbol before digits", "Δ12%", []string{"12%=12%"}},
	{"digits", "latin letters still make identifiers", "H₂O e Q３", nil},
	// Enclosed numbers are one number each, list markers at a line start.
	{"enclosed", "circled mid-sentence", "Vedi punto ⑫ e ❸", []string{"⑫=12", "❸=3"}},
	{"enclosed", "circled never joins", "①②③", []string{"①=1", "②=2", "③=3"}},
	{"enclosed", "circled list markers", "① Volume\n② Prezzo\n⒊ Mix", nil},
	{"enclosed", "large circled", "Punti ㉑ e ㊿", []string{"㉑=21", "㊿=50"}},
	{"enclosed", "large circled list marker", "㉑ e ㊿", []string{"㊿=50"}},
	// Format characters never split a number, and a span covers them.
	{"format", "zero-width space", "Fatturato 21\u200b956 €", []string{"21\u200b956 €=21956 EUR"}},
	{"format", "zwnj zwj", "Fatturato 2\u200c19\u200d56", []string{"2\u200c19\u200d56=21956"}},
	{"format", "word joiner and bom", "Revenue 21\u2060956\ufeff.62", []string{"21\u2060956\ufeff.62=21956.62"}},
	{"format", "soft hyphen", "Revenue 21\u00ad956", []string{"21\u00ad956=21956"}},
	{"format", "bidi marks", "Revenue \u200e21956\u200f", []string{"21956=21956"}},
	{"format", "in every gap", "Revenue 2\u200b1\u200b9\u200b5\u200b6", []string{"2\u200b1\u200b9\u200b5\u200b6=21956"}},
	{"format", "between currency and digits", "€\u200b21.956,62", []string{"€\u200b21.956,62=21956.62 EUR"}},
	{"format", "before a percent sign", "35\u200b,02\u200b%", []string{"35\u200b,02\u200b%=35.02%"}},
	{"format", "inside a scale", "22\u200bk", []string{"22\u200bk=22000"}},
	{"format", "keycap belongs to the digit", "Punto 7\ufe0f\u20e3 del piano", []string{"7\ufe0f\u20e3=7"}},
	{"format", "combining mark inside", "Revenue 21\u0301956", []string{"21\u0301956=21956"}},
	{"format", "outside the span", "\u200b21956\u200b", []string{"21956=21956"}},
	// Compatibility forms are folded.
	{"compat", "fullwidth punctuation", "Revenue ２１，９５６．６２", []string{"２１，９５６．６２=21956.62"}},
	{"compat", "fullwidth dollar", "Revenue ＄1,200.50", []string{"＄1,200.50=1200.5 USD"}},
	{"compat", "fullwidth yen and pound", "￥500 e ￡99", []string{"￥500=500 JPY", "￡99=99 GBP"}},
	{"compat", "fullwidth percent", "Food cost 35％", []string{"35％=35%"}},
	{"compat", "small form comma", "Revenue 21﹐956", []string{"21﹐956=21956"}},
	{"compat", "ideographic space groups", "Fatturato 21\u3000956,62", []string{"21\u3000956,62=21956.62"}},
	{"compat", "em space and figure space", "Fatturato 21\u2003956 e 1\u2007913", []string{"21\u2003956=21956", "1\u2007913=1913"}},
	{"compat", "fullwidth scale", "Revenue ２２ｋ", []string{"２２ｋ=22000"}},
	{"compat", "non-breaking hyphen sign", "Delta \u201112,5%", []string{"\u201112,5%=-12.5%"}},
	{"compat", "vulgar fraction", "½ del totale", []string{"½=0.5"}},
	{"compat", "mixed number", "2½ milioni", []string{"2½ milioni=2500000"}},
	{"compat", "mixed number with a space", "2 ¾", []string{"2 ¾=2.75"}},
	{"compat", "fraction slash", "3⁄4 dei clienti", []string{"3⁄4=0.75"}},
	{"compat", "ascii slash is no fraction", "3/4 dei clienti", []string{"3=3", "4=4"}},
	// Scientific notation and powers.
	{"scientific", "e", "Revenue 4.8e4", []string{"4.8e4=48000"}},
	{"scientific", "E with sign and comma", "Fatturato 4,8E+4 €", []string{"4,8E+4 €=48000 EUR"}},
	{"scientific", "negative exponent", "ratio 3.5e-2", []string{"3.5e-2=0.035"}},
	{"scientific", "times ten caret", "4.8×10^4", []string{"4.8×10^4=48000"}},
	{"scientific", "middle dot superscript", "4.8·10⁴", []string{"4.8·10⁴=48000"}},
	{"scientific", "x with spaces", "4.8 x 10^4 units", []string{"4.8 x 10^4=48000"}},
	{"scientific", "asterisks", "4.8*10**4", []string{"4.8*10**4=48000"}},
	{"scientific", "power of ten", "10⁴ clienti e 10^6", []string{"10⁴=10000", "10^6=1000000"}},
	{"scientific", "superscript minus", "10⁻³", []string{"10⁻³=0.001"}},
	{"scientific", "with percent", "1.2e1%", []string{"1.2e1%=12%"}},
	{"scientific", "a hex literal is no exponent", "0x1e4 e 3e", []string{"0x1e4=484"}},
	{"scientific", "times without a power", "2 x 10 tavoli", []string{"2=2", "10=10"}},
	{"scientific", "unit squared", "120 m²", []string{"120=120"}},
	// HTML character references are decoded, once (charref.go).
	{"charref", "decimal references", "Totale &#52;&#56;&#50;&#49;&#51;.&#55;&#55; euro", []string{"&#52;&#56;&#50;&#49;&#51;.&#55;&#55; euro=48213.77 EUR"}},
	{"charref", "hexadecimal references", "Totale &#x34;&#X38;213", []string{"&#x34;&#X38;213=48213"}},
	{"charref", "no semicolon", "Totale &#52&#56&#50&#49&#51", []string{"&#52&#56&#50&#49&#51=48213"}},
	{"charref", "named punctuation and currency", "Totale 48&period;213&comma;77 &euro; e 12&percnt;", []string{"48&period;213&comma;77 &euro;=48213.77 EUR", "12&percnt;=12%"}},
	{"charref", "named spaces group digits", "Totale 48&nbsp;213,77 e 48&thinsp;213,77", []string{"48&nbsp;213,77=48213.77", "48&thinsp;213,77=48213.77"}},
	{"charref", "references fold further", "Totale &#65300;&#65304; e 4&#8203;8213 e 10&sup2; e &frac12;", []string{"&#65300;&#65304;=48", "4&#8203;8213=48213", "10&sup2;=100", "&frac12;=0.5"}},
	{"charref", "windows-1252 range", "Totale &#128;12", []string{"&#128;12=12 EUR"}},
	{"charref", "decoded once", "Totale &amp;#52;&amp;#56; e R&D, A & B, &nosuch; &#; &#x;", nil},
	{"charref", "invalid code points", "Totale &#0;&#99999999999;&#xD800;", nil},
	// Markup a rendered answer does not show never splits a number (markup.go).
	{"markup", "emphasis inside", "Obiettivo 4*8*2*1*3 euro", []string{"4*8*2*1*3 euro=48213 EUR"}},
	{"markup", "strong inside", "Obiettivo 4**8**213,77", []string{"4**8**213,77=48213.77"}},
	{"markup", "strong at the start", "Obiettivo **4**8213", []string{"4**8213=48213"}},
	{"markup", "strikethrough and code", "Obiettivo 4~~8~~2`1`3", []string{"4~~8~~2`1`3=48213"}},
	{"markup", "html tags", "Totale 48<b>213</b>,77 e 4<span class=\"x\">8</span>213", []string{"48<b>213</b>,77=48213.77", "4<span class=\"x\">8</span>213=48213"}},
	{"markup", "html comment", "Totale 48<!-- -->213", []string{"48<!-- -->213=48213"}},
	{"markup", "nested tags", "Totale 4<b><i>8</i></b>213", []string{"4<b><i>8</i></b>213=48213"}},
	{"markup", "sup is a power", "Clienti 10<sup>4</sup>", []string{"10<sup>4=10000"}},
	{"markup", "a lone delimiter stays", "3*4 = 12 e 2**10", []string{"3=3", "4=4", "12=12", "2**10=1024"}},
	{"markup", "underscore stays", "4_8_2_1_3", []string{"4=4"}}, // the rest touch "_": identifiers
	{"markup", "no tag", "4<8 e 9>2 e a<b2c", []string{"4=4", "8=8", "9=9", "2=2"}},
	{"markup", "tags around a number", "<b>48213</b> e H<sub>2</sub>O", []string{"48213=48213", "2=2"}},
}

func TestExtractFolded(t *testing.T) { runExtractCases(t, foldCases) }

// TestNdDigitRanges checks what ndValue relies on: every range of the Nd
// table is a run of complete 0–9 sets.
func TestNdDigitRanges(t *testing.T) {
	for _, r := range unicode.Nd.R16 {
		if r.Stride != 1 || (int(r.Hi)-int(r.Lo)+1)%10 != 0 {
			t.Errorf("Nd range %U–%U", r.Lo, r.Hi)
		}
	}
	for _, r := range unicode.Nd.R32 {
		if r.Stride != 1 || (int(r.Hi)-int(r.Lo)+1)%10 != 0 {
			t.Errorf("Nd range %U–%U", r.Lo, r.Hi)
		}
	}
}

// zeroes are the zero digits of some scripts; formats are invisible characters.
var (
	zeroes  = []rune{'0', 0xFF10, 0x0660, 0x06F0, 0x0966, 0x09E6, 0x0E50, 0x1D7CE, 0x0AE6, 0x1040}
	formats = []string{"\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u200e", "\u2063", "\ufe0f"}
)

// TestFoldedNumbersStayWhole writes random numbers with digits of random
// scripts and invisible characters between them: each must be read as one
// number with its value and a span over all of it — never as several small
// numbers.
func TestFoldedNumbersStayWhole(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 15))
	for i := 0; i < 2000; i++ {
		v := 10_000 + r.IntN(90_000_000) // not a year
		digits := strconv.Itoa(v)
		var b strings.Builder
		for k, d := range digits {
			if k > 0 && r.IntN(2) == 0 {
				b.WriteString(formats[r.IntN(len(formats))])
			}
			b.WriteRune(zeroes[r.IntN(len(zeroes))] + d - '0')
		}
		wantWhole(t, b.String(), v)
	}
}

// wantWhole checks that num, a number written with other characters between
// its digits, is read in a sentence as one number of value v spanning num.
func wantWhole(t *testing.T, num string, v int) {
	t.Helper()
	text := "Il valore è " + num + " oggi."
	if ns := Extract(text); len(ns) != 1 || ns[0].Value != float64(v) || ns[0].Text != num {
		t.Fatalf("Extract(%q) = %+v, want one number %d spanning %q", text, ns, v, num)
	}
}

// TestCharRefNumbersStayWhole writes random numbers with some digits as
// HTML references, decimal or hexadecimal, with or without ';': each must
// be read as one number spanning the references.
func TestCharRefNumbersStayWhole(t *testing.T) {
	r := rand.New(rand.NewPCG(52, 56))
	for i := 0; i < 2000; i++ {
		v := 10_000 + r.IntN(90_000_000)
		digits := strconv.Itoa(v)
		kinds := make([]int, len(digits)+1) // kinds[len] = 0: the text goes on with " oggi"
		for k := range digits {
			kinds[k] = r.IntN(4)
		}
		var b strings.Builder
		for k, d := range digits {
			switch kinds[k] {
			case 0:
				b.WriteRune(d)
			case 1:
				b.WriteString("&#" + strconv.Itoa(int(d)) + ";")
			case 2:
				b.WriteString("&#x" + strconv.FormatInt(int64(d), 16) + ";")
			default: // no ';', which only a reference or a space may follow
				b.WriteString("&#" + strconv.Itoa(int(d)))
				if kinds[k+1] == 0 && k+1 < len(digits) {
					b.WriteByte(';')
				}
			}
		}
		wantWhole(t, b.String(), v)
	}
}

// TestMarkupNumbersStayWhole writes random numbers with markup a renderer
// hides between some of their digits: each must be read as one number
// spanning the markup.
func TestMarkupNumbersStayWhole(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 8))
	pairs := [][2]string{{"*", "*"}, {"**", "**"}, {"~~", "~~"}, {"`", "`"}, {"<b>", "</b>"}, {"<em>", "</em>"}}
	for i := 0; i < 2000; i++ {
		v := 10_000 + r.IntN(90_000_000)
		digits := strconv.Itoa(v)
		var b strings.Builder
		for k := 0; k < len(digits); k++ {
			b.WriteByte(digits[k])
			if k+2 < len(digits) && r.IntN(3) == 0 { // wrap the next digit
				p := pairs[r.IntN(len(pairs))]
				b.WriteString(p[0] + digits[k+1:k+2] + p[1])
				k++
			} else if k+1 < len(digits) && r.IntN(4) == 0 {
				b.WriteString("<!-- -->")
			}
		}
		wantWhole(t, b.String(), v)
	}
}

// TestFoldedSpansReplace replaces every number by its span, as the gateway
// does with ungrounded ones: nothing a reader sees as a digit may be left.
func TestFoldedSpansReplace(t *testing.T) {
	for _, tc := range foldCases {
		ns := Extract(tc.in)
		s := tc.in
		for k := len(ns) - 1; k >= 0; k-- {
			s = s[:ns[k].Start] + "#" + s[ns[k].End:]
		}
		for _, n := range Extract(s) {
			t.Errorf("%s/%s: %q left %q after replacing the spans", tc.group, tc.name, s, n.Text)
		}
	}
}

func TestFoldedSources(t *testing.T) {
	ix := NewIndex([]Source{
		{Kind: Tool, Name: "report", Content: "売上：２１，９５６．６２円\n注文：９４１"},
		{Kind: Tool, Name: "json", Content: `{"summary":"ricavi ٧٬١٢٠٫٤٠ €","ratio":"4.8e-1"}`},
		{Kind: User, Content: "Crescita del ５０％?"},
	})
	for _, tc := range []struct{ answer, want string }{
		{"Il fatturato è 21.956,62 € con 941 ordini.", "=,="},
		{"Revenue ２１９５６.６２", "="},
		{"Revenue 21\u200b956.62", "="},
		{"Gennaio 7120,40 €", "="},
		{"Quota 48%", "="},
		{"Crescita del 50%", "="},
		{"Revenue ２１９５７.６２", "-"},
	} {
		var got []string
		for _, n := range ix.Check(tc.answer, Options{}) {
			if n.Grounded {
				got = append(got, "=")
			} else {
				got = append(got, "-")
			}
		}
		if strings.Join(got, ",") != tc.want {
			t.Errorf("%q: got %v, want %s", tc.answer, got, tc.want)
		}
	}
}

func TestFractionReading(t *testing.T) {
	for _, tc := range []struct {
		v        float64
		dec, sig int
	}{{0.5, 1, 1}, {0.25, 2, 2}, {0.125, 3, 3}, {1.0 / 3, 2, 2}, {2.5, 1, 2}, {2.0 / 3, 2, 2}} {
		r := fractionReading(tc.v)
		if r.dec != tc.dec || r.sig != tc.sig || math.Abs(r.mant-tc.v) > 1e-12 {
			t.Errorf("fractionReading(%v) = %+v, want dec %d sig %d", tc.v, r, tc.dec, tc.sig)
		}
	}
}
