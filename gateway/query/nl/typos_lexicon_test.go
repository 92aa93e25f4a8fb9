package nl

import "testing"

// TestLexiconTypos: a typo of one of the few long generic words (lexiconTargets) is read as
// it, with a note; a typo one edit from another word of the lexicon too is not guessed.
func TestLexiconTypos(t *testing.T) {
	runParseCases(t, "trade", []parseCase{
		{"how many diffrent companies imported LED TVs?", []string{`"op":"count_distinct","field":"importCompanyName"`, `\"diffrent\" read as \"different\"`}, []string{`"uncovered"`}},
		{"avrage unit price of steel", []string{`"op":"average","field":"unitPriceUSD"`, `read as \"average\"`}, []string{`"uncovered"`}},
		{"percentge of declarations in kg", []string{`"share"`, `read as \"percentage\"`}, []string{`"uncovered"`}},
		{"value distribuiton by country", []string{`"groupBy":{"source":"transactions","field":"importCountry"}`, `read as \"distribution\"`}, []string{`"uncovered"`}},
		// "distinet" is one edit from distinct and from distinte (Italian): not guessed.
		{"how many distinet companies", []string{`"uncovered"`}, []string{"read as"}},
	})
}
