package nl

import "testing"

// TestNumberLists: numbers listed after a field's word are one condition with the set of
// them; a number that something after it claims (a count, a threshold) is not listed, and
// a question that compares or ranks the listed numbers does not read them as a set.
func TestNumberLists(t *testing.T) {
	runParseCases(t, "clinical", []parseCase{
		{"Quanti eventi moderati o severi nei pazienti dei centri 101 e 102?", []string{`"field":"SITEID","op":"in","values":["101","102"]`}, []string{`"uncovered"`}},
		{"How many patients at sites 101 and 103?", []string{`"field":"SITEID","op":"in","values":["101","103"]`}, []string{`"uncovered"`}},
		{"patients at sites 101, 102 or 104", []string{`"values":["101","102","104"]`}, []string{`"uncovered"`}},
		{"how many patients at sites 101 and 102 are older than 60", []string{`"values":["101","102"]`, `"field":"AGE","op":"greaterThan"`}, []string{`"uncovered"`}},
		{"patients at site 101 and 2 or more AEs", []string{`"field":"SITEID","op":"equals","values":["101"]`, `"min":2`}, []string{`"op":"in"`}},
		{"which of sites 101 and 102 has the most AEs", []string{`"uncovered"`}, nil},
		{"patients at site 101 and site 102", []string{`"uncovered"`}, nil},
	})
	runParseCases(t, "analytics", []parseCase{
		{"revenue of tables 3, 5 and 7", []string{`"field":"table_id","op":"in","values":[3,5,7]`}, []string{`"uncovered"`}},
		{"ricavi dei tavoli 3 e 5", []string{`"field":"table_id","op":"in","values":[3,5]`}, []string{`"uncovered"`}},
		{"which waiter sold the most at tables 3 and 5", []string{`"uncovered"`}, nil},
		{"compare revenue of tables 3 and 5", []string{`"uncovered"`}, nil},
		{"compare revenue of table 3 and table 5", []string{`"uncovered"`}, nil},
	})
}

// TestItalianBodySystems: the organ classes and terms read from the data are named by
// their Italian words ("sistema nervoso", "disturbi gastrointestinali", "cefalee").
func TestItalianBodySystems(t *testing.T) {
	runParseCases(t, "clinical", []parseCase{
		{"Quanti eventi avversi del sistema nervoso ci sono stati nel braccio ad alto dosaggio?", []string{`"op":"count"`, `"values":["Nervous system disorders"]`, `"values":["High Dose"]`}, []string{`"uncovered"`}},
		{"quanti disturbi gastrointestinali nel braccio placebo", []string{`"op":"count"`, `"values":["Gastrointestinal disorders"]`}, []string{`"uncovered"`}},
		{"quanti eventi avversi delle patologie della cute", []string{`"values":["Skin and subcutaneous tissue disorders"]`}, []string{`"uncovered"`}},
		{"infezioni ed infestazioni per braccio", []string{`"values":["Infections and infestations"]`, `"field":"ARM"`}, []string{`"uncovered"`}},
		{"quanti eventi nella sede di somministrazione", []string{`"values":["General disorders and administration site conditions"]`}, []string{`"uncovered"`}},
		{"quante cefalee nel braccio placebo", []string{`"values":["Headache"]`}, []string{`"uncovered"`}},
		{"quanti eventi di spossatezza", []string{`"values":["Fatigue"]`}, []string{`"uncovered"`}},
	})
}

// TestEntityOnAverage: "a patient", "the average patient", "un paziente ... in media" are the
// average per subject, as "per subject" is: the AE count over the subjects, whose own
// conditions narrow both; by a dimension it stays refused.
func TestEntityOnAverage(t *testing.T) {
	per := `"averagePer":{"source":"adsl","field":""}`
	runParseCases(t, "clinical", []parseCase{
		{"On average how many AEs does a patient in the low dose arm have?", []string{per, `"values":["Low Dose"]`, `"op":"count"`}, []string{`"uncovered"`, `"exists"`}},
		{"how many AEs does each patient have on average", []string{per}, []string{`"uncovered"`}},
		{"quanti eventi avversi ha in media un paziente", []string{per}, []string{`"uncovered"`, `"exists"`}},
		{"how many AEs does the average patient have", []string{per}, []string{`"uncovered"`, `"exists"`}},
		{"quanti eventi avversi ha il paziente medio", []string{per}, []string{`"uncovered"`}},
		{"on average how many AEs does a patient with at least one AE have", []string{`"averagePer":{"source":"adae","field":"USUBJID"}`}, []string{`"uncovered"`}},
		{"on average how many AEs does a patient have by arm", []string{`"uncovered"`}, nil},
		{"average age of a patient with AEs", []string{`"op":"average","field":"AGE"`}, []string{`"averagePer"`}},
	})
}

// TestRowsBySuperlative: rows named with a superlative of a field — before the noun, after
// it (Italian, "with the …"), or with "who" — are the rows ordered by that field; the
// field named first asks for the value, and counting the rows with the extreme is refused.
func TestRowsBySuperlative(t *testing.T) {
	runParseCases(t, "clinical", []parseCase{
		{"Which three patients were on treatment the longest?", []string{`"rows":true`, `"field":"TRTDURD","desc":true`, `"limit":3`}, []string{`"uncovered"`}},
		{"the 5 youngest patients", []string{`"rows":true`, `"field":"AGE","desc":false`, `"limit":5`}, []string{`"uncovered"`}},
		{"i 3 pazienti più giovani", []string{`"rows":true`, `"field":"AGE","desc":false`, `"limit":3`}, []string{`"uncovered"`, `"measures"`}},
		{"quali 3 pazienti sono stati in trattamento più a lungo", []string{`"rows":true`, `"field":"TRTDURD","desc":true`, `"limit":3`}, []string{`"uncovered"`}},
		{"list the 3 patients with the shortest treatment duration", []string{`"rows":true`, `"field":"TRTDURD","desc":false`, `"limit":3`}, []string{`"uncovered"`}},
		{"the patient with the highest age", []string{`"rows":true`, `"field":"AGE","desc":true`, `"limit":1`}, []string{`"uncovered"`}},
		{"il paziente più anziano", []string{`"rows":true`, `"field":"AGE","desc":true`}, []string{`"uncovered"`}},
		{"who was on treatment the longest", []string{`"rows":true`, `"field":"TRTDURD","desc":true`}, []string{`"uncovered"`}},
		{"who is the oldest", []string{`"rows":true`, `"field":"AGE","desc":true`}, []string{`"uncovered"`}},
		{"l'età dei pazienti più giovani", []string{`"op":"min","field":"AGE"`}, []string{`"rows"`}},
		{"longest treatment duration", []string{`"op":"max","field":"TRTDURD"`}, []string{`"rows"`, `"uncovered"`}},
		{"how many patients are the oldest", []string{`"uncovered"`}, nil},
		{"number of patients with the highest age", []string{`"uncovered"`}, nil},
	})
}

// TestAveragedSuperlative: groups ranked by a field's superlative "on average" are ranked
// by the field's average, in the superlative's direction.
func TestAveragedSuperlative(t *testing.T) {
	runParseCases(t, "clinical", []parseCase{
		{"Which site has the youngest patients on average?", []string{`"op":"average","field":"AGE"`, `"field":"SITEID"`, `"desc":false`, `"limit":1`}, []string{`"uncovered"`}},
		{"which arm has the oldest patients on average", []string{`"op":"average","field":"AGE"`, `"field":"ARM"`, `"desc":true`}, []string{`"uncovered"`}},
		{"quale braccio ha in media i pazienti più anziani", []string{`"op":"average","field":"AGE"`, `"field":"ARM"`, `"desc":true`}, []string{`"uncovered"`}},
		{"which site has the youngest patients", []string{`"op":"min","field":"AGE"`}, []string{`"average"`}},
	})
}

// TestMonthOfOnset: a breakdown by the month of a date ("by the month they started", "by
// onset month", "per mese di insorgenza") groups by that date's month, never by its day.
func TestMonthOfOnset(t *testing.T) {
	month := `"groupBy":{"source":"adae","field":"ASTDT","grain":"month"}`
	runParseCases(t, "clinical", []parseCase{
		{"Can you break down the adverse events by the month they started?", []string{month, `"op":"count"`}, []string{`"uncovered"`, `"rows"`}},
		{"AEs per month of onset", []string{month}, []string{`"uncovered"`}},
		{"AEs by onset month", []string{month}, []string{`"uncovered"`, `"grain":"day"`}},
		{"eventi avversi per mese di insorgenza", []string{month}, []string{`"uncovered"`, `"grain":"day"`}},
		{"pazienti per mese di randomizzazione", []string{`"field":"RANDDT","grain":"month"`}, []string{`"uncovered"`}},
	})
	runParseCases(t, "analytics", []parseCase{
		{"revenue by the category", []string{`"groupBy":{"source":"orders","field":"category"}`}, []string{`"uncovered"`}},
	})
}

// TestMembershipFraming: "part of", "belong to", "fanno parte di" frame the condition that
// follows, negated or not.
func TestMembershipFraming(t *testing.T) {
	runParseCases(t, "clinical", []parseCase{
		{"Which subjects are not part of the ITT population?", []string{`"field":"ITTFL","op":"notIn","values":["Y"]`, `"rows":true`}, []string{`"uncovered"`}},
		{"quali pazienti non fanno parte della popolazione ITT", []string{`"field":"ITTFL","op":"notIn"`}, []string{`"uncovered"`}},
		{"how many patients belong to the placebo arm", []string{`"op":"count"`, `"values":["Placebo"]`}, []string{`"uncovered"`}},
		{"quanti pazienti appartengono al braccio placebo", []string{`"op":"count"`, `"values":["Placebo"]`}, []string{`"uncovered"`}},
	})
}

// TestTradeActorsAndDistinct: the actor's word framing a condition on another field is no
// condition of its own wherever the measure is the rows' own; distinct values per group,
// and "the widest range of" goods, are counted distinct.
func TestTradeActorsAndDistinct(t *testing.T) {
	seoul := `"field":"importCompanyAddress","op":"contains","values":["Seoul"]`
	distinctGoods := `"op":"count_distinct","field":"goodsName"`
	byCompany := `"groupBy":{"source":"transactions","field":"importCompanyName"}`
	runParseCases(t, "trade", []parseCase{
		{"How much did companies with a Seoul address import?", []string{`"metric":"total_value"`, seoul}, []string{`"uncovered"`, `"groupBy"`}},
		{"quanto hanno importato le aziende con indirizzo a Seoul", []string{`"metric":"total_value"`, seoul}, []string{`"uncovered"`}},
		{"how many companies with a Seoul address", []string{`"op":"count_distinct","field":"importCompanyName"`, seoul}, []string{`"uncovered"`}},
		{"value of companies with value over 1000000", []string{`"uncovered"`}, nil},
		{"number of distinct products per company", []string{distinctGoods, byCompany}, []string{`"uncovered"`}},
		{"quanti prodotti diversi per azienda", []string{distinctGoods, byCompany}, []string{`"uncovered"`}},
		{"Which company imported the widest range of different goods?", []string{distinctGoods, byCompany, `"desc":true`, `"limit":1`}, []string{`"uncovered"`}},
		{"quale azienda ha importato la più ampia varietà di prodotti", []string{distinctGoods, byCompany}, []string{`"uncovered"`}},
		{"which company had the widest range of unit prices", []string{`"uncovered"`}, nil},
	})
}

// TestShareOfPeriod: a period named after the rows, with no value after them, is the
// share's condition ("what share of all declarations are from 2023"); a period before the
// rows stays their scope.
func TestShareOfPeriod(t *testing.T) {
	share2023 := `"share":{"time":[{"source":"transactions","field":"date","ranges":[{"from":"2023-01-01","to":"2023-12-31"}]`
	runParseCases(t, "trade", []parseCase{
		{"What share of all declarations are from 2023?", []string{share2023, `"op":"count"`}, []string{`"uncovered"`}},
		{"percentuale delle dichiarazioni del 2023", []string{share2023}, []string{`"uncovered"`}},
		{"what percentage of Japan's declarations are from 2023", []string{share2023, `"filters":[{"source":"transactions","field":"importCountry","op":"in","values":["Japan"]}]`}, []string{`"uncovered"`}},
		{"what percentage of 2023 declarations are from Japan", []string{`"share":{"filters":[{"source":"transactions","field":"importCountry"`}, []string{`"share":{"time"`}},
		{"share of declarations by country in 2023", []string{`"time":[{"source":"transactions","field":"date"`, `"groupBy"`}, []string{`"share":{"time"`}},
	})
}
