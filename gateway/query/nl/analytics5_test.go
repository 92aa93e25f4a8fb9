package nl

import "testing"

// TestEitherCompared: "which is more, A or B" — two values of one field joined by "or" in a
// question that asks which has more (or less) are the two sides of a comparison, never one
// set of rows nor two conditions that refuse each other.
func TestEitherCompared(t *testing.T) {
	cash := `{"label":"Contanti","filters":[{"source":"orders","field":"payment_method","op":"in","values":["Contanti"]}]}`
	card := `{"label":"Carta di credito","filters":[{"source":"orders","field":"payment_method","op":"in","values":["Carta di credito"]}]}`
	pizza := `{"label":"Pizze","filters":[{"source":"orders","field":"category","op":"in","values":["Pizze"]}]}`
	pasta := `{"label":"Primi","filters":[{"source":"orders","field":"category","op":"in","values":["Primi"]}]}`
	runParseCases(t, "analytics", []parseCase{
		{"A gennaio abbiamo incassato di più in contanti o con carta di credito?", []string{`"metric":"revenue"`, cash, card, `"from":"2025-01-01"`}, []string{`"uncovered"`}},
		{"which is more, cash or credit card?", []string{`"metric":"revenue"`, cash, card}, []string{`"uncovered"`}},
		{"incassiamo di più con i contanti o con la carta di credito?", []string{cash, card}, []string{`"uncovered"`}},
		{"do we sell more pizza or pasta?", []string{`"metric":"quantity_total"`, pizza, pasta}, []string{`"uncovered"`, `"values":["Pizze","Primi"]`}},
		{"abbiamo venduto meno pizze o primi a marzo?", []string{`"metric":"quantity_total"`, pizza, pasta}, []string{`"uncovered"`}},
		{"Spendiamo di più in materie prime per le pizze o per i primi?", []string{`"metric":"food_cost"`, pizza, pasta}, []string{`"uncovered"`}},
		// Without a comparative, "or" is one set of rows.
		{"how many orders of pizza or pasta?", []string{`"values":["Pizze","Primi"]`}, []string{`"compare"`}},
		// Another dimension named: a ranking of it, which the comparison does not answer.
		{"which waiter sold more pizza or pasta?", []string{`"uncovered"`}, nil},
		{"chi ha venduto più pizze o primi?", []string{`"uncovered"`}, nil},
		{"Sara o Luca, chi ha fatturato di più?", []string{`"label":"Sara"`, `"label":"Luca"`}, []string{`"uncovered"`}},
	})
}

// TestFoodCostWords: the cost of the raw materials, and what "we" spend on them, name the
// food cost; "we spend" names no measure by itself.
func TestFoodCostWords(t *testing.T) {
	runParseCases(t, "analytics", []parseCase{
		{"qual è il costo delle materie prime per categoria", []string{`"metric":"food_cost"`, `"field":"category"`}, []string{`"uncovered"`}},
		{"quanto abbiamo speso in materie prime a febbraio?", []string{`"metric":"food_cost"`}, []string{`"uncovered"`, `"revenue"`}},
		{"how much did we spend on ingredients in march?", []string{`"metric":"food_cost"`}, []string{`"uncovered"`, `"revenue"`}},
		{"quanto spendiamo per i camerieri?", []string{`"uncovered"`}, nil},
	})
}

// TestTopBeforeNumber: "i primi" is the Primi, unless a number follows (the first N).
func TestTopBeforeNumber(t *testing.T) {
	runParseCases(t, "analytics", []parseCase{
		{"quanto abbiamo incassato con i primi", []string{`"values":["Primi"]`}, []string{`"uncovered"`}},
		{"i primi 5 piatti per fatturato", []string{`"limit":5`, `"field":"item_name"`}, []string{`"Primi"`, `"uncovered"`}},
	})
}

// TestAbsentAmount: "no discount", "senza sconto", "without a discount" keep the rows whose
// numeric field is zero, as "with a discount" keeps those above it.
func TestAbsentAmount(t *testing.T) {
	zero := `{"source":"orders","field":"discount_percent","op":"equals","values":[0]}`
	runParseCases(t, "analytics", []parseCase{
		{"how many orders in may had no discount at all?", []string{zero, `"op":"count"`, `"from":"2025-05-01"`}, []string{`"uncovered"`}},
		{"quanti ordini senza sconto a marzo", []string{zero}, []string{`"uncovered"`}},
		{"orders without a discount", []string{zero, `"rows":true`}, []string{`"uncovered"`}},
		{"fatturato delle righe con nessuno sconto", []string{zero, `"metric":"revenue"`}, []string{`"uncovered"`}},
		{"how many orders with no discount", []string{zero}, []string{`"uncovered"`}},
		{"quanti ordini con sconto", []string{`"op":"greaterThan","values":[0]`}, []string{`"uncovered"`}},
	})
}

// TestDistinctNumbers: a numeric field whose layer says what it counts (tables) is counted
// distinct, as the entity fields are.
func TestDistinctNumbers(t *testing.T) {
	tables := `{"op":"count_distinct","field":"table_id","unit":"tables"}`
	runParseCases(t, "analytics", []parseCase{
		{"Quanti tavoli diversi ha servito Luca a maggio?", []string{tables, `"values":["Luca"]`}, []string{`"uncovered"`}},
		{"how many different tables did we use", []string{tables}, []string{`"uncovered"`}},
		{"how many distinct tables in march", []string{tables}, []string{`"uncovered"`}},
		{"quanti tavoli diversi ci sono", []string{tables}, []string{`"uncovered"`}},
	})
}

// TestMoneyAndVisits: money is the measure in money the question names, else the default
// one; a customer's meals are their orders, and "how many times" counts rows; what the
// discounts gave away is their amount.
func TestMoneyAndVisits(t *testing.T) {
	runParseCases(t, "analytics", []parseCase{
		{"which table brings in the most money?", []string{`"metric":"revenue"`, `"field":"table_id"`, `"desc":true`}, []string{`"uncovered"`}},
		{"quale cameriere porta più soldi", []string{`"metric":"revenue"`, `"field":"waiter"`, `"desc":true`}, []string{`"uncovered"`}},
		{"quanti soldi abbiamo incassato a marzo", []string{`"metric":"revenue"`}, []string{`"uncovered"`, `"op":"count"`}},
		{"how much money did we give away in discounts", []string{`"measures":[{"metric":"discount_amount"`}, []string{`"uncovered"`, `"revenue"`}},
		{"quanto abbiamo dato via in sconti", []string{`"metric":"discount_amount"`}, []string{`"uncovered"`}},
		{"How many times has customer CUST-102 eaten with us?", []string{`"op":"count","unit":"orders"`, `"values":["CUST-102"]`}, []string{`"uncovered"`}},
		{"quante volte ha mangiato da noi il cliente CUST-102?", []string{`"op":"count","unit":"orders"`}, []string{`"uncovered"`}},
		{"how many times did CUST-102 dine with us in march", []string{`"op":"count","unit":"orders"`}, []string{`"uncovered"`}},
		{"quante volte è venuto il cliente CUST-102", []string{`"op":"count","unit":"orders"`}, []string{`"uncovered"`, "count_distinct"}},
	})
	runParseCases(t, "findings", []parseCase{
		{"how much money did the findings cost", []string{`"uncovered"`}, nil},
	})
}

// TestCountMarks: "n.", "nr.", "n°", "#" before a word ask for a count; before a number they
// are "number"; a lone "n" is no mark.
func TestCountMarks(t *testing.T) {
	count := `"measures":[{"op":"count","unit":"orders"}]`
	runParseCases(t, "analytics", []parseCase{
		{"n. ordini per mese", []string{count, `"grain":"month"`}, []string{`"uncovered"`}},
		{"nr. ordini", []string{count}, []string{`"uncovered"`, `"rows"`}},
		{"# ordini", []string{count}, []string{`"uncovered"`, `"rows"`}},
		{"n° ordini a marzo", []string{count}, []string{`"uncovered"`}},
		{"no. of orders by month", []string{count}, []string{`"uncovered"`}},
		{"nr. of orders in april", []string{count}, []string{`"uncovered"`}},
		{"quanti ordini ha il tavolo n. 3", []string{count, `"field":"table_id","op":"equals","values":[3]`}, []string{`"uncovered"`}},
		{"table #5 revenue", []string{`"field":"table_id","op":"equals","values":[5]`}, []string{`"uncovered"`}},
		{"n ordini", []string{`"uncovered"`}, nil},
	})
}

// TestFramingAndRestatement: asking to calculate and apologising frame the question; a
// range's "compresi" says its ends are in it; "cioè X" restating a measure by its parts is
// that measure once, and anything more after it stays unread.
func TestFramingAndRestatement(t *testing.T) {
	q1 := `"ranges":[{"from":"2025-01-01","to":"2025-03-31"}]`
	runParseCases(t, "analytics", []parseCase{
		{"Scusate, sono nuovo: quanti clienti diversi sono venuti da gennaio a marzo compresi?", []string{`"op":"count_distinct","field":"customer_id"`, q1}, []string{`"uncovered"`}},
		{"revenue from January to March included", []string{q1}, []string{`"uncovered"`}},
		{"quanti ordini tra gennaio e marzo inclusi", []string{q1}, []string{`"uncovered"`}},
		{"fatturato con i coperti compresi", []string{`"uncovered"`}, nil},
		{"sorry, I'm new: can you compute the revenue for march?", []string{`"metric":"revenue"`}, []string{`"uncovered"`}},
		{"Mi calcoli il food cost percentuale complessivo, cioè il costo delle materie prime rispetto al fatturato?", []string{`"measures":[{"metric":"food_cost_percent","unit":"%"}]`}, []string{`"uncovered"`}},
		{"what is the food cost percentage, i.e. food cost over revenue?", []string{`"measures":[{"metric":"food_cost_percent","unit":"%"}]`}, []string{`"uncovered"`}},
		{"il margine lordo, cioè il fatturato meno il food cost", []string{`"measures":[{"metric":"gross_margin","unit":"EUR"}]`}, []string{`"uncovered"`}},
		{"fatturato, cioè gli incassi di marzo", []string{`"uncovered"`}, nil},
		{"il food cost, cioè il fatturato", []string{`"uncovered"`}, nil},
	})
}
