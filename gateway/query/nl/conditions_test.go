package nl

import "testing"

// TestShareCondition: a share's condition is the last condition named, with every other
// condition on its field (an exclusion that narrows it), not the exclusion alone.
func TestShareCondition(t *testing.T) {
	runParseCases(t, "clinical", []parseCase{
		{"What percentage of patients had at least one AE assessed as RELATED (not counting 'possibly related')?",
			[]string{`"share":{"filters":[{"source":"adae","field":"AEREL","op":"in","values":["RELATED"]},{"source":"adae","field":"AEREL","op":"notIn"`}, []string{`"uncovered"`}},
	})
	runParseCases(t, "findings", []parseCase{
		{"what percentage of open findings are high", []string{`"filters":[{"source":"findings","field":"status"`, `"share":{"filters":[{"source":"findings","field":"severity","op":"in","values":["High"]}]}`}, []string{`"uncovered"`}},
	})
}

// TestUnitThreshold: a number followed by a unit word is a condition on the one numeric
// field measured in that unit ("65 anni": AGE, in years); two such fields, or none, leave
// the number unexplained.
func TestUnitThreshold(t *testing.T) {
	runParseCases(t, "clinical", []parseCase{
		{"quanti pazienti hanno 65 anni o più?", []string{`"field":"AGE","op":"atLeast","values":[65]`}, []string{`"uncovered"`}},
		{"pazienti con più di 65 anni", []string{`"field":"AGE","op":"greaterThan","values":[65]`}, []string{`"uncovered"`}},
		{"how many patients under 40 years in the placebo arm", []string{`"field":"AGE","op":"lessThan","values":[40]`, `"Placebo"`}, []string{`"uncovered"`}},
		{"how many patients 60 days or more", []string{`"field":"TRTDURD","op":"atLeast","values":[60]`}, []string{`"uncovered"`}},
		{"how many patients over 3 months", []string{`"uncovered"`}, nil},
	})
}
