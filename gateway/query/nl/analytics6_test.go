package nl

import "testing"

// TestYearSoFar: "da inizio anno", "since the start of the year", "year to date", "YTD"
// run from the first of January of the data's last year to its last day, with a note; a
// named year is its own; "this year" is today's; a vague "inizio anno" is no start.
func TestYearSoFar(t *testing.T) {
	ytd := `"ranges":[{"from":"2025-01-01","to":"2025-05-31"}]`
	note := `the year so far is read in the data's last year`
	runParseCases(t, "analytics", []parseCase{
		{"Chi è il cameriere che ha portato più fatturato da inizio anno?", []string{ytd, note, `"field":"waiter"`}, []string{`"uncovered"`}},
		{"fatturato dall'inizio dell'anno", []string{ytd, note, `"metric":"revenue"`}, []string{`"uncovered"`}},
		{"quanti ordini da inizio d'anno ad oggi?", []string{ytd, `"op":"count"`}, []string{`"uncovered"`}},
		{"revenue since the start of the year", []string{ytd, note}, []string{`"uncovered"`}},
		{"orders from the beginning of the year to date", []string{ytd}, []string{`"uncovered"`}},
		{"year to date revenue by category", []string{ytd, `"field":"category"`}, []string{`"uncovered"`}},
		{"fatturato YTD", []string{ytd, note}, []string{`"uncovered"`}},
		{"food cost a partire dall'inizio dell'anno", []string{ytd}, []string{`"uncovered"`}},
		{"fatturato dall'inizio del 2025", []string{ytd}, []string{`"uncovered"`, note}},
		// This year is today's: the data (2025) has nothing for it.
		{"revenue since the start of this year", []string{`"uncovered":["the data covers`}, nil},
		// A vague start stays unread, and so does a start with no year.
		{"fatturato a inizio anno", []string{`"uncovered"`}, nil},
		{"fatturato dall'inizio", []string{`"uncovered"`}, nil},
	})
}

// TestExcludedPresence: an exclusion of the rows with a numeric field ("escludendo quelli
// con uno sconto", "excluding those with a discount") keeps the field at zero; a verb's
// "not" is no such exclusion.
func TestExcludedPresence(t *testing.T) {
	zero := `{"source":"orders","field":"discount_percent","op":"equals","values":[0]}`
	some := `{"source":"orders","field":"discount_percent","op":"greaterThan","values":[0]}`
	cash := `"values":["Contanti"]`
	runParseCases(t, "analytics", []parseCase{
		{"Quanti ordini pagati in contanti, escludendo quelli con uno sconto?", []string{zero, cash, `"op":"count"`}, []string{`"uncovered"`, some}},
		{"orders excluding those with a discount", []string{zero, `"rows":true`}, []string{`"uncovered"`, some}},
		{"fatturato di marzo tranne gli ordini con sconto", []string{zero, `"metric":"revenue"`}, []string{`"uncovered"`, some}},
		{"how many orders paid in cash, except the ones with a discount?", []string{zero, cash}, []string{`"uncovered"`, some}},
		{"revenue, not counting orders with a discount", []string{zero}, []string{`"uncovered"`, some}},
		{"quanti ordini con sconto", []string{some}, []string{`"uncovered"`, zero}},
		// A discount of a given size excluded is no exclusion of every discount.
		{"ordini escludendo quelli con uno sconto del 20%", nil, []string{zero}},
	})
}

// TestPresentWords: a word that says the rows have a numeric field ("scontati",
// "discounted") is the field above zero beside the rows or a pronoun for them, at zero
// after a negation; elsewhere ("prezzo scontato") it is refused.
func TestPresentWords(t *testing.T) {
	zero := `{"source":"orders","field":"discount_percent","op":"equals","values":[0]}`
	some := `{"source":"orders","field":"discount_percent","op":"greaterThan","values":[0]}`
	runParseCases(t, "analytics", []parseCase{
		{"quanti ordini scontati a marzo?", []string{some, `"op":"count"`}, []string{`"uncovered"`, zero}},
		{"revenue of discounted orders", []string{some, `"metric":"revenue"`}, []string{`"uncovered"`, zero}},
		{"quanti ordini in contanti, tranne quelli scontati?", []string{zero, `"values":["Contanti"]`}, []string{`"uncovered"`, some}},
		{"quanti ordini non scontati", []string{zero}, []string{`"uncovered"`, some}},
		{"how many orders were not discounted?", []string{zero}, []string{`"uncovered"`, some}},
		{"how many orders, excluding discounted ones", []string{zero}, []string{`"uncovered"`, some}},
		{"qual è il prezzo scontato medio?", []string{`"uncovered"`}, []string{some}},
	})
}

// TestWithCount: "with N pieces" is the rows' own count of pieces ("nella stessa riga",
// "on the same line" frame it); "N pieces or more" is at least N; a field without a unit
// and a fraction are no count.
func TestWithCount(t *testing.T) {
	six := `{"source":"orders","field":"quantity","op":"equals","values":[6]}`
	runParseCases(t, "analytics", []parseCase{
		{"Mostrami gli ordini con 6 pezzi nella stessa riga", []string{six, `"rows":true`}, []string{`"uncovered"`, `"limit"`}},
		{"orders with 6 pieces on the same line", []string{six}, []string{`"uncovered"`, `"limit"`}},
		{"quanti ordini con 6 porzioni a marzo?", []string{six, `"op":"count"`}, []string{`"uncovered"`}},
		{"fatturato delle righe con 6 pezzi", []string{six, `"metric":"revenue"`}, []string{`"uncovered"`}},
		{"ordini con 6 pezzi o più", []string{`"op":"atLeast","values":[6]`}, []string{`"uncovered"`}},
		{"orders with 6 or more pieces", []string{`"op":"atLeast","values":[6]`}, []string{`"uncovered"`}},
		{"orders with 2.5 pieces", []string{`"uncovered"`}, nil},
		{"ordini con 2 o 3 pezzi", []string{`"uncovered"`}, nil},
	})
}

// TestExceededAndCost: "hanno superato", "surpassed" are more than (a group's total over a
// number is a condition on the groups, Having); what the discounts "cost us" is their
// amount, while "cost" of anything else stays unknown.
func TestExceededAndCost(t *testing.T) {
	runParseCases(t, "analytics", []parseCase{
		{"ordini che hanno superato i 5 pezzi", []string{`{"source":"orders","field":"quantity","op":"greaterThan","values":[5]}`}, []string{`"uncovered"`}},
		// A threshold on each group's total (Having), not on its rows (TestHaving).
		{"Quali categorie hanno superato i 3000 euro di fatturato?", []string{`"having":{"measure":0,"op":"greaterThan","value":3000}`}, []string{`"uncovered"`, `"filters"`}},
		{"which categories surpassed 3000 euros of revenue?", []string{`"having":{"measure":0,"op":"greaterThan","value":3000}`}, []string{`"uncovered"`}},
		{"Quanto ci sono costati gli sconti in totale?", []string{`"metric":"discount_amount"`}, []string{`"uncovered"`}},
		{"how much did discounts cost us in march?", []string{`"metric":"discount_amount"`, `"from":"2025-03-01"`}, []string{`"uncovered"`}},
		{"qual è il costo degli sconti per categoria?", []string{`"metric":"discount_amount"`, `"field":"category"`}, []string{`"uncovered"`}},
		{"how much did the wines cost us?", []string{`"uncovered"`}, []string{`"measures"`}},
	})
}

// TestStemNoAlias: "prima" (before, first) shares the stem of "primi" but is no alias of
// the Primi: "rispetto a prima" compares nothing with the first courses.
func TestStemNoAlias(t *testing.T) {
	primi := `"values":["Primi"]`
	runParseCases(t, "analytics", []parseCase{
		{"fatturato dei dolci rispetto a prima", []string{`"uncovered"`}, []string{primi}},
		{"mostrami la prima riga", nil, []string{primi}},
		{"fatturato dei primi", []string{primi}, []string{`"uncovered"`}},
		{"fatturato del primo", []string{primi}, []string{`"uncovered"`}},
	})
}
