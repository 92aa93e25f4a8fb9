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
