package grounding

import (
	"strconv"
	"strings"
	"testing"
)

// show renders an extracted number as "text=value[%][ CUR]".
func show(n Number) string {
	s := n.Text + "=" + strconv.FormatFloat(n.Value, 'f', -1, 64)
	if n.Percent {
		s += "%"
	}
	if n.Currency != "" {
		s += " " + n.Currency
	}
	return s
}

var extractCases = []extractCase{
	// Formats: separators, spaces, apostrophes.
	{"format", "plain decimal", "Revenue 21956.62 today", []string{"21956.62=21956.62"}},
	{"format", "english thousands", "Revenue 21,956.62", []string{"21,956.62=21956.62"}},
	{"format", "italian thousands", "Fatturato 21.956,62", []string{"21.956,62=21956.62"}},
	{"format", "space thousands", "Fatturato 21 956,62 e 1 913 ordini", []string{"21 956,62=21956.62", "1 913=1913"}},
	{"format", "nbsp thousands", "Fatturato 21\u00a0956,62", []string{"21\u00a0956,62=21956.62"}},
	{"format", "narrow nbsp thousands", "Fatturato 21\u202f956,62", []string{"21\u202f956,62=21956.62"}},
	{"format", "swiss apostrophe", "Total 1'234.50 CHF", []string{"1'234.50 CHF=1234.5 CHF"}},
	{"format", "typographic apostrophe", "Total 1’234.50", []string{"1’234.50=1234.5"}},
	{"format", "italian decimal", "food cost del 35,02%", []string{"35,02%=35.02%"}},
	{"format", "millions italian", "1.234.567 clienti", []string{"1.234.567=1234567"}},
	{"format", "millions english", "1,234,567 customers", []string{"1,234,567=1234567"}},
	{"format", "ambiguous dot, no style", "ordini: 1.234", []string{"1.234=1234"}},
	{"format", "ambiguous dot, english text", "Ratio 0.25 and 1.234 here", []string{"0.25=0.25", "1.234=1.234"}},
	{"format", "ambiguous comma, italian text", "Quota 0,25 e 1,234 qui", []string{"0,25=0.25", "1,234=1.234"}},
	{"format", "ambiguous comma, no style", "we had 1,234 orders", []string{"1,234=1234"}},
	{"format", "leading zero is decimal", "share 0,250", []string{"0,250=0.25"}},
	{"format", "space not a group", "in 12 mesi 2 volte", []string{"12=12", "2=2"}},
	{"format", "space after 4 digits", "nel 2023 941 ordini", []string{"941=941"}},
	// Currencies before and after.
	{"currency", "euro after with space", "21.956,62 €", []string{"21.956,62 €=21956.62 EUR"}},
	{"currency", "euro after attached", "23,33€", []string{"23,33€=23.33 EUR"}},
	{"currency", "euro before", "€21,956.62", []string{"€21,956.62=21956.62 EUR"}},
	{"currency", "euro before with space", "€ 21.956,62", []string{"€ 21.956,62=21956.62 EUR"}},
	{"currency", "dollar", "$1,200.50 and 10 $", []string{"$1,200.50=1200.5 USD", "10 $=10 USD"}},
	{"currency", "pound", "£99.99", []string{"£99.99=99.99 GBP"}},
	{"currency", "code before", "EUR 1.200,00", []string{"EUR 1.200,00=1200 EUR"}},
	{"currency", "code after", "1200 USD", []string{"1200 USD=1200 USD"}},
	{"currency", "code attached", "EUR21", []string{"EUR21=21 EUR"}},
	{"currency", "word euro", "32.934,93 euro", []string{"32.934,93 euro=32934.93 EUR"}},
	// Signs.
	{"sign", "minus", "delta -12.5%", []string{"-12.5%=-12.5%"}},
	{"sign", "unicode minus", "calo del −12,5%", []string{"−12,5%=-12.5%"}},
	{"sign", "en dash sign", "variazione –3,2%", []string{"–3,2%=-3.2%"}},
	{"sign", "plus", "crescita +50%", []string{"+50%=50%"}},
	{"sign", "sign before currency", "-€5 and €-7", []string{"-€5=-5 EUR", "€-7=-7 EUR"}},
	{"sign", "hyphen in word is no sign", "COVID-19 cost 5,5%", []string{"5,5%=5.5%"}},
	// Scales.
	{"scale", "M with dollar", "$1.2M", []string{"$1.2M=1200000 USD"}},
	{"scale", "m with dollar", "$1.2m", []string{"$1.2m=1200000 USD"}},
	{"scale", "k", "22k ordini, 22K", []string{"22k=22000", "22K=22000"}},
	{"scale", "mln", "3,5 mln €", []string{"3,5 mln €=3500000 EUR"}},
	{"scale", "mld", "2 mld", []string{"2 mld=2000000000"}},
	{"scale", "mila", "22 mila coperti", []string{"22 mila=22000"}},
	{"scale", "milioni di euro", "1,2 milioni di euro", []string{"1,2 milioni di euro=1200000 EUR"}},
	{"scale", "million", "4.5 million users", []string{"4.5 million=4500000"}},
	{"scale", "billion", "$3 billion", []string{"$3 billion=3000000000 USD"}},
	{"scale", "thousand", "12 thousand", []string{"12 thousand=12000"}},
	{"scale", "metre is no million", "5 m", []string{"5=5"}},
	// Percent words.
	{"percent", "per cent", "35 per cent", []string{"35 per cent=35%"}},
	{"percent", "percent", "35.02 percent", []string{"35.02 percent=35.02%"}},
	{"percent", "per cento", "35 per cento", []string{"35 per cento=35%"}},
	{"percent", "spaced sign", "35,02 %", []string{"35,02 %=35.02%"}},
	// List markers and headings.
	{"marker", "numbered list", "1. Volume\n2. Prezzo\n3) Mix", nil},
	{"marker", "markdown bold list", "1. **Volume**: aumentare gli ordini", nil},
	{"marker", "dash marker", "3 - Mix prodotti", nil},
	{"marker", "heading number", "## 2. Results\n### 2.1 Details", nil},
	{"marker", "value after marker", "1. Fatturato: 21.956,62 €", []string{"21.956,62 €=21956.62 EUR"}},
	{"marker", "mid-line number kept", "Step one. 3) is fine 4.", []string{"3=3", "4=4"}},
	{"marker", "indented list", "  10. voce", nil},
	// Dates and times.
	{"date", "iso", "il 2024-01-15 alle 12:30", nil},
	{"date", "slashes", "15/01/2024 e 1/2/24", nil},
	{"date", "dots", "15.01.2024", nil},
	{"date", "month name it", "15 gennaio 2024", nil},
	{"date", "month name en", "January 15, 2024 and 3 Mar", nil},
	{"date", "year alone", "nel 2024 e nel 1999", nil},
	{"date", "year-month", "2024-03 e 03/2024", nil},
	{"date", "time with seconds", "12:30:45", nil},
	{"date", "year with currency is money", "2024 €", []string{"2024 €=2024 EUR"}},
	// Ordinals.
	{"ordinal", "english", "1st, 2nd, 3rd, 4th", nil},
	{"ordinal", "italian", "3° posto, 1ª volta, 2º", nil},
	{"ordinal", "temperature is a quantity", "25°C", []string{"25°C=25"}},
	// Ranges.
	{"range", "hyphen", "10-20 coperti", []string{"10=10", "20=20"}},
	{"range", "en dash percent", "10–20%", []string{"10=10%", "20%=20%"}},
	{"range", "from to", "from 10 to 20", []string{"10=10", "20=20"}},
	{"range", "tra e mila", "tra 10 e 20 mila", []string{"10=10000", "20 mila=20000"}},
	{"range", "currency shared", "€10-20", []string{"€10=10 EUR", "20=20 EUR"}},
	// Identifiers, code, URLs, phones.
	{"ident", "model names", "gpt-4o and H2O", nil},
	{"ident", "version", "v1.2.3 and 1.2.3", nil},
	{"ident", "order id is checked", "order_id 123", []string{"123=123"}},
	{"ident", "hash", "issue #42", nil},
	// Code formatting hides nothing: a reader sees the number in a code span or block.
	{"code", "code span", "set `limit = 50` now", []string{"50=50"}},
	{"code", "a lone amount in backticks", "Il fatturato è `48213.77` €.", []string{"48213.77=48213.77"}},
	{"code", "fenced code", "```\nx = 21956.62\n```", []string{"21956.62=21956.62"}},
	{"code", "fenced prose", "```text\nFatturato: 48.213,77 €\n```", []string{"48.213,77 €=48213.77 EUR"}},
	{"code", "identifiers stay identifiers", "`gpt-4o` and ```python3.11\nv1.2.3\n```", nil},
	{"ident", "url", "see https://example.com/a/2024/99?x=5 now", nil},
	{"ident", "email", "mail luca.rossi99@example.com", nil},
	{"ident", "phone intl", "chiama +39 02 1234 5678", nil},
	{"ident", "phone us", "call 555-123-4567", nil},
	{"ident", "phone word", "tel. 3331234567", nil},
	{"ident", "ip address", "host 192.168.1.1", nil},
	{"ident", "units", "2x faster, 5kg, 3 h", []string{"2x=2", "5kg=5", "3=3"}},
	// Italian prose.
	{"prose", "seed answer", "Il fatturato totale è di 21.956,62 €, con un food cost del 35,02%.", []string{"21.956,62 €=21956.62 EUR", "35,02%=35.02%"}},
	{"prose", "sentence end", "Gli ordini sono 941. Il ticket medio è 23,33 €.", []string{"941=941", "23,33 €=23.33 EUR"}},
	{"prose", "comma list", "valori 10, 20 e 30", []string{"10=10", "20=20", "30=30"}},
}

func TestExtract(t *testing.T) { runExtractCases(t, extractCases) }

// extractCase is a text and the numbers Extract must read in it, shown as
// "span=value [unit]" (show), in order.
type extractCase struct {
	group, name, in string
	want            []string
}

// runExtractCases runs a table of extractCases: each number's span must be
// its Text, and the numbers shown must be the wanted ones.
func runExtractCases(t *testing.T, cases []extractCase) {
	for _, tc := range cases {
		t.Run(tc.group+"/"+tc.name, func(t *testing.T) {
			var shown []string
			for _, n := range Extract(tc.in) {
				shown = append(shown, show(n))
				if tc.in[n.Start:n.End] != n.Text {
					t.Errorf("span %d:%d = %q, Text %q", n.Start, n.End, tc.in[n.Start:n.End], n.Text)
				}
			}
			if strings.Join(shown, " | ") != strings.Join(tc.want, " | ") {
				t.Errorf("Extract(%q)\n got %q\nwant %q", tc.in, shown, tc.want)
			}
		})
	}
}

func TestExtractDecimalsAndTrivial(t *testing.T) {
	ns := Extract("3 leve, 23,30 €, 22k, 1,2 mln")
	want := []struct {
		dec     int
		trivial bool
	}{{0, true}, {2, false}, {0, false}, {1, false}}
	if len(ns) != len(want) {
		t.Fatalf("got %d numbers, want %d", len(ns), len(want))
	}
	for i, w := range want {
		if ns[i].Decimals != w.dec || ns[i].Trivial != w.trivial {
			t.Errorf("%q: decimals %d trivial %v, want %d %v", ns[i].Text, ns[i].Decimals, ns[i].Trivial, w.dec, w.trivial)
		}
	}
}
