package nl

import "testing"

// TestYearSoFar: "da inizio anno", "since the start of the year", "year to date", "YTD"
// run from the first of January of the data's last year to its last day, with a note; a
// named year is its own; "this year" is today's; a vague "inizio anno" is no start.
func TestYearSoFar(t *testing.T) {
	ytd := `"ranges":[{"from":"2025-01-01","to":"2025-05-31"}]`
	note := `the year so far is read in the data's last year`
	runParseCases(t, "analytics", []parseCase{
		{"Chi è il cameriere che ha portato più fatturato da inizio anno?", []string{ytd, note, `"field":"waiter"`}, []string{`"uncovered"`}},
		{"fatturato dall'inizio dell'anno", []string{ytd, note, `"metric":"revenue"`}, []string{`"uncovered"`}},
		{"quanti ordini da inizio d'anno ad oggi?", []string{ytd, `"op":"count"`}, []string{`"uncovered"`}},
		{"revenue since the start of the year", []string{ytd, note}, []string{`"uncovered"`}},
		{"orders from the beginning of the year to date", []string{ytd}, []string{`"uncovered"`}},
		{"year to date revenue by category", []string{ytd, `"field":"category"`}, []string{`"uncovered"`}},
		{"fatturato YTD", []string{ytd, note}, []string{`"uncovered"`}},
		{"food cost a partire dall'inizio dell'anno", []string{ytd}, []string{`"uncovered"`}},
		{"fatturato dall'inizio del 2025", []string{ytd}, []string{`"uncovered"`, note}},
		// This year is today's: the data (2025) has nothing for it.
		{"revenue since the start of this year", []string{`"uncovered":["the data covers`}, nil},
		// A vague start stays unread, and so does a start with no year.
		{"fatturato a inizio anno", []string{`"uncovered"`}, nil},
		{"fatturato dall'inizio", []string{`"uncovered"`}, nil},
	})
}
