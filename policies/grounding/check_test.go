package grounding

import (
	"strings"
	"sync"
	"testing"
)

// The restaurant dataset of seed 002, as its tools would return it.
const (
	metricsJSON = `{"metric":"summary","values":{"revenue":21956.62,"food_cost":7689.61,"order_count":941,` +
		`"ticket_medio":23.33,"food_cost_percent":35.02,"gross_margin":14267.01,"margin_ratio":0.6498}}`
	rawJSON     = `{"revenue":21956.62,"food_cost":7689.61,"order_count":941}`
	periodsJSON = `{"periods":[{"month":"2024-01","revenue":7120.40,"orders":305},{"month":"2024-02","revenue":7310.75,"orders":311}],` +
		`"delta_percent":-12.5,"summary":"Visitatori annui: 1.234.567"}`
)

var (
	fullIndex = NewIndex([]Source{
		{Kind: Tool, Name: "execute_metric", Content: metricsJSON},
		{Kind: Tool, Name: "compare_periods", Content: periodsJSON},
		{Kind: System, Content: "Sei un analista. IVA al 22%."},
		{Kind: User, Content: "Quanto fatturato serve per crescere del 50%?"},
	})
	rawIndex = NewIndex([]Source{
		{Kind: Tool, Name: "execute_metric", Content: rawJSON},
		{Kind: User, Content: "Qual è il fatturato?"},
	})
	textIndex = NewIndex([]Source{
		{Kind: Tool, Name: "report", Content: "Fatturato: 21.956,62 €\nOrdini: 1.234"},
		{Kind: Tool, Name: "broken", Content: `{"revenue": 99.5,`},
	})
	// userIndex has only the user's message: no tool results.
	userIndex = NewIndex([]Source{
		{Kind: User, Content: "Quanto fatturato serve per crescere del 50%?"},
	})
	smallIndex = NewIndex([]Source{
		{Kind: Tool, Name: "growth", Content: `{"growth":25,"share":0.35}`},
	})
	// pctIndex holds percentages only, and the two readings of one ambiguous
	// numeral ("1.234": 1234 and 1.234, one source position).
	pctIndex = NewIndex([]Source{
		{Kind: Tool, Name: "shares", Content: `{"a_pct":12.345,"b_pct":67.891,"share_pct":43.219}`},
		{Kind: Tool, Name: "report", Content: "Ordini: 1.234"},
		{Kind: User, Content: "Crescere del 50%"},
	})
)

var (
	direct  = Options{}
	derived = Options{AllowDerivations: true}
)

// want is the expected grounding of one number: "=" direct, "-" not
// grounded, anything else the expected derivation.
type want struct{ text, res string }

var checkCases = []struct {
	group, name string
	ix          *Index
	opt         Options
	answer      string
	want        []want
}{
	// Direct matches in every format.
	{"direct", "italian", fullIndex, direct, "Il fatturato totale è di 21.956,62 €, con un food cost del 35,02%.", []want{{"21.956,62 €", "="}, {"35,02%", "="}}},
	{"direct", "english", fullIndex, direct, "Revenue was €21,956.62 from 941 orders.", []want{{"€21,956.62", "="}, {"941", "="}}},
	{"direct", "space thousands", fullIndex, direct, "Margine 14 267,01 € e food cost 7 689,61 €", []want{{"14 267,01 €", "="}, {"7 689,61 €", "="}}},
	{"direct", "ticket", fullIndex, direct, "Ticket medio: 23,33 €", []want{{"23,33 €", "="}}},
	{"direct", "negative", fullIndex, direct, "Variazione −12,5%", []want{{"−12,5%", "="}}},
	{"direct", "absolute value", fullIndex, direct, "un calo del 12,5%", []want{{"12,5%", "="}}},
	{"direct", "user number", fullIndex, direct, "Per crescere del 50% servono più ordini.", []want{{"50%", "="}}},
	{"direct", "system number", fullIndex, direct, "Con IVA al 22%", []want{{"22%", "="}}},
	{"direct", "number in json string", fullIndex, direct, "1.234.567 visitatori", []want{{"1.234.567", "="}}},
	{"direct", "text tool result", textIndex, direct, "Fatturato 21956.62 €", []want{{"21956.62 €", "="}}},
	{"direct", "invalid json read as text", textIndex, direct, "revenue 99.5", []want{{"99.5", "="}}},
	{"direct", "ambiguous reading in english answer", textIndex, direct, "Orders: 1,234 (share 0.5)", []want{{"1,234", "="}, {"0.5", "-"}}},
	// Rounding and precision.
	{"precision", "integer rounding", fullIndex, direct, "circa 21957 €", []want{{"21957 €", "="}}},
	{"precision", "k", fullIndex, direct, "circa 22k €", []want{{"22k €", "="}}},
	{"precision", "mila", fullIndex, direct, "circa 22 mila euro", []want{{"22 mila euro", "="}}},
	{"precision", "trailing zeros", fullIndex, direct, "circa 22.000 €", []want{{"22.000 €", "="}}},
	{"precision", "tens", fullIndex, direct, "circa 21.960 €", []want{{"21.960 €", "="}}},
	{"precision", "one decimal", fullIndex, direct, "ticket 23,3 €", []want{{"23,3 €", "="}}},
	{"precision", "integer ticket", fullIndex, direct, "ticket 23 €", []want{{"23 €", "="}}},
	{"precision", "percent rounded", fullIndex, direct, "food cost 35% o 35,0%", []want{{"35%", "="}, {"35,0%", "="}}},
	{"precision", "mln", fullIndex, direct, "1,2 mln visitatori", []want{{"1,2 mln", "="}}},
	{"precision", "too precise", fullIndex, direct, "ticket 23,330 €", []want{{"23,330 €", "="}}},
	{"precision", "more precise than source", fullIndex, direct, "ticket 23,334 €", []want{{"23,334 €", "-"}}},
	// Ratio and percent.
	{"percent", "ratio as percent", fullIndex, direct, "margine 64,98%", []want{{"64,98%", "="}}},
	{"percent", "ratio as percent derivation text", fullIndex, direct, "margine 65%", []want{{"65%", "="}}},
	{"percent", "percent as ratio", fullIndex, direct, "quota 0,35", []want{{"0,35", "="}}},
	{"percent", "ratio direct", fullIndex, direct, "ratio 0.6498", []want{{"0.6498", "="}}},
	// Derivations.
	{"derive", "seed +50% with base", fullIndex, derived, "Il fatturato attuale è 21.956,62 €: per crescere del 50% serve un fatturato di 32.934,93 €.",
		[]want{{"21.956,62 €", "="}, {"50%", "="}, {"32.934,93 €", "21956.62 × (1 + 50%)"}}},
	{"derive", "seed +50% without base", fullIndex, derived, "Per crescere del 50% serve un fatturato di 32.934,93 €.",
		[]want{{"50%", "="}, {"32.934,93 €", "21956.62 × (1 + 50%)"}}},
	{"derive", "seed +50% english", fullIndex, derived, "+50% of 21956.62 is 32934.93",
		[]want{{"+50%", "="}, {"21956.62", "="}, {"32934.93", "21956.62 × (1 + 50%)"}}},
	{"derive", "50% of", fullIndex, derived, "Il 50% del fatturato è 10.978,31 €", []want{{"50%", "="}, {"10.978,31 €", "21956.62 × 50%"}}},
	{"derive", "ticket medio", rawIndex, derived, "Con 941 ordini e 21.956,62 € di fatturato, il ticket medio è 23,33 €.",
		[]want{{"941", "="}, {"21.956,62 €", "="}, {"23,33 €", "21956.62 / 941"}}},
	{"derive", "food cost percent", rawIndex, derived, "Food cost 7.689,61 € su 21.956,62 €: 35,02%.",
		[]want{{"7.689,61 €", "="}, {"21.956,62 €", "="}, {"35,02%", "7689.61 / 21956.62 as %"}}},
	{"derive", "gross margin from pool", rawIndex, derived, "Il margine lordo è 14.267,01 €.", []want{{"14.267,01 €", "21956.62 − 7689.61"}}},
	{"derive", "gross margin visible", rawIndex, derived, "21.956,62 € − 7.689,61 € = 14.267,01 €",
		[]want{{"21.956,62 €", "="}, {"7.689,61 €", "="}, {"14.267,01 €", "21956.62 − 7689.61"}}},
	{"derive", "sum of months", fullIndex, derived, "Gennaio 7.120,40 € e febbraio 7.310,75 €: in tutto 14.431,15 €.",
		[]want{{"7.120,40 €", "="}, {"7.310,75 €", "="}, {"14.431,15 €", "7120.4 + 7310.75"}}},
	{"derive", "percent change", fullIndex, derived, "Da 7.120,40 € a 7.310,75 €: +2,67%.",
		[]want{{"7.120,40 €", "="}, {"7.310,75 €", "="}, {"+2,67%", "(7310.75 − 7120.4) / 7120.4 as %"}}},
	// With three source numbers, 23,33 is one step from them (small pool,
	// sparse.go); a derived number is never an operand, so 941 × 23,33 is not.
	{"derive", "product", rawIndex, derived, "941 ordini × 23,33 € fanno 21.953,53 €",
		[]want{{"941", "="}, {"23,33 €", "21956.62 / 941"}, {"21.953,53 €", "-"}}},
	{"derive", "product of visible", fullIndex, derived, "941 ordini × 23,33 € fanno 21.953,53 €",
		[]want{{"941", "="}, {"23,33 €", "="}, {"21.953,53 €", "941 × 23.33"}}},
	{"derive", "off by option", fullIndex, direct, "Per crescere del 50% serve un fatturato di 32.934,93 €.",
		[]want{{"50%", "="}, {"32.934,93 €", "-"}}},
	{"derive", "user kind excluded", fullIndex, Options{AllowDerivations: true, Kinds: []SourceKind{Tool}},
		"Per crescere del 50% serve un fatturato di 32.934,93 €.", []want{{"50%", "-"}, {"32.934,93 €", "-"}}},
	{"derive", "tool kind excluded", fullIndex, Options{Kinds: []SourceKind{User, System}}, "21.956,62 € e 50%",
		[]want{{"21.956,62 €", "-"}, {"50%", "="}}},
	// Invented numbers must stay ungrounded, derivations on.
	{"invented", "near miss revenue", fullIndex, derived, "Fatturato 21.956,63 €", []want{{"21.956,63 €", "-"}}},
	{"invented", "near miss ticket", fullIndex, derived, "Ticket 23,4 €", []want{{"23,4 €", "-"}}},
	{"invented", "near miss percent", fullIndex, derived, "Food cost 35,1%", []want{{"35,1%", "-"}}},
	{"invented", "small integers", fullIndex, derived, "Puoi lavorare su 3 leve e crescere 2 volte.", []want{{"3", "-"}, {"2", "-"}}},
	{"invented", "round target", fullIndex, derived, "Punta a 40.000 € in 6 mesi.", []want{{"40.000 €", "-"}, {"6", "-"}}},
	{"invented", "made-up revenue", fullIndex, derived, "Il fatturato mensile è 12.345,00 €", []want{{"12.345,00 €", "-"}}},
	{"invented", "made-up growth", fullIndex, derived, "Una crescita del 15% porta 25.250 €", []want{{"15%", "-"}, {"25.250 €", "-"}}},
	{"invented", "projection", fullIndex, derived, "Nel prossimo anno 1.500 ordini e ticket 27,80 €", []want{{"1.500", "-"}, {"27,80 €", "-"}}},
	// A dot and three digits next to a currency are thousands: "25.000 €" is
	// never 25.
	{"thousands", "currency dot", smallIndex, derived, "Il fatturato è 25.000 €.", []want{{"25.000 €", "-"}}},
	{"thousands", "currency dot english", smallIndex, derived, "Revenue is $25.000.", []want{{"$25.000", "-"}}},
	{"thousands", "currency comma english", smallIndex, derived, "Revenue is $25,000.", []want{{"$25,000", "-"}}},
	{"thousands", "italian words", smallIndex, derived, "Il fatturato è di 25.000.", []want{{"25.000", "-"}}},
	{"thousands", "three zeros", smallIndex, derived, "We sold 25,000 units.", []want{{"25,000", "-"}}},
	{"thousands", "still decimal where the text says so", smallIndex, derived, "Crescita 25,000 su 23,5", []want{{"25,000", "="}, {"23,5", "-"}}},
	// A derivation never combines a source number with itself, nor two percentages.
	{"self", "seed 25.000 € from the user's 50%", userIndex, derived, "Il fatturato è 25.000 €.", []want{{"25.000 €", "-"}}},
	{"self", "50% of 50%", userIndex, derived, "Crescere del 50%: 25,0000.", []want{{"50%", "="}, {"25,0000", "-"}}},
	{"self", "ratio shown twice", smallIndex, derived, "Quota 0,35, cioè 35%: 0,1225.", []want{{"0,35", "="}, {"35%", "="}, {"0,1225", "-"}}},
	{"self", "two readings of one numeral", pctIndex, derived, "Valore 1522.756", []want{{"1522.756", "-"}}},
	{"percentages", "product of two percentages", pctIndex, derived, "Valore 838,1144", []want{{"838,1144", "-"}}},
	{"percentages", "percentage applied to a percentage", pctIndex, derived, "Valore 21,6095", []want{{"21,6095", "-"}}},
	{"percentages", "percentage applied to a number", pctIndex, derived, "Metà di 1.234 ordini: 617,000", []want{{"1.234", "="}, {"617,000", "1234 × 50%"}}},
	// Strategy answers: list markers and headings are no numbers.
	{"strategy", "seed example", fullIndex, derived, "Per aumentare il fatturato puoi lavorare su tre leve:\n1. **Volume**: Aumentare il numero di clienti\n2. **Prezzo**: Rivedere il pricing\n3. **Mix**: Promuovere prodotti ad alto margine", nil},
	{"strategy", "heading", fullIndex, derived, "## 1. Analisi\n### 1.1 Dati del 15 gennaio 2024 alle 12:30", nil},
	{"strategy", "numbers in strategy", fullIndex, derived, "Puoi aumentare il fatturato del 20% in 18 mesi.", []want{{"20%", "-"}, {"18", "-"}}},
}

func TestCheck(t *testing.T) {
	for _, tc := range checkCases {
		t.Run(tc.group+"/"+tc.name, func(t *testing.T) {
			got := tc.ix.Check(tc.answer, tc.opt)
			if len(got) != len(tc.want) {
				t.Fatalf("got %d numbers %v, want %d", len(got), texts(got), len(tc.want))
			}
			for i, w := range tc.want {
				n := got[i]
				if n.Text != w.text {
					t.Errorf("number %d: text %q, want %q", i, n.Text, w.text)
				}
				res := "-"
				switch {
				case n.Grounded && n.Derivation == "":
					res = "="
				case n.Grounded && strings.HasSuffix(n.Derivation, " as %") && !strings.Contains(n.Derivation, " / "):
					res = "=" // a ratio read as a percentage is a direct match
				case n.Grounded && strings.HasSuffix(n.Derivation, "% as ratio"):
					res = "="
				case n.Grounded:
					res = n.Derivation
				}
				if res != w.res {
					t.Errorf("%q: got %q (source %q), want %q", n.Text, res, n.Source, w.res)
				}
				if n.Grounded && (n.Source == "" || n.SourceKind == "") {
					t.Errorf("%q: grounded without source", n.Text)
				}
			}
		})
	}
}

func texts(ns []Number) []string {
	var s []string
	for _, n := range ns {
		s = append(s, n.Text)
	}
	return s
}

func TestCheckSources(t *testing.T) {
	got := fullIndex.Check("21.956,62 € e 50% e 22% e 1.234.567 e 64,98%", derived)
	want := []struct {
		source string
		kind   SourceKind
		deriv  string
	}{
		{"tool:execute_metric $.values.revenue", Tool, ""},
		{"user", User, ""},
		{"system", System, ""},
		{"tool:compare_periods $.summary", Tool, ""},
		{"tool:execute_metric $.values.margin_ratio", Tool, "0.6498 as %"},
	}
	for i, w := range want {
		if got[i].Source != w.source || got[i].SourceKind != w.kind || got[i].Derivation != w.deriv {
			t.Errorf("%q: source %q kind %q derivation %q, want %q %q %q", got[i].Text, got[i].Source, got[i].SourceKind, got[i].Derivation, w.source, w.kind, w.deriv)
		}
	}
}

func TestCheckNilAndEmpty(t *testing.T) {
	var ix *Index
	if got := ix.Check("21.956,62 €", derived); len(got) != 1 || got[0].Grounded {
		t.Fatalf("nil index: %+v", got)
	}
	if got := NewIndex(nil).Check("", derived); len(got) != 0 {
		t.Fatalf("empty answer: %+v", got)
	}
}

// TestCheckConcurrent runs one index from many goroutines; -race checks
// that Check only reads it.
func TestCheckConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				got := fullIndex.Check("Per crescere del 50% serve 32.934,93 €.", derived)
				if !got[1].Grounded {
					t.Error("not grounded")
					return
				}
			}
		}()
	}
	wg.Wait()
}
