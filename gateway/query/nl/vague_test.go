package nl

import "testing"

// TestVaguePeriods: an explicit period after vague words and a year is the period, the
// year lent to it ("towards the end of 2024, Oct-Dec" is one period, not two); a vague
// period alone stays unread; a year and a period of another year stay two.
func TestVaguePeriods(t *testing.T) {
	q4 := `"ranges":[{"from":"2024-10-01","to":"2024-12-31"}]`
	runParseCases(t, "findings", []parseCase{
		{"how many findings were raised towards the end of 2024, Oct-Dec?", []string{q4}, []string{`"uncovered"`}},
		{"quanti rilievi verso la fine del 2024 (ott-dic)?", []string{q4}, []string{`"uncovered"`}},
		{"findings in 2024, Q4", []string{q4}, []string{`"uncovered"`}},
		{"how many findings in early 2024, i.e. Jan to Mar?", []string{`"ranges":[{"from":"2024-01-01","to":"2024-03-31"}]`}, []string{`"uncovered"`}},
		{"findings at the end of 2024", []string{`"uncovered":["the data has nothing called \"end\""]`}, nil},
		{"findings in 2023, March 2024", []string{`"uncovered":["several separate periods in one question"]`}, nil},
	})
	runParseCases(t, "analytics", []parseCase{
		{"ticket medio dei secondi ad inizio anno (gen-feb)", []string{`"ranges":[{"from":"2025-01-01","to":"2025-02-28"}]`}, []string{`"uncovered"`}},
		{"fatturato a inizio anno", []string{`"uncovered"`}, nil},
	})
	runParseCases(t, "trade", []parseCase{
		{"import value in early 2024, i.e. Jan to Mar", []string{`"ranges":[{"from":"2024-01-01","to":"2024-03-31"}]`}, []string{`"uncovered"`}},
	})
}
