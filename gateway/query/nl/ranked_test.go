package nl

import "testing"

// TestQuantityRankings: a ranking by "the largest quantity" sums the quantity (a measure of
// the layer sums it); a field no measure sums ("the highest unit price" per importer) is
// not read as a total.
func TestQuantityRankings(t *testing.T) {
	runParseCases(t, "trade", []parseCase{
		{"which company imported the largest quantity of Galaxy A54 phones", []string{`"op":"sum","field":"quantity"`, `"field":"importCompanyName"`, `"limit":1`, `"desc":true`}, []string{`"uncovered"`, `"metric"`}},
		{"which country had the highest total quantity of shrimp", []string{`"op":"sum","field":"quantity"`, `"field":"importCountry"`}, []string{`"uncovered"`}},
		{"which 2 importers bought the smallest quantity of steel", []string{`"op":"sum","field":"quantity"`, `"limit":2`, `"desc":false`}, []string{`"uncovered"`}},
		{"which importer has the highest unit price", []string{`"uncovered"`}, nil},
	})
}

// TestRankedRows: the rows themselves ranked by a number they carry, named after "by" or
// by the superlative; "which declaration had the highest value" and "the largest
// declaration value" keep their readings (a row, a value).
func TestRankedRows(t *testing.T) {
	runParseCases(t, "trade", []parseCase{
		{"Show the 3 biggest transactions by value", []string{`"rows":true`, `"field":"totalValueUSD","desc":true,"ranked":true`, `"limit":3`}, []string{`"uncovered"`}},
		{"the single biggest declaration by value", []string{`"rows":true`, `"field":"totalValueUSD"`, `"ranked":true`, `"limit":1`}, []string{`"uncovered"`}},
		{"the 5 cheapest declarations by unit price", []string{`"rows":true`, `"field":"unitPriceUSD","desc":false,"ranked":true`, `"limit":5`}, []string{`"uncovered"`}},
		{"le 2 dichiarazioni più piccole per quantità", nil, []string{`"ranked":true`}},
		{"the 2 smallest shipments by quantity of shrimp", []string{`"field":"quantity","desc":false,"ranked":true`, `"limit":2`, `"Frozen shrimp"`}, []string{`"uncovered"`}},
		{"the cheapest declarations by value", []string{`"uncovered"`}, nil},
		// "top N <rows> by X" ranks the rows themselves (they have a key); "top 5
		// declarations" alone still ranks kinds of rows, by their name.
		{"top 5 declarations by value", []string{`"rows":true`, `"field":"totalValueUSD","desc":true,"ranked":true`, `"limit":5`}, []string{`"uncovered"`, `"groupBy"`}},
		{"top 3 shipments of shrimp by quantity", []string{`"field":"quantity","desc":true,"ranked":true`, `"Frozen shrimp"`}, []string{`"uncovered"`, `"groupBy"`}},
		{"the 2 biggest declarations of Japan by value", []string{`"field":"totalValueUSD","desc":true,"ranked":true`, `"limit":2`, `"Japan"`}, []string{`"uncovered"`}},
		{"top 5 declarations", []string{`"groupBy":{"source":"transactions","field":"goodsName"}`}, []string{`"ranked"`}},
		{"top 2 goods by import value", []string{`"groupBy":{"source":"transactions","field":"goodsName"}`, `"metric":"total_value"`}, []string{`"ranked"`}},
		{"which declaration had the highest value", []string{`"rows":true`, `"field":"totalValueUSD"`}, []string{`"ranked"`}},
		{"the largest transaction value in 2024", []string{`"op":"max","field":"totalValueUSD"`}, []string{`"rows"`}},
	})
	runParseCases(t, "clinical", []parseCase{
		{"age of the youngest patient", []string{`"op":"min","field":"AGE"`}, []string{`"rows"`}},
	})
	runParseCases(t, "analytics", []parseCase{
		{"show the 3 biggest order lines by quantity", []string{`"rows":true`, `"field":"quantity","desc":true,"ranked":true`, `"limit":3`}, []string{`"uncovered"`}},
	})
}
