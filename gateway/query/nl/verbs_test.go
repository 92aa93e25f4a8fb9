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

// TestAveragePerGrain: "al giorno", "al mese" are per day, per month: with an average, the
// average over the days (months) of the period; "al mese di marzo" names March only.
func TestAveragePerGrain(t *testing.T) {
	runParseCases(t, "analytics", []parseCase{
		{"in media quanti ordini facciamo al giorno a gennaio?", []string{`"averagePer":{"source":"orders","field":"order_date","grain":"day"}`, `"op":"count"`, `"from":"2025-01-01"`}, []string{`"uncovered"`}},
		{"quanto incassiamo in media al giorno?", []string{`"averagePer":{"source":"orders","field":"order_date","grain":"day"}`, `"metric":"revenue"`}, []string{`"uncovered"`}},
		{"quanti ordini in media al mese?", []string{`"averagePer":{"source":"orders","field":"order_date","grain":"month"}`}, []string{`"uncovered"`}},
		{"average daily revenue in March", []string{`"averagePer":{"source":"orders","field":"order_date","grain":"day"}`, `"from":"2025-03-01"`}, []string{`"uncovered"`}},
		{"fatturato al mese di marzo", []string{`"from":"2025-03-01","to":"2025-03-31"`}, []string{`"uncovered"`, `"grain"`}},
	})
}
