package grounding

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// restaurantJSON is a realistic aggregate_group result for seed 002: twelve
// months of revenue, food cost, orders and ticket, plus the summary — 55
// numbers in all.
func restaurantJSON(seed uint64) string {
	r := rand.New(rand.NewPCG(seed, 2))
	var b strings.Builder
	b.WriteString(`{"group_by":"month","rows":[`)
	for m := 1; m <= 12; m++ {
		orders := 60 + r.IntN(40)
		ticket := 21 + r.Float64()*5
		rev := float64(orders) * ticket
		fc := rev * (0.32 + r.Float64()*0.06)
		if m > 1 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"month":"2024-%02d","revenue":%.2f,"food_cost":%.2f,"orders":%d,"ticket_medio":%.2f}`, m, rev, fc, orders, ticket)
	}
	b.WriteString(`],"summary":{"revenue":21956.62,"food_cost":7689.61,"order_count":941,"ticket_medio":23.33,` +
		`"food_cost_percent":35.02,"gross_margin":14267.01,"gross_margin_percent":64.98}}`)
	return b.String()
}

// invented returns a random number written with sig significant digits, as
// money (1 to 99 999) or as a percentage (0.1 to 99.9).
func invented(r *rand.Rand, sig int, pct bool) string {
	m := int64(r.IntN(9*pow10i(sig-1))) + int64(pow10i(sig-1))
	intDigits := 1 + r.IntN(5)
	if pct {
		intDigits = 1 + r.IntN(2)
	}
	dec := sig - intDigits
	dec = min(dec, 2)
	var s string
	if dec >= 0 {
		s = strconv.FormatFloat(float64(m)/pow10(dec), 'f', dec, 64)
	} else {
		s = strconv.FormatInt(m, 10) + strings.Repeat("0", -dec)
	}
	if pct {
		return s + "%"
	}
	return s + " €"
}

func pow10i(n int) int {
	p := 1
	for ; n > 0; n-- {
		p *= 10
	}
	return p
}

type rates struct{ direct, derived, n int }

func (r rates) String() string {
	return fmt.Sprintf("direct %5.2f%%  derived %5.2f%%", 100*float64(r.direct)/float64(r.n), 100*float64(r.derived)/float64(r.n))
}

const busyPrefix = "Fatturato 21956.62 €, food cost 7689.61 €, 941 ordini, ticket 23.33 €, food cost 35.02%, " +
	"margine 14267.01 €, gennaio 1989.86 €, febbraio 1779.63 €, 82 ordini, 64.98%. "

// measureScenario checks invented numbers written into answer(inv); the
// invented number must be the answer's last number.
func measureScenario(ix *Index, opt Options, answer func(string) string, sig int, pct bool, samples int) rates {
	r := rand.New(rand.NewPCG(uint64(sig), 7))
	var out rates
	for i := 0; i < samples; i++ {
		out.add(ix.Check(answer(invented(r, sig, pct)), opt))
	}
	return out
}

func (r *rates) add(ns []Number) {
	n := ns[len(ns)-1]
	r.n++
	switch {
	case n.Grounded && (n.Derivation == "" || strings.HasSuffix(n.Derivation, "as %") && !strings.Contains(n.Derivation, "/") || strings.HasSuffix(n.Derivation, "as ratio")):
		r.direct++
	case n.Grounded:
		r.derived++
	}
}

var restaurantIndex = NewIndex([]Source{
	{Kind: Tool, Name: "aggregate_group", Content: restaurantJSON(2)},
	{Kind: User, Content: "Quanto fatturato serve per crescere del 50%?"},
})

// largeIndex fills the derivation pool: four results, about 220 numbers.
var largeIndex = NewIndex([]Source{
	{Kind: Tool, Name: "aggregate_group", Content: restaurantJSON(2)},
	{Kind: Tool, Name: "aggregate_group", Content: restaurantJSON(3)},
	{Kind: Tool, Name: "aggregate_group", Content: restaurantJSON(4)},
	{Kind: Tool, Name: "aggregate_group", Content: restaurantJSON(5)},
	{Kind: User, Content: "Quanto fatturato serve per crescere del 50%?"},
})

// compareIndex is a small source: one compare_periods result and the
// question, five numbers — the whole pool is an operand set of the
// low-precision tier.
var compareIndex = NewIndex([]Source{
	{Kind: Tool, Name: "compare_periods", Content: `{"metric":"revenue","periodA":{"from":"2024-01-01","value":7120.40},` +
		`"periodB":{"from":"2024-02-01","value":7310.75},"delta":190.35,"deltaPercent":2.67}`},
	{Kind: User, Content: "Confronta il fatturato di gennaio e febbraio"},
})

// restaurantNames names the restaurant quantities as an answer would.
var restaurantNames = NewNames(map[string][]string{
	"revenue": {"fatturato"}, "food_cost": {"food cost"}, "orders": {"ordini"}, "ticket_medio": {"ticket medio"},
})

// scenario is one row group of the false-grounding table: a source, the
// answer an invented number is written into, and the options.
type scenario struct {
	name   string
	ix     *Index
	opt    Options
	answer func(inv string) string
	pct    bool // percentages are measured too
	tier   string
}

func scenarios() []scenario {
	at := func(prefix string) func(string) string {
		return func(inv string) string { return prefix + inv + "." }
	}
	named := Options{AllowDerivations: true, Names: restaurantNames}
	return []scenario{
		{"quiet", restaurantIndex, derived, at("Valore: "), true, "existing tiers"},
		{"busy", restaurantIndex, derived, at(busyPrefix + "Valore: "), true, "existing tiers"},
		{"large busy", largeIndex, derived, at(busyPrefix + "Valore: "), false, "existing tiers, pool nearly full"},
		{"same sentence", restaurantIndex, derived, at("Gennaio 1989.86 € e febbraio 1779.63 €, valore "), true, "low precision: sentence, paragraph"},
		{"small source quiet", compareIndex, derived, at("Valore: "), true, "low precision: small pool"},
		{"small source busy", compareIndex, derived, at("Da 7120.40 € a 7310.75 €, cioè +190.35 €: valore "), true, "low precision: sentence + small pool"},
		{"named", restaurantIndex, named, at("Fatturato, food cost, ordini e ticket medio per mese sono nel report. Valore: "), true, "named operands"},
		{"named busy", restaurantIndex, named, at(busyPrefix + "Con fatturato, food cost, ordini e ticket medio, valore: "), true, "named operands + shown"},
		{"total cue", restaurantIndex, derived, at("In totale, sommando i mesi, il valore è "), false, "group totals"},
	}
}

// TestFalseGroundingRate measures how many invented numbers the checker
// grounds by chance (README.md reports the table). Derivations must ground
// fewer than 2% of invented numbers written with 4 or more significant
// digits, in every scenario.
func TestFalseGroundingRate(t *testing.T) {
	if testing.Short() || raceDetector {
		t.Skip("measurement: runs without -short and -race")
	}
	if n := len(restaurantIndex.entries); n < 50 {
		t.Fatalf("restaurant source has %d numbers, want ≥ 50", n)
	}
	t.Logf("large source: %d numbers, %d in the derivation pool; small source: %d numbers",
		len(largeIndex.entries), len(largeIndex.pool.key), len(compareIndex.entries))
	for _, sc := range scenarios() {
		samples := 4000
		if sc.tier != "existing tiers" {
			samples = 2000
		}
		for _, pct := range []bool{false, true} {
			if pct && !sc.pct {
				continue
			}
			for sig := 2; sig <= 6; sig++ {
				if pct && sig > 4 {
					continue
				}
				r := measureScenario(sc.ix, sc.opt, sc.answer, sig, pct, samples)
				t.Logf("%-18s percent=%-5v sig=%d  %s", sc.name, pct, sig, r)
				if sig >= 4 && float64(r.derived) > 0.02*float64(r.n) {
					t.Errorf("%s percent=%v sig=%d: derivations ground %d of %d invented numbers", sc.name, pct, sig, r.derived, r.n)
				}
			}
		}
	}
}

// TestFalseGroundingWords measures invented numbers written in words
// against the same numbers in digits: a number word is read at the
// precision of its digits, so both are grounded by chance equally often.
func TestFalseGroundingWords(t *testing.T) {
	if testing.Short() {
		t.Skip("measurement")
	}
	r := rand.New(rand.NewPCG(3, 9))
	var digits, words rates
	for i := 0; i < 2000; i++ {
		n := 10 + r.IntN(90)
		digits.add(restaurantIndex.Check("Valore: "+strconv.Itoa(n)+" mila euro.", derived))
		words.add(restaurantIndex.Check("Valore: "+englishTens(n)+" thousand euros.", derived))
	}
	t.Logf("2 significant digits, thousands: digits %s; words %s", digits, words)
	if digits != words {
		t.Errorf("words and digits differ: %s vs %s", words, digits)
	}
}

// englishTens writes 10–99 in English words.
func englishTens(n int) string {
	teens := [...]string{"ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"}
	tens := [...]string{"", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"}
	units := [...]string{"", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"}
	switch {
	case n < 20:
		return teens[n-10]
	case n%10 == 0:
		return tens[n/10]
	}
	return tens[n/10] + "-" + units[n%10]
}
