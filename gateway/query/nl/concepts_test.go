package nl

import "testing"

// TestDiscountMeasures: the discounts as an amount and the revenue net of them are measures
// of the layer; a qualifier ("al netto degli sconti") names the refined measure alone,
// unless the question joins the two ("fatturato e fatturato netto").
func TestDiscountMeasures(t *testing.T) {
	runParseCases(t, "analytics", []parseCase{
		{"how much did we give away in discounts overall?", []string{`"metric":"discount_amount"`}, []string{`"uncovered"`}},
		{"sconti totali di marzo", []string{`"metric":"discount_amount"`, `"from":"2025-03-01"`}, []string{`"uncovered"`, `"op"`}},
		{"fatturato di gennaio al netto degli sconti", []string{`"measures":[{"metric":"net_revenue","unit":"EUR"}]`}, []string{`"uncovered"`}},
		{"revenue net of discounts from January to May", []string{`"measures":[{"metric":"net_revenue","unit":"EUR"}]`}, []string{`"uncovered"`}},
		{"ricavi netti per categoria", []string{`"metric":"net_revenue"`, `"field":"category"`}, []string{`"uncovered"`, `"metric":"revenue"`}},
		{"fatturato e fatturato netto di marzo", []string{`"metric":"revenue"`, `"metric":"net_revenue"`}, []string{`"uncovered"`}},
		{"fatturato di marzo", []string{`"metric":"revenue"`}, []string{`"net_revenue"`}},
		{"quanti ordini con sconto?", []string{`"op":"count"`, `"field":"discount_percent"`}, []string{`"discount_amount"`}},
	})
}

// TestRankedKindOfValue: "which <value> … the most/least" ranks the rows' kinds (dishes)
// inside the value (a category), in the direction the words say; "units" after "the most"
// is what is ranked, not a grouping.
func TestRankedKindOfValue(t *testing.T) {
	runParseCases(t, "analytics", []parseCase{
		{"qual è il dolce che fattura meno?", []string{`"groupBy":{"source":"orders","field":"item_name"}`, `"values":["Dolci"]`, `"desc":false`, `"limit":1`, `"metric":"revenue"`}, []string{`"uncovered"`}},
		{"which dessert sold the most units?", []string{`"field":"item_name"`, `"values":["Dolci"]`, `"desc":true`, `"metric":"quantity_total"`}, []string{`"uncovered"`}},
		{"which wine has the highest revenue?", []string{`"field":"item_name"`, `"values":["Vini"]`, `"desc":true`, `"metric":"revenue"`}, []string{`"uncovered"`}},
		{"quale pizza ha venduto di meno?", []string{`"field":"item_name"`, `"values":["Pizze"]`, `"desc":false`}, []string{`"uncovered"`}},
		{"the least popular dish", []string{`"field":"item_name"`, `"desc":false`}, []string{`"uncovered"`}},
		{"bottom 3 waiters by revenue", []string{`"field":"waiter"`, `"desc":false`, `"limit":3`}, []string{`"uncovered"`}},
		// No ranking: the value is a condition only.
		{"fatturato dei dolci", []string{`"values":["Dolci"]`}, []string{`"groupBy"`}},
	})
}

// TestUnitsSold: "how many dishes/units did we sell" sums the pieces (the dishes' amount),
// while "how much did we sell" stays the revenue and "how many different dishes did we
// sell" counts the distinct dishes, the sale verb only framing them.
func TestUnitsSold(t *testing.T) {
	runParseCases(t, "analytics", []parseCase{
		{"How many items did we sell per category in May? (qty)", []string{`"metric":"quantity_total"`, `"field":"category"`}, []string{`"uncovered"`}},
		{"how many units did we sell in march", []string{`"metric":"quantity_total"`, `"from":"2025-03-01"`}, []string{`"uncovered"`}},
		{"how many dishes did we sell?", []string{`"metric":"quantity_total"`}, []string{`"uncovered"`}},
		{"how much did we sell in february", []string{`"metric":"revenue"`}, []string{`"uncovered"`, `quantity`}},
		{"quanti pezzi di tiramisù", []string{`"metric":"quantity_total"`, `"values":["Tiramisù"]`}, []string{`"uncovered"`}},
		{"how many different dishes did we sell?", []string{`"op":"count_distinct","field":"item_name"`}, []string{`"uncovered"`, `quantity_total`}},
		{"quanti piatti diversi abbiamo venduto, escludendo bevande, vini e caffetteria?", []string{`"op":"count_distinct","field":"item_name"`, `"op":"notIn"`, `"Bevande"`, `"Vini"`, `"Caffetteria"`}, []string{`"uncovered"`}},
	})
}

// TestFieldRange: "tables 1 to 5", "tavoli dal 1 al 5" are an inclusive range of the numeric
// field named before them; "tables 1 and 5" is no range.
func TestFieldRange(t *testing.T) {
	runParseCases(t, "analytics", []parseCase{
		{"revenue from tables 1 to 5, not counting cash payments", []string{`"field":"table_id","op":"between","values":[1,5]`, `"field":"payment_method","op":"notIn","values":["Contanti"]`}, []string{`"uncovered"`}},
		{"fatturato dei tavoli dal 1 al 5", []string{`"field":"table_id","op":"between","values":[1,5]`}, []string{`"uncovered"`}},
		{"fatturato dei tavoli dal 5 al 1", []string{`"uncovered"`}, []string{`"between"`}},
		{"revenue of tables 1 and 5", nil, []string{`"between"`}},
	})
}

// TestCompareCategories: two values of one field on a ratio measure are a comparison;
// "primi" names the category unless a number follows it (then it is "the first N").
func TestCompareCategories(t *testing.T) {
	runParseCases(t, "analytics", []parseCase{
		{"food cost% primi vs secondi", []string{`"metric":"food_cost_percent"`, `"compare":{"sides":[{"label":"Primi"`, `"label":"Secondi"`}, []string{`"uncovered"`}},
		{"confronta il fatturato di pizze e primi", []string{`"label":"Pizze"`, `"label":"Primi"`}, []string{`"uncovered"`}},
		{"i primi 3 camerieri per fatturato", []string{`"field":"waiter"`, `"limit":3`}, []string{`"uncovered"`, `"Primi"`}},
	})
}
