package nl

import "testing"

// TestPeriodChange: a change word over one period from one end to the other compares the
// two ends (EN and IT); a change with no two ends, or ranked per group, stays unread.
func TestPeriodChange(t *testing.T) {
	sides := []string{`"compare":{"sides":[{"label":"2023"`, `{"label":"2024"`}
	runParseCases(t, "trade", []parseCase{
		{"has the average unit price of steel changed from 2023 to 2024?", append([]string{`"op":"average","field":"unitPriceUSD"`}, sides...), []string{`"uncovered"`, `"2023..2024"`}},
		{"how did the import value of Japan change between 2023 and 2024", append([]string{`"metric":"total_value"`}, sides...), []string{`"uncovered"`}},
		{"did imports from Japan go up from 2023 to 2024", sides, []string{`"uncovered"`, `"rows"`}},
		{"il valore importato dal Giappone è aumentato dal 2023 al 2024?", sides, []string{`"uncovered"`}},
		{"has the import value changed since 2023", []string{`"uncovered"`}, nil},
		{"did the import value of Japan increase in 2024", []string{`"uncovered"`}, nil},
		{"which country's import value grew the most from 2023 to 2024", []string{`"uncovered"`}, nil},
	})
	runParseCases(t, "analytics", []parseCase{
		{"did revenue drop from March to April", []string{`"label":"2025-03"`, `"label":"2025-04"`}, []string{`"uncovered"`}},
	})
}
