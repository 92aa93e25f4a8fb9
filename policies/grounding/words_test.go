package grounding

import (
	"strings"
	"testing"
)

// wordCases are numbers written in words, and the prose words that must not
// become numbers.
var wordCases = []extractCase{
	// English.
	{"english", "tens and units", "about twenty-two thousand euros", []string{"twenty-two thousand euros=22000 EUR"}},
	{"english", "spaced", "Twenty two thousand orders", []string{"Twenty two thousand=22000"}},
	{"english", "hundred and", "one hundred and twenty-five tables", []string{"one hundred and twenty-five=125"}},
	{"english", "scales decrease", "two million five hundred thousand", []string{"two million five hundred thousand=2500000"}},
	{"english", "article before a scale", "a million visitors and a thousand orders", []string{"a million=1000000", "a thousand=1000"}},
	{"english", "half a million", "roughly half a million dollars", []string{"half a million dollars=500000 USD"}},
	{"english", "and a half", "one and a half million", []string{"one and a half million=1500000"}},
	{"english", "dozen", "a dozen tables, two dozen chairs", []string{"a dozen=12", "two dozen=24"}},
	{"english", "fraction", "a third of revenue, three quarters of the orders", []string{"a third=0.3333333333333333", "three quarters=0.75"}},
	{"english", "percent words", "twenty percent", []string{"twenty percent=20%"}},
	{"english", "over ten", "twelve months", []string{"twelve=12"}},
	// Italian.
	{"italian", "compound thousands", "circa ventiduemila euro", []string{"ventiduemila euro=22000 EUR"}},
	{"italian", "elided tens", "ventunomila o trentotto", []string{"ventunomila=21000", "trentotto=38"}},
	{"italian", "e after a scale", "duemila e cinque", []string{"duemila e cinque=2005"}},
	{"italian", "accented compound", "centoventitré coperti", []string{"centoventitré=123"}},
	{"italian", "mille", "millecinquecento euro", []string{"millecinquecento euro=1500 EUR"}},
	{"italian", "milioni e mezzo", "due milioni e mezzo di euro", []string{"due milioni e mezzo=2500000"}},
	{"italian", "mezzo milione", "mezzo milione", []string{"mezzo milione=500000"}},
	{"italian", "un milione e", "un milione e duecentomila", []string{"un milione e duecentomila=1200000"}},
	{"italian", "dozzina", "una dozzina di tavoli, mezza dozzina di sedie", []string{"una dozzina=12", "mezza dozzina=6"}},
	{"italian", "fractions", "tre quarti del fatturato e un terzo dei costi", []string{"tre quarti=0.75", "un terzo=0.3333333333333333"}},
	{"italian", "per cento", "il venti per cento", []string{"venti per cento=20%"}},
	{"italian", "small number with a currency", "cinque euro", []string{"cinque euro=5 EUR"}},
	{"italian", "range of words", "tra venti e trenta mila", []string{"venti=20000", "trenta mila=30000"}},
	// Multipliers after digits.
	{"scale", "migliaia", "21,96 migliaia di euro", []string{"21,96 migliaia di euro=21960 EUR"}},
	{"scale", "centesimi", "35 centesimi di ogni euro", []string{"35 centesimi=0.35"}},
	{"scale", "cents", "about 35 cents per dollar", []string{"35 cents=0.35"}},
	{"scale", "per cent is a percentage", "35 per cent", []string{"35 per cent=35%"}},
	// What is no quantity.
	{"prose", "counting words", "tre leve, two months, dieci giorni", nil},
	{"prose", "articles and one", "un cliente, a table, one of the best, uno dei migliori", nil},
	{"prose", "ordinals", "the third quarter, il terzo trimestre, a third option", nil},
	{"prose", "a quarter as a period", "revenue in a quarter", nil},
	{"prose", "vague plurals", "migliaia di clienti, thousands of orders, milioni di euro, hundreds", nil},
	{"prose", "half alone", "the second half of 2024, la metà dei tavoli", nil},
	{"prose", "verbs of ratio", "revenue doubled, tripled, è raddoppiato, twice as much", nil},
	{"prose", "italian verb sei", "sei sicuro? sette giorni", nil},
	{"code", "words in code", "`twenty-two thousand`", []string{"twenty-two thousand=22000"}},
	{"prose", "word inside a digit number", "22 mila e 3 milioni", []string{"22 mila=22000", "3 milioni=3000000"}},
}

func TestExtractWords(t *testing.T) { runExtractCases(t, wordCases) }

// TestWordPrecision checks that a number word is read at the precision of
// its digits: "ventiduemila" like "22 mila", "due milioni e mezzo" like
// "2,5 milioni".
func TestWordPrecision(t *testing.T) {
	ix := NewIndex([]Source{{Kind: Tool, Content: `{"revenue":21956.62,"visitors":2512345,"share":0.7512}`}})
	for _, tc := range []struct {
		answer string
		want   bool
	}{
		{"ventiduemila euro", true}, {"twenty-two thousand", true}, {"ventunomila euro", false},
		{"due milioni e mezzo", true}, {"two and a half million", true}, {"tre milioni", true}, {"quattro milioni", false},
		{"tre quarti", true}, {"two thirds of it", false}, {"half a million", false},
	} {
		ns := ix.Check(tc.answer, Options{})
		if len(ns) != 1 || ns[0].Grounded != tc.want {
			t.Errorf("%q: %+v, want grounded=%v", tc.answer, ns, tc.want)
		}
	}
}

func TestTableRowNumbers(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []string
	}{
		{"rank column", "| # | Piatto | Fatturato |\n|---|---|---:|\n| 1 | Tagliata | 2.068 € |\n| 2 | Branzino | 1.680 € |",
			[]string{"2.068 €=2068 EUR", "1.680 €=1680 EUR"}},
		{"first cell that does not count", "| Ordini | Mese |\n|---|---|\n| 941 | gennaio |\n| 12 | febbraio |",
			[]string{"941=941", "12=12"}},
		{"not a table", "| 1 | no separator row |", []string{"1=1"}},
		{"second table counts again", "|a|b|\n|-|-|\n| 1 | x |\n\n|a|b|\n|-|-|\n| 1 | y |\n| 3 | z |", []string{"3=3"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var shown []string
			for _, n := range Extract(tc.in) {
				shown = append(shown, show(n))
			}
			if strings.Join(shown, " | ") != strings.Join(tc.want, " | ") {
				t.Errorf("Extract(%q)\n got %q\nwant %q", tc.in, shown, tc.want)
			}
		})
	}
}
