package nl

import "testing"

// TestTextConditions: a string field named before "begins with", "contains" (or, for a
// field whose values are not read, "in") and a quoted text or one unknown word is a text
// condition; without a quoted text or a field, nothing is guessed.
func TestTextConditions(t *testing.T) {
	runParseCases(t, "trade", []parseCase{
		{"how many declarations were filed by companies whose name begins with 'CÔNG TY'?", []string{`"field":"importCompanyName","op":"startsWith","values":["CÔNG TY"]`, `"op":"count"`}, []string{`"uncovered"`, `"op":"in"`}},
		{"total value of the companies whose name starts with \"Dell\"", []string{`"op":"startsWith","values":["Dell"]`}, []string{`"uncovered"`}},
		{"aziende il cui nome inizia con «CÔNG»", []string{`"op":"startsWith","values":["CÔNG"]`}, []string{`"uncovered"`}},
		{"How many transactions list a company address in Seoul?", []string{`"field":"importCompanyAddress","op":"contains","values":["Seoul"]`}, []string{`"uncovered"`}},
		{"quante dichiarazioni con indirizzo a Seoul nel 2024", []string{`"field":"importCompanyAddress","op":"contains","values":["Seoul"]`, `"label":"2024"`}, []string{`"uncovered"`}},
		{"declarations with an address containing 'Teheran-ro'", []string{`"op":"contains","values":["Teheran-ro"]`}, []string{`"uncovered"`}},
		{"How many transactions list a company address in Seoul Korea?", []string{`"uncovered"`}, nil},
		{"companies whose name begins with Dell", []string{`"uncovered"`}, nil},
		{"imports in Seoul", []string{`"uncovered"`}, nil},
		{"total value for a Shanghai address in 2024", []string{`"field":"importCompanyAddress","op":"contains","values":["Shanghai"]`, `"label":"2024"`}, []string{`"uncovered"`}},
		{"declarations with a Ho Chi Minh address", []string{`"uncovered"`}, []string{`"op":"contains"`}},
	})
}

// TestQuotes: quoted words are marked as one quoted text; apostrophes in and after words
// are not quotes.
func TestQuotes(t *testing.T) {
	ts := tokenize(`what's the companies' total for 'CÔNG TY' and "Dell"`)
	quoted := map[string]int{}
	for _, tk := range ts {
		quoted[tk.orig] = tk.quote
	}
	if quoted["CÔNG"] == 0 || quoted["CÔNG"] != quoted["TY"] || quoted["Dell"] == 0 || quoted["Dell"] == quoted["TY"] {
		t.Fatalf("%+v", ts)
	}
	for _, w := range []string{"the", "companies", "total", "and"} {
		if quoted[w] != 0 {
			t.Errorf("%q read as quoted: %+v", w, ts)
		}
	}
}
