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
	if dec > 2 {
		dec = 2
		intDigits = sig - 2
	}
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

// measureFalseGrounding checks invented numbers against the restaurant
// sources. busy answers also show ten true source numbers, which become
// visible operands; quiet answers show only the invented number.
func measureFalseGrounding(ix *Index, sig int, pct, busy bool, samples int) rates {
	r := rand.New(rand.NewPCG(uint64(sig), 7))
	prefix := ""
	if busy {
		prefix = "Fatturato 21956.62 €, food cost 7689.61 €, 941 ordini, ticket 23.33 €, food cost 35.02%, " +
			"margine 14267.01 €, gennaio 1989.86 €, febbraio 1779.63 €, 82 ordini, 64.98%. "
	}
	var out rates
	for i := 0; i < samples; i++ {
		ns := ix.Check(prefix+"Valore: "+invented(r, sig, pct)+".", derived)
		n := ns[len(ns)-1]
		out.n++
		switch {
		case n.Grounded && (n.Derivation == "" || strings.HasSuffix(n.Derivation, "as %") && !strings.Contains(n.Derivation, "/") || strings.HasSuffix(n.Derivation, "as ratio")):
			out.direct++
		case n.Grounded:
			out.derived++
		}
	}
	return out
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

// TestFalseGroundingRate measures how many invented numbers the checker
// grounds by chance (README.md reports the table). Derivations must ground
// fewer than 2% of invented numbers written with 4 or more significant digits.
func TestFalseGroundingRate(t *testing.T) {
	if testing.Short() {
		t.Skip("measurement")
	}
	samples := 4000
	if n := len(restaurantIndex.entries); n < 50 {
		t.Fatalf("restaurant source has %d numbers, want ≥ 50", n)
	}
	for _, busy := range []bool{false, true} {
		for _, pct := range []bool{false, true} {
			for sig := 2; sig <= 6; sig++ {
				if pct && sig > 4 {
					continue
				}
				r := measureFalseGrounding(restaurantIndex, sig, pct, busy, samples)
				t.Logf("busy=%-5v percent=%-5v sig=%d  %s", busy, pct, sig, r)
				if sig >= 4 && float64(r.derived) > 0.02*float64(r.n) {
					t.Errorf("busy=%v percent=%v sig=%d: derivations ground %d of %d invented numbers", busy, pct, sig, r.derived, r.n)
				}
			}
		}
	}
	t.Logf("large source: %d numbers, %d in the derivation pool", len(largeIndex.entries), len(largeIndex.pool.key))
	for sig := 2; sig <= 6; sig++ {
		t.Logf("large busy=true  percent=false sig=%d  %s", sig, measureFalseGrounding(largeIndex, sig, false, true, samples))
	}
}
