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

// TestPerEntity: an aggregate of the fact's count per entity says which entities it is
// over — every subject ("per subject": ADSL's rows), or those with rows ("each subject with
// at least one AE": the distinct keys) — and refuses when the question leaves it unsaid.
func TestPerEntity(t *testing.T) {
	all := `"averagePer":{"source":"adsl","field":""}`
	withRows := `"averagePer":{"source":"adae","field":"USUBJID"}`
	runParseCases(t, "clinical", []parseCase{
		{"avg number of AEs per randomized subject", []string{all, `"op":"count"`}, []string{`"uncovered"`, `"exists"`}},
		{"average events per subject", []string{all}, []string{`"uncovered"`}},
		{"numero medio di eventi avversi per paziente", []string{all}, []string{`"uncovered"`}},
		{"average number of severe AEs per patient", []string{all, `"values":["SEVERE"]`}, []string{`"uncovered"`}},
		{"On average, how many AEs did each subject with at least one AE report?", []string{withRows}, []string{`"uncovered"`, `"perOp"`}},
		{"average number of AEs per patient who had an AE", []string{withRows}, []string{`"uncovered"`}},
		{"max number of AEs reported by a single subject?", []string{withRows, `"perOp":"max"`}, []string{`"uncovered"`}},
		{"average number of severe AEs per patient who had an AE", []string{`"uncovered"`}, nil},
		{"mean AEs per subject by arm", []string{`"uncovered"`}, nil},
	})
}

// TestHowOld: "how old" names the age; with a superlative it asks for the max or min age,
// not for the oldest patient's row; an average word a few fillers away still applies to it.
func TestHowOld(t *testing.T) {
	runParseCases(t, "clinical", []parseCase{
		{"How old is the oldest patient?", []string{`"op":"max","field":"AGE"`}, []string{`"rows"`, `"uncovered"`}},
		{"how old is the youngest subject", []string{`"op":"min","field":"AGE"`}, []string{`"rows"`, `"uncovered"`}},
		{"how old are the patients on average", []string{`"op":"average","field":"AGE"`}, []string{`"uncovered"`}},
		{"quanti anni ha il paziente più anziano?", []string{`"op":"max","field":"AGE"`}, []string{`"uncovered"`}},
		{"how old was the oldest patient with a severe AE", []string{`"op":"max","field":"AGE"`, `"values":["SEVERE"]`}, []string{`"uncovered"`}},
		{"the oldest patient", []string{`"rows":true`, `"field":"AGE","desc":true`}, nil},
	})
}

// TestStudyDay: a day number of the study is a condition on the field declared day_of
// (ADAE's ASTDY), and "study day"/"onset day" name it; days of a calendar period are not.
func TestStudyDay(t *testing.T) {
	astdy := func(op, v string) string { return `"field":"ASTDY","op":"` + op + `","values":[` + v + `]` }
	runParseCases(t, "clinical", []parseCase{
		{"How many AEs had onset within the first 14 days of treatment?", []string{astdy("atMost", "14")}, []string{`"uncovered"`, `"limit"`}},
		{"eventi avversi entro i primi 14 giorni", []string{astdy("atMost", "14")}, []string{`"uncovered"`, `"limit"`}},
		{"how many AEs with onset after day 60, excluding placebo?", []string{astdy("greaterThan", "60"), `"op":"notIn","values":["Placebo"]`}, []string{`"uncovered"`}},
		{"AEs after the first 60 days", []string{astdy("greaterThan", "60")}, []string{`"uncovered"`}},
		{"AEs before day 8", []string{astdy("lessThan", "8")}, []string{`"uncovered"`}},
		{"serious AEs on day 1", []string{astdy("equals", "1")}, []string{`"uncovered"`}},
		{"how many patients had an AE in the first 30 days", []string{`"source":"adsl"`, astdy("atMost", "30")}, []string{`"uncovered"`}},
		{"what is the average study day of AE onset?", []string{`"op":"average","field":"ASTDY"`}, []string{`"rows"`, `"uncovered"`}},
		{"AEs in the first 10 days of March 2024", nil, []string{`"ASTDY"`}},
	})
	runParseCases(t, "analytics", []parseCase{
		{"revenue after day 10", []string{`"uncovered"`}, nil}, // no day number field: "after" is not dropped
	})
}

// TestChatAbbreviations: the short forms users type for words the vocabulary knows.
func TestChatAbbreviations(t *testing.T) {
	runParseCases(t, "clinical", []parseCase{
		{"how many severe AEs were there in the high-dose grp?", []string{`"values":["High Dose"]`, `"values":["SEVERE"]`}, []string{`"uncovered"`}},
		{"no. of subjs by arm", []string{`"unit":"patients"`, `"field":"ARM"`}, []string{`"uncovered"`}},
		{"how many pts w/ a severe AE", []string{`"unit":"patients"`, `"values":["SEVERE"]`}, []string{`"uncovered"`}},
		{"how many pts w/o AEs", []string{`"not":true`}, []string{`"uncovered"`}},
		{"pct of pts with a serious AE", []string{`"share"`}, []string{`"uncovered"`}},
	})
}

// TestUnitNegation: "X, not Y" with X and Y both things counted says what is not counted;
// it is no condition. A negation before a value, a verb, or rows that may be lacking ("how
// many patients did not have AEs") keeps its reading.
func TestUnitNegation(t *testing.T) {
	runParseCases(t, "clinical", []parseCase{
		{"AE count by arm (events, not subjects)", []string{`"op":"count","unit":"events"`, `"groupBy":{"source":"adsl","field":"ARM"}`, "not counted"}, []string{`"uncovered"`, `"exists"`}},
		{"count events not subjects by arm", []string{`"unit":"events"`, `"field":"ARM"`}, []string{`"uncovered"`}},
		{"AEs not placebo", []string{`"op":"notIn","values":["Placebo"]`}, []string{"not counted"}},
		{"how many patients did not have AEs", []string{`"uncovered"`}, []string{"not counted"}},
		{"how many subjects not AEs", []string{`"uncovered"`}, []string{"not counted"}},
	})
	runParseCases(t, "analytics", []parseCase{
		{"quanti clienti diversi sono venuti (clienti unici, non ordini)", []string{`"op":"count_distinct","field":"customer_id"`}, []string{`"uncovered"`}},
		{"quanti ordini, non clienti", []string{`"op":"count","unit":"orders"`}, []string{`"uncovered"`, `"customer_id"`}},
	})
}

// TestPeriodOfData: "the last N months of the data" ends at the data's last month, in whole
// calendar months, with a note; without the anchor the period is still taken against now.
func TestPeriodOfData(t *testing.T) {
	runParseCases(t, "clinical", []parseCase{
		{"I'd like to know how many AEs started in the last two calendar months covered by the AE data", []string{`"ranges":[{"from":"2024-09-01","to":"2024-10-27"}]`, "last day"}, []string{`"uncovered"`}},
		{"eventi avversi negli ultimi 2 mesi dei dati", []string{`"ranges":[{"from":"2024-09-01","to":"2024-10-27"}]`}, []string{`"uncovered"`}},
		{"AEs in the last two months", []string{`"uncovered"`}, nil},
	})
	runParseCases(t, "analytics", []parseCase{
		{"gross margin % for the last two months of the data", []string{`"ranges":[{"from":"2025-04-01","to":"2025-05-31"}]`, "the last 2 months of the data"}, []string{`"uncovered"`}},
		{"revenue in the last 10 days of the data", []string{`"ranges":[{"from":"2025-05-22","to":"2025-05-31"}]`}, []string{`"uncovered"`}},
	})
}
