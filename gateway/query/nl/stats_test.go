package nl

import "testing"

// TestMedian: the median of a numeric field, alone or per group of the same source, in
// English and Italian; a median of something that is no field (a count per subject, a
// total) and the other statistics stay refused.
func TestMedian(t *testing.T) {
	median := `"measures":[{"op":"median","field":"AGE","unit":"years"}]`
	runParseCases(t, "clinical", []parseCase{
		{"whats the median age of the subjects?", []string{median}, []string{`"uncovered"`}},
		{"median age by arm", []string{median, `"groupBy":{"source":"adsl","field":"ARM"}`}, []string{`"uncovered"`}},
		{"età mediana dei pazienti per sesso", []string{median, `"field":"SEX"`}, []string{`"uncovered"`}},
		{"What is the median treatment duration in days?", []string{`"op":"median","field":"TRTDURD"`}, []string{`"uncovered"`}},
		{"median age of subjects with a severe AE", []string{median, `"values":["SEVERE"]`}, []string{`"uncovered"`}},
		{"median number of AEs per subject", []string{`"uncovered"`}, nil},
		{"what's the 90th percentile of age", []string{`"uncovered"`}, nil},
	})
	runParseCases(t, "analytics", []parseCase{
		{"median unit price by category", []string{`"op":"median","field":"unit_price"`, `"field":"category"`}, []string{`"uncovered"`}},
		{"median revenue per day", []string{`"uncovered"`}, nil},
	})
}
