package nl

import "testing"

// TestPlainAndWeightedAverages: "average unit price" is the plain mean of the field, also
// when the question restates it ("just the plain average across its declarations"); a
// weighted average is the layer's declared ratio measure; another second average (of
// averages) stays unread.
func TestPlainAndWeightedAverages(t *testing.T) {
	runParseCases(t, "trade", []parseCase{
		{"avg unit price of steel? just the plain average across its declarations", []string{`"op":"average","field":"unitPriceUSD"`}, []string{`"uncovered"`}},
		{"average unit price of steel per year (simple avg across declarations)", []string{`"op":"average","field":"unitPriceUSD"`, `"grain":"year"`}, []string{`"uncovered"`}},
		{"prezzo medio dei gamberi, media aritmetica", []string{`"op":"average","field":"unitPriceUSD"`}, []string{`"uncovered"`}},
		{"average unit price of steel, the average", []string{`"uncovered"`}, nil},
		{"weighted average unit price of shrimp", []string{`"metric":"average_unit_price"`}, []string{`"uncovered"`, `"op":"average"`}},
		{"quantity-weighted average price of steel by year", []string{`"metric":"average_unit_price"`, `"grain":"year"`}, []string{`"uncovered"`}},
		{"prezzo medio ponderato dei gamberi", []string{`"metric":"average_unit_price"`}, []string{`"uncovered"`}},
	})
}
