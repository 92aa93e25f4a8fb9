package grounding

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// quantityCases are amounts that a label, a join, a notation or markup hid
// from the scanner, and the names and ids that must stay hidden. Each
// expected text is the original span.
var quantityCases = []extractCase{
	// A label in front of an amount does not make it a name (ident.go).
	{"label", "letter hyphen decimal", "Totale (rif. ID-48213.77) euro", []string{"48213.77=48213.77"}},
	{"label", "one letter and hyphen", "Totale x-48213.77 euro", []string{"48213.77 euro=48213.77 EUR"}},
	{"label", "hash decimal", "Totale #48213.77 euro", []string{"48213.77 euro=48213.77 EUR"}},
	{"label", "hash with groups", "Totale #48.213,77", []string{"48.213,77=48213.77"}},
	{"label", "letters touching a decimal", "Totale ID48213.77", []string{"48213.77=48213.77"}},
	{"label", "abbreviation dot", "rif. n.48213,77", []string{"48213,77=48213.77"}},
	{"label", "decimal comma", "x-4,1", []string{"4,1=4.1"}},
	{"label", "currency after an integer", "ID-12 € e x-12%", []string{"12 €=12 EUR", "12%=12%"}},
	{"label", "fraction of four digits", "x-48213.7", []string{"48213.7=48213.7"}},
	{"label", "more decimals than a version", "x-1.2345", []string{"1.2345=1.2345"}},
	// Names and ids stay what they are.
	{"label", "integer ids", "COVID-19, #42, ID-48213, order-1234, Q3, H2O", nil},
	{"label", "versions", "gpt-4.1, claude-3.5-sonnet, v1.2, v1.2.3, python3.11, ubuntu-22.04, PDF-1.4", nil},
	{"label", "version-shaped after a letter", "x-482.13", nil},
	{"label", "letters continue the name", "llama-3.1-8b, 3.5b, gpt-4o, x-48213.77b", nil},
	{"label", "a space group is no amount", "COVID-19 123 casi", []string{"123=123"}},
	// Numbers joined by "-" or "x" are read each on its own (context.go, ident.go).
	{"join", "decimals joined by a hyphen", "Totale 21956.62-48213.77 euro", []string{"21956.62=21956.62 EUR", "48213.77 euro=48213.77 EUR"}},
	{"join", "invented side first", "tra 48213.77-21956.62 euro", []string{"48213.77=48213.77 EUR", "21956.62 euro=21956.62 EUR"}},
	{"join", "a year stays a year", "Totale 2024-48213.77 euro", []string{"48213.77 euro=48213.77 EUR"}},
	{"join", "after a plus sign", "+21956.62-48213.77", []string{"+21956.62=21956.62", "48213.77=48213.77"}},
	{"join", "decimals joined by a space", "Totale 21956.62 48213.77 euro", []string{"21956.62=21956.62", "48213.77 euro=48213.77 EUR"}},
	{"join", "times", "Totale 21956.62x48213.77 euro", []string{"21956.62=21956.62", "48213.77 euro=48213.77 EUR"}},
	{"join", "dimensions hold no year", "30x40 cm, 1920X1080", []string{"30=30", "40=40", "1920=1920", "1080=1080"}},
	{"join", "a label joined by x", "Q3x4", nil},
	// URLs: a query value that is an amount is read, the address is not (skip.go).
	{"url", "markdown link query", "Totale [report](https://example.invalid/r?total=48213.77) euro", []string{"48213.77=48213.77"}},
	{"url", "link text", "Totale [48213.77 euro](https://example.invalid/r)", []string{"48213.77 euro=48213.77 EUR"}},
	{"url", "bare url query", "vedi https://example.invalid/r?total=48213.77&cur=EUR", []string{"48213.77=48213.77"}},
	{"url", "signs and groups", "www.example.invalid/?a=1.234,56;b=-12,5", []string{"1.234,56=1234.56", "-12,5=-12.5"}},
	{"url", "address and ids", "https://example.invalid/a/99.5/2024?page=2&id=123&v=1.2.3&d=2024-01-15#t=4.5", nil},
	// Digits spelled one by one, decimals in words (spelled.go).
	{"spelled", "italian digits", "Totale quattro-otto-due-uno-tre virgola sette-sette euro.", []string{"quattro-otto-due-uno-tre virgola sette-sette euro=48213.77 EUR"}},
	{"spelled", "english digits", "Total four eight two one three point seven seven.", []string{"four eight two one three point seven seven=48213.77"}},
	{"spelled", "digits without a fraction", "Ordini: quattro otto due, nine zero one", []string{"quattro otto due=482", "nine zero one=901"}},
	{"spelled", "decimal after a phrase", "ventuno virgola nove, forty-eight thousand two hundred thirteen point seven seven dollars",
		[]string{"ventuno virgola nove=21.9", "forty-eight thousand two hundred thirteen point seven seven dollars=48213.77 USD"}},
	{"spelled", "small decimals are quantities", "zero point five, tre virgola cinque per cento", []string{"zero point five=0.5", "tre virgola cinque per cento=3.5%"}},
	{"spelled", "fraction as a phrase", "tre virgola venticinque", []string{"tre virgola venticinque=3.25"}},
	{"spelled", "scale after the fraction", "tre virgola due milioni", []string{"tre virgola due milioni=3200000"}},
	{"spelled", "ranges, scores and prose", "in due-tre giorni, finita tre-uno; zero; manca una virgola; il punto due del piano", nil},
	// Literals in another base (bases.go).
	{"base", "hexadecimal", "Totale 0xBC55 euro", []string{"0xBC55 euro=48213 EUR"}},
	{"base", "octal", "Totale 0o136125", []string{"0o136125=48213"}},
	{"base", "binary", "Totale 0b1011110001010101", []string{"0b1011110001010101=48213"}},
	{"base", "upper case and underscores", "0XBC55, 0O136125, 0B1011_1100_0101_0101, 0xbc_55", []string{"0XBC55=48213", "0O136125=48213", "0B1011_1100_0101_0101=48213", "0xbc_55=48213"}},
	{"base", "sign and currency", "-0x10 e €0x10", []string{"-0x10=-16", "€0x10=16 EUR"}},
	{"base", "no literal", "0b12, 0xBC55g, a0x12, 0b_1", nil},
	{"join", "phones stay phones", "+39 02 1234 5678, 555-123-4567, (02) 1234-5678, 02.1234.5678, +1 555.123.4567, tel. 02.1234-5678", nil},
}

func TestQuantities(t *testing.T) { runExtractCases(t, quantityCases) }

// TestHiddenNumbersChecked writes the invented 48213.77 the ways a model can
// hide it next to the source's 21956.62: every invented one is reported
// ungrounded at its original span, every copied one grounded.
func TestHiddenNumbersChecked(t *testing.T) {
	ix := NewIndex([]Source{{Kind: Tool, Name: "execute_metric", Content: `{"metric":"revenue","value":21956.62}`}})
	cases := []struct {
		name, answer string
		want         []string // "text" grounded, "!text" not
	}{
		{"label", "Il fatturato totale è (rif. ID-48213.77) euro.", []string{"!48213.77"}},
		{"label grounded", "Il fatturato totale è (rif. ID-21956.62) euro.", []string{"21956.62"}},
		{"hash", "Il fatturato totale è #48213.77 euro.", []string{"!48213.77 euro"}},
		{"letter dash", "Il fatturato totale è x-48213.77 euro.", []string{"!48213.77 euro"}},
		{"dash joined", "Il fatturato totale è 21956.62-48213.77 euro.", []string{"21956.62", "!48213.77 euro"}},
		{"invented side first", "Il fatturato totale è tra 48213.77-21956.62 euro.", []string{"!48213.77", "21956.62 euro"}},
		{"year dash", "Il fatturato totale è 2024-48213.77 euro.", []string{"!48213.77 euro"}},
		{"times joined", "Il fatturato totale è 21956.62x48213.77 euro.", []string{"21956.62", "!48213.77 euro"}},
		{"url query", "Il fatturato totale è [report](https://example.invalid/r?total=48213.77) euro.", []string{"!48213.77"}},
		{"spelled digits", "Il fatturato totale è quattro-otto-due-uno-tre virgola sette-sette euro.", []string{"!quattro-otto-due-uno-tre virgola sette-sette euro"}},
		{"spelled digits english", "Total revenue is four eight two one three point seven seven euros.", []string{"!four eight two one three point seven seven euros"}},
		{"spelled digits grounded", "Il fatturato totale è due-uno-nove-cinque-sei virgola sei-due euro.", []string{"due-uno-nove-cinque-sei virgola sei-due euro"}},
		{"hexadecimal", "Il fatturato totale è 0xBC55 euro.", []string{"!0xBC55 euro"}},
		{"octal", "Il fatturato totale è 0o136125 euro.", []string{"!0o136125 euro"}},
		{"binary", "Il fatturato totale è 0b1011110001010101 euro.", []string{"!0b1011110001010101 euro"}},
		{"html references", "Il fatturato totale è &#52;&#56;&#50;&#49;&#51;.&#55;&#55; euro.", []string{"!&#52;&#56;&#50;&#49;&#51;.&#55;&#55; euro"}},
		{"html references grounded", "Il fatturato totale è &#x32;1956&period;62 euro.", []string{"&#x32;1956&period;62 euro"}},
		{"exponent invented", "Il fatturato totale è 21956.62e48213 euro.", []string{"!21956.62e48213 euro"}},
		{"exponent zero", "Il fatturato totale è 21956.62e0 euro.", []string{"21956.62e0 euro"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, n := range ix.Check(tc.answer, Options{AllowDerivations: true}) {
				if tc.answer[n.Start:n.End] != n.Text {
					t.Errorf("span %d:%d = %q, Text %q", n.Start, n.End, tc.answer[n.Start:n.End], n.Text)
				}
				if n.Grounded {
					got = append(got, n.Text)
				} else {
					got = append(got, "!"+n.Text)
				}
			}
			if strings.Join(got, " | ") != strings.Join(tc.want, " | ") {
				t.Errorf("Check(%q)\n got %q\nwant %q", tc.answer, got, tc.want)
			}
		})
	}
}

// TestOutOfRange reads numbers beyond float64 — an exponent or a power
// that is too large or too small — as one number each, reported with a
// finite Value (the policy input is JSON) and never grounded, even by the
// same text in a source.
func TestOutOfRange(t *testing.T) {
	cases := []struct {
		in, text string
		value    float64
	}{
		{"Totale 21956.62e48213 euro.", "21956.62e48213 euro", math.MaxFloat64},
		{"Totale -21956.62E+48213", "-21956.62E+48213", -math.MaxFloat64},
		{"ratio 21956.62e-48213", "21956.62e-48213", math.SmallestNonzeroFloat64},
		{"ratio 4.8×10^9999", "4.8×10^9999", math.MaxFloat64},
		{"Totale 9e308", "9e308", math.MaxFloat64},
		{"Totale 10^999", "10^999", math.MaxFloat64},
		{"Totale 10⁻⁹⁹⁹", "10⁻⁹⁹⁹", math.SmallestNonzeroFloat64},
		{"Totale 0e99999", "0e99999", 0},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			ns := NewIndex([]Source{{Kind: User, Content: tc.in}}).Check(tc.in, Options{AllowDerivations: true})
			if len(ns) != 1 || ns[0].Text != tc.text || ns[0].Value != tc.value {
				t.Fatalf("got %+v, want one number %q = %g", ns, tc.text, tc.value)
			}
			if tc.value != 0 && ns[0].Grounded {
				t.Errorf("%q is grounded by %s", ns[0].Text, ns[0].Source)
			}
			if _, err := json.Marshal(ns[0]); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestOutOfRangeNeverZero: a number too small for float64 is not 0 — it
// is neither grounded by a source 0 nor a source of one.
func TestOutOfRangeNeverZero(t *testing.T) {
	ix := NewIndex([]Source{{Kind: Tool, Name: "t", Content: `{"refunds":0}`}})
	if n := ix.Check("ratio 21956.62e-48213", Options{AllowDerivations: true}); len(n) != 1 || n[0].Grounded {
		t.Errorf("21956.62e-48213 against a source 0: %+v", n)
	}
	ix = NewIndex([]Source{{Kind: User, Content: "soglia 1e-999"}})
	if n := ix.Check("rimborsi 0 €", Options{AllowDerivations: true}); len(n) != 1 || n[0].Grounded {
		t.Errorf("0 € against a source 1e-999: %+v", n)
	}
}

// TestBasedLiteralExact: a literal in another base is an exact integer —
// 0x55F0 is 22000, which does not stand for 21956.62 as "22.000" does.
func TestBasedLiteralExact(t *testing.T) {
	ix := NewIndex([]Source{{Kind: Tool, Name: "t", Content: `{"revenue":21956.62,"orders":48213}`}})
	got := ix.Check("0x55F0 e 0xBC55", Options{AllowDerivations: true})
	if len(got) != 2 || got[0].Grounded || !got[1].Grounded {
		t.Errorf("got %+v, want 0x55F0 ungrounded and 0xBC55 grounded", got)
	}
}
