package grounding

import (
	"fmt"
	"strings"
	"testing"
)

// Sources of the low-precision tier, named operands and group totals.
var (
	// compareOrders is one compare_periods result: four numbers.
	compareOrders = NewIndex([]Source{
		{Kind: Tool, Name: "compare_periods", Content: `{"metric":"order_count","periodA":{"value":221},"periodB":{"value":160},"delta":-61,"deltaPercent":-27.6}`},
	})
	// monthsIndex lists the orders of five months (an aggregate_group result).
	monthsIndex = NewIndex([]Source{
		{Kind: Tool, Name: "aggregate_group", Content: `{"metric":"order_count","groups":[{"month":"2025-01","value":189},{"month":"2025-02","value":183},` +
			`{"month":"2025-03","value":221},{"month":"2025-04","value":160},{"month":"2025-05","value":188}]}`},
	})
	// yearsIndex is a trade result by year: amounts and counts.
	yearsIndex = NewIndex([]Source{
		{Kind: Tool, Name: "query_data", Content: `{"type":"trend","matchedRecords":80,"groups":[{"year":"2023","sum_totalValueUSD":10434773.5,"count_declarationNumber":22},` +
			`{"year":"2024","sum_totalValueUSD":32178875.0,"count_declarationNumber":58}]}`},
	})
	// metricsIndex has three execute_metric results and a large aggregate
	// of other quantities, so that the pool is too large for the
	// low-precision tier.
	metricsIndex = NewIndex([]Source{
		{Kind: Tool, Name: "execute_metric", Content: `{"metric":"food_cost","value":7689.61,"unit":"EUR"}`},
		{Kind: Tool, Name: "execute_metric", Content: `{"metric":"revenue","value":21956.62,"unit":"EUR"}`},
		{Kind: Tool, Name: "execute_metric", Content: `{"metric":"order_count","value":941}`},
		{Kind: Tool, Name: "aggregate_group", Content: staffJSON()},
	})
	restaurantWords = NewNames(map[string][]string{"revenue": {"fatturato", "ricavi"}, "food_cost": {"costo materie prime"}})
)

var localCases = []struct {
	group, name string
	ix          *Index
	opt         Options
	answer      string
	want        []want // only the numbers listed are checked, by text
}{
	// The low-precision tier: operands nearby, few steps from them.
	{"sparse", "ratio in the sentence", compareOrders, derived, "Aprile ha 160 ordini contro 221 a marzo, circa il 72%.",
		[]want{{"72%", "160 / 221 as %"}}},
	{"sparse", "ratio in the next sentence", compareOrders, derived, "Aprile ha 160 ordini contro i 221 di marzo: 61 in meno (-27,6%). In altre parole aprile vale circa il 72% di marzo.",
		[]want{{"72%", "160 / 221 as %"}}},
	{"sparse", "difference in the sentence", monthsIndex, derived, "Ordini: gennaio 189, febbraio 183.\n\nMarzo ha 221 ordini, 61 in più di aprile (160).",
		[]want{{"61", "221 − 160"}}},
	{"sparse", "too many steps in the sentence", monthsIndex, derived, "Ordini: gennaio 189, febbraio 183, marzo 221, aprile 160, maggio 188, e 61 in più.",
		[]want{{"61", "-"}}},
	{"sparse", "the list before the paragraph", yearsIndex, derived, "- 2023: $10.43M from 22 declarations\n- 2024: $32.18M from 58 declarations\n\nUp with 36 more declarations.",
		[]want{{"36", "58 − 22"}}},
	{"sparse", "small pool", yearsIndex, derived, "Import value grew about 3.08 times.", []want{{"3.08", "32178875 / 10434773.5"}}},
	{"sparse", "one digit is never derived", yearsIndex, derived, "- 2023: 22 declarations\n- 2024: 58 declarations\n\nThat is 4 more than in 2022.",
		[]want{{"4", "-"}}},
	{"sparse", "off by option", compareOrders, direct, "Aprile ha 160 ordini contro 221 a marzo, circa il 72%.", []want{{"72%", "-"}}},
	// Units: sums and differences only of numbers written in the same unit.
	{"unit", "money and a count", metricsIndex, derived, "Fatturato 21.956,62 € con 941 ordini: 22.898 €.", []want{{"22.898 €", "-"}}},
	{"unit", "same unit", metricsIndex, derived, "Fatturato 21.956,62 € e food cost 7.689,61 €: insieme 29.646 €.",
		[]want{{"29.646 €", "21956.62 + 7689.61"}}},
	{"unit", "ratio across units", metricsIndex, derived, "Con 941 ordini e 21.956,62 € di fatturato, il ticket medio è 23,33 €.",
		[]want{{"23,33 €", "21956.62 / 941"}}},
	{"percent", "a percentage over a count means nothing", compareOrders, derived, "Calo del 27,6% su 160 ordini: 17,25%.", []want{{"17,25%", "-"}}},
	// Named quantities.
	{"named", "ratio of named quantities", metricsIndex, Options{AllowDerivations: true, Names: restaurantWords},
		"Il costo materie prime incide per il 35,0% sul fatturato.", []want{{"35,0%", "7689.61 / 21956.62 as %"}}},
	{"named", "the quantity's own name", metricsIndex, Options{AllowDerivations: true, Names: restaurantWords},
		"Food cost / revenue: 35,0%.", []want{{"35,0%", "7689.61 / 21956.62 as %"}}},
	{"named", "not named", metricsIndex, derived, "Il costo materie prime incide per il 35,0% sul fatturato.", []want{{"35,0%", "-"}}},
	{"named", "named elsewhere", metricsIndex, Options{AllowDerivations: true, Names: restaurantWords},
		"Il fatturato è alto.\n\nAltro paragrafo.\n\nIl costo materie prime incide per il 35,0%.", []want{{"35,0%", "-"}}},
	// Totals of a listed group, when the sentence says so.
	{"total", "in totale", monthsIndex, derived, "Gennaio 189, febbraio 183, marzo 221, aprile 160, maggio 188. In totale gli ordini sono 941.",
		[]want{{"941", "Σ tool:aggregate_group $.groups[*].value (5 values)"}}},
	{"total", "combined", monthsIndex, derived, "Combined, the five months had 941 orders.", []want{{"941", "Σ tool:aggregate_group $.groups[*].value (5 values)"}}},
	{"total", "no cue", monthsIndex, derived, "Gli ordini sono 941.", []want{{"941", "-"}}},
	{"total", "wrong total", monthsIndex, derived, "In totale gli ordini sono 942.", []want{{"942", "-"}}},
	{"total", "off by option", monthsIndex, direct, "In totale gli ordini sono 941.", []want{{"941", "-"}}},
}

// staffJSON is an aggregate of quantities no answer here names: 36 numbers.
func staffJSON() string {
	var b strings.Builder
	b.WriteString(`{"metric":"staff","groups":[`)
	for m := 1; m <= 12; m++ {
		if m > 1 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"month":"2024-%02d","shifts":%d,"hours":%d.5,"tips":%d.25}`, m, 40+3*m, 300+17*m, 120+29*m)
	}
	b.WriteString(`]}`)
	return b.String()
}

func TestCheckLocal(t *testing.T) {
	for _, tc := range localCases {
		t.Run(tc.group+"/"+tc.name, func(t *testing.T) {
			got := map[string]Number{}
			for _, n := range tc.ix.Check(tc.answer, tc.opt) {
				got[n.Text] = n
			}
			for _, w := range tc.want {
				n, ok := got[w.text]
				if !ok {
					t.Fatalf("%q not found in %v", w.text, got)
				}
				res := "-"
				if n.Grounded {
					res = n.Derivation
				}
				if res != w.res {
					t.Errorf("%q: got %q (source %q), want %q", n.Text, res, n.Source, w.res)
				}
			}
		})
	}
}

// TestSparseBound checks the bound of the low-precision tier: wherever it
// grounds a number, fewer than sparseLimit of the numbers written like it
// are reachable — counted here by checking all of them.
func TestSparseBound(t *testing.T) {
	for _, tc := range []struct {
		ix     *Index
		prefix string
		format string
		n      int
	}{
		{compareOrders, "Aprile ha 160 ordini contro 221 a marzo, circa il ", "%d%%.", 90},
		{monthsIndex, "Marzo ha 221 ordini, aprile 160: ", "%d in più.", 90},
		{yearsIndex, "Valore: ", "%d.", 90},
	} {
		grounded := 0
		for k := 10; k < 10+tc.n; k++ {
			ns := tc.ix.Check(tc.prefix+fmt.Sprintf(tc.format, k), derived)
			if n := ns[len(ns)-1]; n.Grounded && n.Derivation != "" && !strings.HasSuffix(n.Derivation, "as %") {
				grounded++
			}
		}
		if float64(grounded) >= sparseLimit(2)*float64(tc.n) {
			t.Errorf("%q: %d of %d two-digit numbers derived", tc.prefix, grounded, tc.n)
		}
	}
}

func TestNamesFind(t *testing.T) {
	n := NewNames(map[string][]string{"food_cost": {"food cost", "costo materie prime"}, "revenue": {"fatturato"}, "food_cost_percent": {"food cost %", "incidenza del food cost"}})
	got := n.find("L'incidenza del Food Cost sul FATTURATO, il costo materie prime e il food cost; revenue.")
	var keys []string
	for _, m := range got {
		keys = append(keys, m.key)
	}
	want := "foodcostpercent revenue foodcost foodcost revenue"
	if strings.Join(keys, " ") != want {
		t.Errorf("find: %v, want %s", keys, want)
	}
	if (*Names)(nil).find("fatturato") != nil {
		t.Error("nil Names found something")
	}
}

func TestNormKey(t *testing.T) {
	for in, want := range map[string]string{"food_cost": "foodcost", "foodCost": "foodcost", "sum_totalValueUSD": "totalvalueusd",
		"count_declarationNumber": "declarationnumber", "Revenue": "revenue", "sum": "sum"} {
		if got := normKey(in); got != want {
			t.Errorf("normKey(%q) = %q, want %q", in, got, want)
		}
	}
}
