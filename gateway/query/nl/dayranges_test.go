package nl

import "testing"

// TestDayRanges: a range of days inside one month, inclusive, resolved against the data's
// own years when none is given; two days joined by "and" without "between" are two days,
// never the days between them.
func TestDayRanges(t *testing.T) {
	feb := `"ranges":[{"from":"2025-02-10","to":"2025-02-16"}]`
	runParseCases(t, "analytics", []parseCase{
		{"gli ordini di tagliata di manzo dal 10 al 16 febbraio", []string{feb, `"Tagliata di manzo"`}, []string{`"uncovered"`}},
		{"quanti ordini dal 10 fino al 16 febbraio", []string{feb}, []string{`"uncovered"`}},
		{"fatturato dal 10 al 16 febbraio 2025", []string{feb}, []string{`"uncovered"`, "without a year"}},
		{"from the 3rd to the 9th of March", []string{`"ranges":[{"from":"2025-03-03","to":"2025-03-09"}]`}, []string{`"uncovered"`}},
		{"revenue from 3 to 9 March", []string{`"ranges":[{"from":"2025-03-03","to":"2025-03-09"}]`}, []string{`"uncovered"`}},
		{"revenue from the 3rd until the 9th of March", []string{`"ranges":[{"from":"2025-03-03","to":"2025-03-09"}]`}, []string{`"uncovered"`}},
		{"tra il 1 e il 15 aprile", []string{`"ranges":[{"from":"2025-04-01","to":"2025-04-15"}]`}, []string{`"uncovered"`}},
		{"revenue between the 1st and the 15th of April", []string{`"ranges":[{"from":"2025-04-01","to":"2025-04-15"}]`}, []string{`"uncovered"`}},
		{"quanti ordini il 3 e il 9 marzo", []string{`"uncovered"`}, []string{`"from":"2025-03-03"`}},
		{"quanti ordini del tavolo 2 a febbraio", []string{`"field":"table_id","op":"equals","values":[2]`, `"from":"2025-02-01","to":"2025-02-28"`}, []string{`"uncovered"`}},
	})
}
