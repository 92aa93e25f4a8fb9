package nl

import "testing"

// TestRowsInAUnit: "shipments priced per kg", "measured in pcs" are the rows whose unit is
// kg or pcs (a share, a count, a listing); where a value is computed, a price per kg is not
// dropped.
func TestRowsInAUnit(t *testing.T) {
	kg := `{"source":"transactions","field":"unit","op":"in","values":["kg"]}`
	runParseCases(t, "trade", []parseCase{
		{"share of 2024 shipments (by count) that were priced per kg", []string{`"share":{"filters":[` + kg, `"label":"2024"`}, []string{`"uncovered"`}},
		{"percentuale di spedizioni misurate in kg", []string{`"share":{"filters":[` + kg}, []string{`"uncovered"`}},
		{"how many shipments are priced per kg", []string{kg, `"op":"count"`}, []string{`"uncovered"`}},
		{"unit price per kg by country", []string{`"uncovered"`}, nil},
	})
}
