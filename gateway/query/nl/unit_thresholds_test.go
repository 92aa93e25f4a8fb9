package nl

import "testing"

// TestUnitThresholds: a number followed by a unit of a field's unit field is a threshold on
// that field, in that unit; a number followed by a value that is no unit counts things.
func TestUnitThresholds(t *testing.T) {
	kg := `{"source":"transactions","field":"unit","op":"in","values":["kg"]}`
	runParseCases(t, "trade", []parseCase{
		{"Which shipments were 20,000 kg or more?", []string{kg, `"field":"quantity","op":"atLeast","values":[20000]`}, []string{`"uncovered"`}},
		{"declarations of over 500 pcs", []string{`"values":["pcs"]`, `"field":"quantity","op":"greaterThan","values":[500]`}, []string{`"uncovered"`}},
		{"spedizioni di almeno 20000 kg", []string{kg, `"field":"quantity","op":"atLeast","values":[20000]`}, []string{`"uncovered"`}},
		{"how many shipments of 100 pieces or less", []string{`"values":["pcs"]`, `"field":"quantity","op":"atMost","values":[100]`}, []string{`"uncovered"`}},
		{"more than 15 laptops", []string{`"uncovered"`}, []string{`"field":"quantity"`}},
	})
}
