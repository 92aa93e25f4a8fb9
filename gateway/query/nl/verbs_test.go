package nl

import "testing"

// TestMeasureVerbs: the verbs and nouns users say for the measures and comparisons — to
// bring (porta, portano), to take in (incassiamo), to lose to discounts (the discount
// amount), to exceed (supera, superano) — in English and Italian.
func TestMeasureVerbs(t *testing.T) {
	runParseCases(t, "analytics", []parseCase{
		{"quale tavolo porta più incasso?", []string{`"field":"table_id"`, `"metric":"revenue"`, `"limit":1`, `"desc":true`}, []string{`"uncovered"`}},
		{"quali camerieri portano più fatturato?", []string{`"field":"waiter"`, `"metric":"revenue"`}, []string{`"uncovered"`}},
		{"quanto incassiamo di media per ordine?", []string{`"metric":"revenue"`, `"averagePer":{"source":"orders","field":""}`}, []string{`"uncovered"`}},
		{"quanto incassiamo a marzo?", []string{`"metric":"revenue"`, `"from":"2025-03-01"`}, []string{`"uncovered"`}},
		{"Quanto abbiamo 'perso' in sconti?", []string{`"measures":[{"metric":"discount_amount"`}, []string{`"uncovered"`}},
		{"quanto abbiamo perso con gli sconti a marzo", []string{`"measures":[{"metric":"discount_amount"`, `"from":"2025-03-01"`}, []string{`"uncovered"`}},
		{"how much did we lose to discounts?", []string{`"measures":[{"metric":"discount_amount"`}, []string{`"uncovered"`}},
		// "lost" alone is no discount: never read as one.
		{"quanti clienti abbiamo perso?", []string{`"uncovered"`}, nil},
		{"quanti piatti hanno un prezzo che supera i 20 euro?", []string{`"field":"unit_price","op":"greaterThan","values":[20]`}, []string{`"uncovered"`}},
		{"which dishes have a price that exceeds 20 euros?", []string{`"field":"unit_price","op":"greaterThan","values":[20]`}, []string{`"uncovered"`}},
		{"quante voci di menu diverse abbiamo venduto?", []string{`"op":"count_distinct","field":"item_name"`}, []string{`"uncovered"`}},
	})
}

// TestWholePeriod: the whole period of the data asks for no period, whatever shorter filler
// starts the phrase ("in tutto", "over the").
func TestWholePeriod(t *testing.T) {
	var cases []parseCase
	for _, q := range []string{"fatturato in tutto il periodo", "quanti ordini per tutto il periodo?", "fatturato sull'intero periodo",
		"revenue over the whole period", "revenue for the entire period", "revenue over the full period", "revenue in all the data",
		"revenue across all the data", "fatturato in tutti i dati"} {
		cases = append(cases, parseCase{q, []string{`"measures"`}, []string{`"uncovered"`, `"time"`}})
	}
	runParseCases(t, "analytics", cases)
}
