package nl

import "testing"

// TestWeekdays: the days of the week, through every phrasing: a day, a set (the weekend,
// the weekdays), a range, an exclusion, a comparison and a breakdown by the day of the week.
func TestWeekdays(t *testing.T) {
	weekend := `"op":"in","values":[0,6],"part":"weekday"`
	runParseCases(t, "analytics", []parseCase{
		{"quanto abbiamo fatturato nei weekend (sabato e domenica)?", []string{weekend, `"metric":"revenue"`, `read as Saturday, Sunday`}, []string{`"uncovered"`}},
		{"revenue at the weekend", []string{weekend}, []string{`"uncovered"`}},
		{"fatturato nel fine settimana", []string{weekend}, []string{`"uncovered"`}},
		{"revenue on Saturdays and Sundays", []string{`"values":[6,0],"part":"weekday"`}, []string{`"uncovered"`}},
		{"revenue on Mondays", []string{`"values":[1],"part":"weekday"`}, []string{`"uncovered"`}},
		{"quanto abbiamo fatturato il venerdì a marzo", []string{`"values":[5],"part":"weekday"`, `"from":"2025-03-01"`}, []string{`"uncovered"`}},
		{"fatturato dal lunedì al giovedì", []string{`"values":[1,2,3,4],"part":"weekday"`}, []string{`"uncovered"`}},
		{"revenue from Friday to Sunday", []string{`"values":[5,6,0],"part":"weekday"`}, []string{`"uncovered"`}},
		{"revenue excluding weekends", []string{`"op":"notIn","values":[0,6],"part":"weekday"`}, []string{`"uncovered"`}},
		{"quanti ordini nei giorni feriali", []string{`"values":[1,2,3,4,5],"part":"weekday"`, `"op":"count"`}, []string{`"uncovered"`}},
		{"weekdays vs weekend revenue", []string{`"label":"weekdays"`, `"label":"weekend"`}, []string{`"uncovered"`}},
		{"confronta il fatturato del sabato e della domenica", []string{`"label":"Saturday"`, `"label":"Sunday"`}, []string{`"uncovered"`}},
		// Every day at once is no condition the question can mean; two sets far apart are two.
		{"revenue on weekdays and weekends", []string{`"uncovered":["Monday, Tuesday, Wednesday, Thursday, Friday and Saturday, Sunday together are every day`}, nil},
		{"orders by day of the week", []string{`"grain":"weekday"`, `"op":"count"`}, []string{`"uncovered"`, `"order"`}},
		{"quanti ordini per giorno della settimana", []string{`"grain":"weekday"`}, []string{`"uncovered"`}},
		{"which day of the week has the most orders", []string{`"grain":"weekday"`, `"limit":1`, `"desc":true`}, []string{`"uncovered"`}},
	})
}
