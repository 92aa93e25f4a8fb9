package nl

import "testing"

// TestTextSearch: a mention or about word followed by words that are unknown or inside the
// text fields searches title or description (one contains on any of them), the plural cut,
// an alias by the word it stands for, several texts joined by and/or as either; a value of
// another field after an about word stays that value; a mention of no text is refused.
func TestTextSearch(t *testing.T) {
	text := func(vals string) string {
		return `{"source":"findings","field":"title","op":"contains","values":[` + vals + `],"match":"normalized","or":["description"]}`
	}
	runParseCases(t, "findings", []parseCase{
		{"how many findings mention permits?", []string{text(`"permit"`), `"op":"count"`}, []string{`"uncovered"`, `"op":"in"`}},
		{"which findings have to do with permits?", []string{text(`"permit"`), `"rows":true`}, []string{`"uncovered"`}},
		{"findings about fire safety", []string{text(`"fire safet"`)}, []string{`"uncovered"`}},
		{"rilievi che parlano di sicurezza", []string{text(`"sicurezza"`)}, []string{`"uncovered"`}},
		{"quanti rilievi riguardano le infiltrazioni?", []string{text(`"leak"`)}, []string{`"uncovered"`}},
		{"show findings containing the word asbestos", []string{text(`"asbesto"`)}, []string{`"uncovered"`}},
		{"findings about fire or leaks", []string{text(`"fire","leak"`)}, []string{`"uncovered"`}},
		{"how many open findings mention leaks in 2024", []string{text(`"leak"`), `"values":["Open"]`, `"from":"2024-01-01"`}, []string{`"uncovered"`}},
		{"findings related to hotels", []string{`"values":["Hotel"]`}, []string{`"contains"`, `"uncovered"`}},
		{"how many findings mention hotels", []string{`"uncovered":["what \"mention\" asks to find in the text"]`}, nil},
	})
	runParseCases(t, "clinical", []parseCase{
		// A value that a text word would hide stays the value.
		{"how many AEs were assessed as related to study drug", []string{`"values":["RELATED"]`}, []string{`"contains"`}},
	})
}

// TestFraming: "among <field>, which one ... the most/fewest" ranks the field; "just the
// ids", "solo gli id" in a listing are the columns to look at, which the rows carry.
func TestFraming(t *testing.T) {
	runParseCases(t, "findings", []parseCase{
		{"among the project types we actually have findings for, which one has the fewest?", []string{`"groupBy":{"source":"findings","field":"projectType"}`, `"desc":false`, `"limit":1`}, []string{`"uncovered"`}},
		{"tra i tipi di progetto per cui abbiamo rilievi, quale ne ha meno?", []string{`"field":"projectType"`, `"desc":false`}, []string{`"uncovered"`}},
		{"fra i reparti, quale ha più rilievi critici?", []string{`"field":"department"`, `"desc":true`, `"values":["Critical"]`}, []string{`"uncovered"`}},
		{"list the critical findings, only the ids", []string{`"rows":true`, `"values":["Critical"]`}, []string{`"uncovered"`}},
		{"elenca i rilievi aperti, solo gli id", []string{`"rows":true`, `"values":["Open"]`}, []string{`"uncovered"`}},
		{"how many findings, only the ids", []string{`"uncovered"`}, nil},
	})
}

// TestValueAfterField: an alias that is also a lexicon word ("media": average, and Medium)
// is the value right after its field's word, the lexicon's word elsewhere; a value's own
// name ("Primi") is the value everywhere.
func TestValueAfterField(t *testing.T) {
	runParseCases(t, "findings", []parseCase{
		{"quanti rilievi di gravità media per il reparto Quality?", []string{`"values":["Medium"]`, `"values":["Quality"]`}, []string{`"uncovered"`}},
		{"quanti rilievi con priorità media nel 2024", []string{`"values":["Medium"]`}, []string{`"uncovered"`}},
		{"rilievi di gravità minore", []string{`"values":["Low"]`}, []string{`"uncovered"`}},
		{"media dei rilievi per anno", []string{`"averagePer"`}, []string{`"Medium"`, `"uncovered"`}},
	})
	runParseCases(t, "analytics", []parseCase{
		{"Pizze vs Primi: fatturato", []string{`"label":"Primi"`}, []string{`"uncovered"`}},
	})
}

// TestSetsAndPeriods: a vs between two periods makes the periods the sides, the values
// joined by + (or and) one set both count; a word listed under several values names them
// all, and a parenthesis listing the same values agrees with it.
func TestSetsAndPeriods(t *testing.T) {
	runParseCases(t, "findings", []parseCase{
		{"Compare high+critical findings in 2022 vs 2025", []string{`"values":["High","Critical"]`, `"label":"2022"`, `"label":"2025"`}, []string{`"uncovered"`, `"label":"High"`}},
		{"confronta i rilievi critici e alti nel 2022 rispetto al 2025", []string{`"values":["Critical","High"]`, `"label":"2022"`}, []string{`"uncovered"`}},
		{"compare hotel vs school findings in 2024", []string{`"label":"Hotel"`, `"label":"School"`}, []string{`"uncovered"`}},
		{"how many findings for education projects (schools + universities)?", []string{`"values":["School","University"]`}, []string{`"uncovered"`}},
		{"quanti rilievi nei progetti sanitari?", []string{`"values":["Clinic","Hospital"]`}, []string{`"uncovered"`}},
		{"how many findings for education projects (schools + hotels)?", []string{`"uncovered"`}, nil},
	})
}
