package grounding

import (
	"strconv"
	"strings"
	"testing"
)

// showReadings renders a token as "text=primary|alternative".
func showReadings(t token) string {
	var vs []string
	for r := 0; r < t.nreads; r++ {
		v := t.reads[r].mant * t.scale
		if t.neg {
			v = -v
		}
		vs = append(vs, strconv.FormatFloat(v, 'f', -1, 64))
	}
	return t.Text + "=" + strings.Join(vs, "|")
}

// readingCases list every reading of an ambiguous numeral ("1.234", "1,234"):
// the primary one first, then the alternative that is also tried when
// grounding. A separator that can only be a thousands separator leaves one.
var readingCases = []struct {
	name, in string
	want     []string
}{
	// Thousands only.
	{"dot next to euro after", "Il fatturato è 25.000 €.", []string{"25.000 €=25000"}},
	{"dot next to euro before", "€25.000", []string{"€25.000=25000"}},
	{"dot next to code before", "EUR 1.200 di margine", []string{"EUR 1.200=1200"}},
	{"dot next to code after", "1.234 USD", []string{"1.234 USD=1234"}},
	{"dot next to pound", "£1.234", []string{"£1.234=1234"}},
	{"dot next to word euro", "1.234 euro", []string{"1.234 euro=1234"}},
	{"comma next to dollar", "Revenue is $25,000", []string{"$25,000=25000"}},
	{"range shares the currency", "da 25.123 a 30.456 €", []string{"25.123=25123", "30.456 €=30456"}},
	{"italian words", "Il fatturato è 25.123.", []string{"25.123=25123"}},
	{"italian words mila", "tra 10 e 12.500 euro di incassi", []string{"10=10", "12.500 euro=12500"}},
	{"italian decimal elsewhere", "Fatturato 21.956,62 e ordini 1.234", []string{"21.956,62=21956.62", "1.234=1234"}},
	{"another .ddd group elsewhere", "1.234.567 visitatori, 25.123 ordini", []string{"1.234.567=1234567", "25.123=25123"}},
	{"english words", "the orders were 1,234 in total", []string{"1,234=1234"}},
	{"english decimal elsewhere", "Ratio 0.25 and 1,234 orders", []string{"0.25=0.25", "1,234=1234"}},
	{"three zeros", "25,000 units", []string{"25,000=25000"}},
	{"three zeros dot", "ordini: 25.000", []string{"25.000=25000"}},
	// Both readings, as before.
	{"comma next to euro", "1,234 €", []string{"1,234 €=1234|1.234"}},
	{"comma next to euro, italian words", "Il ticket è 23,330 €", []string{"23,330 €=23.33|23330"}},
	{"no evidence", "ordini: 1.234", []string{"1.234=1234|1.234"}},
	{"no evidence comma", "orders: 1,234", []string{"1,234=1234|1.234"}},
	{"italian decimal comma", "Quota 0,25 e 1,234 qui", []string{"0,25=0.25", "1,234=1.234|1234"}},
	{"english decimal dot", "Ratio 0.25 and 1.234 here", []string{"0.25=0.25", "1.234=1.234|1234"}},
	{"italian words decimal comma", "il tasso è 1,234", []string{"1,234=1.234|1234"}},
	{"english words decimal dot", "the ratio was 1.234", []string{"1.234=1.234|1234"}},
	{"currency against decimal evidence", "Gasolio 1,859 € al litro, benzina 1,95 €", []string{"1,859 €=1.859|1859", "1,95 €=1.95"}},
	// Unambiguous.
	{"two decimals", "35,02%", []string{"35,02%=35.02"}},
	{"english thousands", "$25,000.50", []string{"$25,000.50=25000.5"}},
}

func TestReadings(t *testing.T) {
	for _, tc := range readingCases {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, tok := range extract(tc.in) {
				got = append(got, showReadings(tok))
			}
			if strings.Join(got, " ; ") != strings.Join(tc.want, " ; ") {
				t.Errorf("extract(%q)\n got %q\nwant %q", tc.in, got, tc.want)
			}
		})
	}
}

// TestFastFloat checks the JSON number fast path against strconv.ParseFloat.
func TestFastFloat(t *testing.T) {
	for _, s := range []string{"0", "-0", "1", "21956.62", "-12.5", "0.1", "0.3502", "7120.40", "1.", "007",
		"123456789012345", "1234567890.12345", "0.00000000000001", "999999999999999", "-0.000"} {
		v, ok := fastFloat(s)
		want, err := strconv.ParseFloat(s, 64)
		if !ok || err != nil || v != want || (v == 0 && 1/v != 1/want) {
			t.Errorf("fastFloat(%q) = %v %v, ParseFloat %v %v", s, v, ok, want, err)
		}
	}
	for _, s := range []string{"", "-", ".5", "1e5", "1.2.3", "1234567890123456", "0.000000000000001", "1-2", "+1"} {
		if _, ok := fastFloat(s); ok {
			t.Errorf("fastFloat(%q) took the fast path", s)
		}
	}
}
