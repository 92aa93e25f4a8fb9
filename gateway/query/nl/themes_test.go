package nl

import "testing"

// The themes of issue 16, each read at its cause. The questions are phrased here, not taken
// from the independent sets (examples/*/questions.jsonl), which check the values end to end.

// TestDates: one date model — instants, ranges (since, between days, between months and
// years, from-to, English and Italian), months and quarters resolved against the data's
// own range (not today), a month word inside a range never overriding the range, and
// periods the data does not cover refused.
func TestDates(t *testing.T) {
	runParseCases(t, "analytics", []parseCase{
		{"revenue since February 2025", []string{`"ranges":[{"from":"2025-02-01","to":"2025-05-31"}]`}, nil},
		{"fatturato dal 10 marzo", []string{`"ranges":[{"from":"2025-03-10","to":"2025-05-31"}]`}, nil},
		{"revenue between 3 and 9 February", []string{`"ranges":[{"from":"2025-02-03","to":"2025-02-09"}]`}, nil},
		{"fatturato tra il 3 e il 9 febbraio", []string{`"ranges":[{"from":"2025-02-03","to":"2025-02-09"}]`}, nil},
		{"fatturato tra marzo e aprile", []string{`"ranges":[{"from":"2025-03-01","to":"2025-04-30"}]`}, nil},
		{"incasso da febbraio ad aprile", []string{`"ranges":[{"from":"2025-02-01","to":"2025-04-30"}]`}, nil},
		{"fatturato da aprile in poi", []string{`"ranges":[{"from":"2025-04-01","to":"2025-05-31"}]`}, nil},
		{"revenue until February", []string{`"ranges":[{"from":"2025-01-01","to":"2025-02-28"}]`}, nil},
		{"fatturato di aprile", []string{`"ranges":[{"from":"2025-04-01","to":"2025-04-30"}]`}, []string{"2026"}},
		{"revenue in the first quarter", []string{`"ranges":[{"from":"2025-01-01","to":"2025-03-31"}]`}, nil},
		{"food cost Q2 2025", []string{`"ranges":[{"from":"2025-04-01","to":"2025-06-30"}]`, "covers 2025-01-01 to 2025-05-31 only"}, nil},
		{"fatturato del 2 gennaio", []string{`"ranges":[{"from":"2025-01-02","to":"2025-01-02"}]`}, nil},
		{"revenue on 2025-03-14", []string{`"ranges":[{"from":"2025-03-14","to":"2025-03-14"}]`}, nil},
		{"fatturato di dicembre 2024", []string{`"uncovered":["the data covers 2025-01-01 to 2025-05-31 and has nothing for 2024-12-01 to 2024-12-31"]`}, nil},
		{"revenue last month", []string{`"uncovered"`}, nil}, // May 2026, against the clock: not in the data
		{"revenue of orders with unit price above 2000", []string{`"op":"greaterThan","values":[2000]`}, []string{`"time"`}},
	})
	runParseCases(t, "findings", []parseCase{
		{"findings between January 2023 and March 2024", []string{`"ranges":[{"from":"2023-01-01","to":"2024-03-31"}]`}, nil},
		{"rilievi dal 2022 al 2023", []string{`"ranges":[{"from":"2022-01-01","to":"2023-12-31"}]`}, nil},
		{"findings from 2023", []string{`"ranges":[{"from":"2023-01-01","to":"2023-12-31"}]`}, nil},
		{"findings in March", []string{`{"from":"2022-03-01","to":"2022-03-31"}`, `{"from":"2025-03-01","to":"2025-03-31"}`, "every year"}, nil},
		{"how many findings in 2019", []string{`"uncovered"`}, nil},
		{"findings in 2023 and 2024", []string{`"ranges":[{"from":"2023-01-01","to":"2023-12-31"},{"from":"2024-01-01","to":"2024-12-31"}]`}, []string{`"uncovered"`}},
		// A period's year after a connector is its year, never a second period to add.
		{"findings in the first quarter of 2024", []string{`"ranges":[{"from":"2024-01-01","to":"2024-03-31"}]`}, []string{`"uncovered"`}},
		{"rilievi di marzo del 2023", []string{`"ranges":[{"from":"2023-03-01","to":"2023-03-31"}]`}, []string{`"uncovered"`}},
		{"findings in Q2 ... 2024", []string{`"ranges":[{"from":"2024-04-01","to":"2024-06-30"}]`}, nil},
		// Half-years and year spans.
		{"findings in the second half of 2023", []string{`"ranges":[{"from":"2023-07-01","to":"2023-12-31"}]`, `"label":"2023-H2"`}, nil},
		{"rilievi del primo semestre 2024", []string{`"ranges":[{"from":"2024-01-01","to":"2024-06-30"}]`}, nil},
		{"findings H1 2024 vs H2 2024", []string{`"label":"2024-H1"`, `"label":"2024-H2"`}, []string{`"uncovered"`}},
		// The one year a comparison names is its yearless side's year.
		{"findings H1 vs H2 2024", []string{`"label":"2024-H1"`, `"label":"2024-H2"`}, []string{`"uncovered"`, "every year"}},
		{"findings Q1 2023 vs Q2 2024", []string{`"label":"2023-Q1"`, `"label":"2024-Q2"`}, nil},
		{"findings 2023-2024", []string{`"ranges":[{"from":"2023-01-01","to":"2024-12-31"}]`}, []string{`"uncovered"`}},
	})
}

// TestGroupingAndRanking: breakdowns, rankings by the measure (not alphabetical), top N,
// "which X ... the most", "most frequent X", on every example.
func TestGroupingAndRanking(t *testing.T) {
	runParseCases(t, "analytics", []parseCase{
		{"top 4 waiters by revenue", []string{`"groupBy":{"source":"orders","field":"waiter"}`, `"order":{"measure":0,"desc":true}`, `"limit":4`, `"metric":"revenue"`}, nil},
		{"quale piatto ha venduto di più", []string{`"field":"item_name"`, `"metric":"quantity_total"`, `"limit":1`, `"desc":true`}, nil},
		{"fatturato per categoria", []string{`"groupBy":{"source":"orders","field":"category"}`}, []string{`"order"`}},
		{"ordini per trimestre", []string{`"grain":"quarter"`, `"op":"count"`}, nil},
		{"orders by month", []string{`"grain":"month"`, `"op":"count"`}, []string{`"order"`, `"revenue"`}}, // the row noun, not "order by"
		{"revenue by weekday", []string{`"grain":"weekday"`}, []string{`"uncovered"`}},
		{"revenue by category and by month", []string{`"uncovered":["a breakdown by a second dimension`}, nil},
	})
	runParseCases(t, "findings", []parseCase{
		{"findings per department", []string{`"groupBy":{"source":"findings","field":"department"}`, `"op":"count"`}, nil},
		{"the most frequent finding title", []string{`"field":"title"`, `"limit":1`, `"op":"count"`}, nil},
		{"which project type has the fewest findings", []string{`"field":"projectType"`, `"desc":false`, `"limit":1`}, nil},
		// The field before "breakdown"/"distribution" is the grouping.
		{"status breakdown of the critical findings", []string{`"groupBy":{"source":"findings","field":"status"}`, `"values":["Critical"]`}, []string{`"uncovered"`}},
		{"severity distribution for landed house projects", []string{`"groupBy":{"source":"findings","field":"severity"}`, `"values":["Landed House"]`}, []string{`"uncovered"`}},
	})
	runParseCases(t, "trade", []parseCase{
		// An aggregation of a row's value, the row noun between them.
		{"the largest transaction value in 2024", []string{`"op":"max","field":"totalValueUSD"`}, []string{`"uncovered"`, `"metric"`}},
		{"average declaration value for Samsung", []string{`"op":"average","field":"totalValueUSD"`}, []string{`"uncovered"`}},
	})
	runParseCases(t, "trade", []parseCase{
		{"declarations by country", []string{`"field":"importCountry"`, `"op":"count"`}, nil},
		{"top 2 goods by import value", []string{`"field":"goodsName"`, `"limit":2`, `"metric":"total_value"`}, nil},
		{"which country do we import the most from", []string{`"field":"importCountry"`, `"metric":"total_value"`, `"limit":1`}, nil},
		{"which company imports from the most countries", []string{`"op":"count_distinct","field":"importCountry"`, `"field":"importCompanyName"`}, nil},
		{"average value by country", []string{`"op":"average","field":"totalValueUSD"`, `"groupBy":{"source":"transactions","field":"importCountry"}`}, nil},
		{"largest shipment of laptops", []string{`"rows":true`, `"order":{"measure":0,"field":"totalValueUSD","desc":true}`, `"limit":1`}, nil},
	})
}

// TestComparisons: two periods or two values, in English and Italian, compared side by side.
func TestComparisons(t *testing.T) {
	runParseCases(t, "analytics", []parseCase{
		{"revenue January vs March", []string{`"compare":{"sides":[{"label":"2025-01"`, `{"label":"2025-03"`}, nil},
		{"confronta gli ordini di marzo e aprile", []string{`"label":"2025-03"`, `"label":"2025-04"`, `"op":"count"`}, nil},
		{"Dolci vs Vini: food cost", []string{`"label":"Dolci"`, `"label":"Vini"`, `"metric":"food_cost"`}, nil},
	})
	runParseCases(t, "trade", []parseCase{
		{"compare 2023 and 2024 declarations", []string{`"label":"2023"`, `"label":"2024"`}, nil},
		{"Germany versus Japan import value", []string{`"label":"Germany"`, `"label":"Japan"`}, nil},
	})
}

// TestFilters: free-text goods words select the goods that contain them; negation is the
// complement (notIn); values of every column users filter on are read; what the data does
// not record is listed, never dropped.
func TestFilters(t *testing.T) {
	runParseCases(t, "trade", []parseCase{
		{"total value of laptops", []string{`"field":"goodsName","op":"in","values":["Laptop Dell Inspiron 15"]`}, nil},
		{"how many declarations of televisions", []string{`"values":["LED television 55 inch"]`}, nil},
		{"steel imports value", []string{`"field":"goodsName","op":"in","values":["Steel coils"]`}, []string{"importCompanyName"}},
		{"value excluding China and Japan", []string{`"op":"notIn","values":["China","Japan"]`}, nil},
		{"declarations not from Samsung", []string{`"field":"importCompanyName","op":"notIn","values":["Samsung Electronics Co Ltd"]`}, nil},
		{"value of shipments by sea", []string{`"uncovered"`}, nil},
	})
	// The operator after the number.
	runParseCases(t, "analytics", []parseCase{
		{"ordini con 5 o più pezzi", []string{`"field":"quantity","op":"atLeast","values":[5]`}, []string{`"uncovered"`}},
		{"orders with 3 or fewer pieces", []string{`"field":"quantity","op":"atMost","values":[3]`}, []string{`"uncovered"`}},
	})
	runParseCases(t, "clinical", []parseCase{
		{"how many patients are 65 or older", []string{`"field":"AGE","op":"atLeast","values":[65]`}, []string{`"uncovered"`}},
		// One field given two different sets of values is a question, not an intersection;
		// unless the later set spells out the earlier one, whole (TestSpelledOutValues).
		{"drug-related AEs (related or possibly related)", []string{`"values":["RELATED","POSSIBLY RELATED"]`}, []string{`"uncovered"`}},
		{"possibly related AEs, related ones", []string{`"uncovered":["two different conditions on AEREL`}, nil},
		{"related AEs, related ones only", []string{`"values":["RELATED"]`}, []string{`"uncovered"`}},
		// A field before a row noun qualifies it: no grouping by the field's dates ("randomized
		// subject" is ADSL's row noun: per subject, over every one).
		{"avg number of AEs per randomized subject", []string{`"averagePer":{"source":"adsl","field":""}`}, []string{`"grain"`, `"uncovered"`}},
	})
	runParseCases(t, "trade", []parseCase{
		{"top 2 countries by import value in 2023, leaving out the United States", []string{`"field":"importCountry","op":"notIn","values":["United States"]`, `"limit":2`}, []string{`"uncovered"`}},
	})
	runParseCases(t, "findings", []parseCase{
		{"findings that are not open", []string{`"field":"status","op":"notIn","values":["Open"]`}, nil},
		{"which project types have no critical findings", []string{`"without":{"source":"findings","field":"projectType"}`, `"values":["Critical"]`}, []string{`"uncovered"`, `"rows":true`}},
		{"which departments had no open findings in 2023", []string{`"without":{"source":"findings","field":"department"}`}, []string{`"uncovered"`, `"rows":true`}},
		{"lift findings", []string{`"field":"title","op":"in","values":["Elevator inspection expired"]`}, nil},
		{"how many leaks", []string{`"values":["Water leak in ceiling"]`}, nil},
		{"findings of the HR team", []string{`"field":"department","op":"in","values":["HR"]`}, nil},
		{"what is it about", nil, []string{`"department"`}}, // "it" is a pronoun here, not the IT department
	})
	runParseCases(t, "analytics", []parseCase{
		{"revenue of the desserts", []string{`"field":"category","op":"in","values":["Dolci"]`}, nil},
		{"orders served by Giulia", []string{`"field":"waiter","op":"in","values":["Giulia"]`}, nil},
		{"orders served by Giula", []string{`"uncovered":["the data has nothing called \"giula\" (closest: Giulia)"]`}, nil},
		{"orders paid by card", []string{`"uncovered"`}, nil}, // "card" alone names no payment method
		{"orders paid by credit card", []string{`"values":["Carta di credito"]`}, nil},
		{"orders not paid by credit card", []string{`"field":"payment_method","op":"notIn","values":["Carta di credito"]`}, []string{`"uncovered"`}},
		{"orders not served by Giulia", []string{`"field":"waiter","op":"notIn","values":["Giulia"]`}, []string{`"uncovered"`}},
		// A percentage before a numeric field is its value, never a top N.
		{"orders with a 10% discount", []string{`"field":"discount_percent","op":"equals","values":[10]`}, []string{`"limit"`}},
		{"ordini con uno sconto del 20%", []string{`"field":"discount_percent","op":"equals","values":[20]`}, nil},
		{"the 10% most expensive items", []string{`"uncovered"`}, nil},
		// A participle saying the measure happened (discounts granted) asks nothing more.
		{"totale degli sconti applicati a marzo", []string{`"metric":"discount_amount"`}, []string{`"uncovered"`}},
		{"total discounts granted", []string{`"metric":"discount_amount"`}, []string{`"uncovered"`}},
		// A word the query would not use is said, never dropped for the default measure.
		{"how much did we give away in VAT", []string{`"uncovered":["what \"vat\" refers to"]`}, nil},
		{"the best revenue ever", []string{`"uncovered":["\"best\": a ranking this query does not make"]`}, nil},
		{"the best day ever in terms of revenue", []string{`"grain":"day"`, `"desc":true`, `"limit":1`, `"metric":"revenue"`}, []string{`"uncovered"`}},
		{"i 2 piatti più venduti per quantità", []string{`"metric":"quantity_total"`, `"limit":2`}, []string{`"uncovered"`}},
	})
	runParseCases(t, "trade", []parseCase{
		// Counting a row noun counts rows; the unit is a condition ("in kg"), not what is summed.
		{"how many shipments were declared in kilograms", []string{`"op":"count"`, `"field":"unit","op":"in","values":["kg"]`}, []string{`"op":"sum"`}},
		{"how much steel in kilograms", []string{`"op":"sum","field":"quantity"`}, nil},
	})
	runParseCases(t, "clinical", []parseCase{
		{"how many women", []string{`"field":"SEX","op":"in","values":["F"]`}, nil},
		{"moderate events", []string{`"field":"AESEV","op":"in","values":["MODERATE"]`}, nil},
		{"how many patients have a BMI above 30", []string{`"uncovered"`}, nil},
	})
}

// TestSourcesAndUnits: the source a question computes on is that of what it counts (events
// or patients, declared per source), joined on declared entities to the sources of its
// conditions; quantities keep their unit.
func TestSourcesAndUnits(t *testing.T) {
	runParseCases(t, "clinical", []parseCase{
		{"how many patients had nausea", []string{`"source":"adsl"`, `"source":"adae","field":"AEDECOD"`}, nil},
		{"how many nausea events", []string{`"source":"adae","measures":[{"op":"count","unit":"events"}]`}, nil},
		{"events per arm", []string{`"source":"adae"`, `"groupBy":{"source":"adsl","field":"ARM"}`}, nil},
		{"organ class with the most patients", []string{`"source":"adae"`, `"op":"count_distinct","field":"USUBJID","unit":"patients"`}, nil},
		{"patients without adverse events", []string{`"rows":true`, `"exists":[{"source":"adae","entity":"","not":true}]`}, nil},
		{"patients with at least 2 events", []string{`"exists":[{"source":"adae","entity":"","min":2}]`}, nil},
		{"pazienti con più di due eventi", []string{`"exists":[{"source":"adae","entity":"","min":3}]`}, nil},
		{"which patient had the most events", []string{`"source":"adae"`, `"groupBy":{"source":"adae","field":"USUBJID"}`, `"limit":1`, `"op":"count"`}, nil},
		{"how many immune system disorder events", []string{`"values":["Immune system disorders"]`}, nil},
	})
	runParseCases(t, "trade", []parseCase{
		{"total quantity of shrimp", []string{`"op":"sum","field":"quantity"`}, nil},
	})
}

// TestBeyondData: forecasts, advice and unknown words make the question uncovered.
func TestBeyondData(t *testing.T) {
	runParseCases(t, "analytics", []parseCase{
		{"forecast revenue for June", []string{`"uncovered"`}, nil},
		{"should we raise prices", []string{`"uncovered"`}, nil},
		{"average customer satisfaction", []string{`"uncovered"`}, nil},
		{"Quanto fatturato serve per crescere del 20%?", []string{`"growthPercent":20`, `"metric":"revenue"`}, []string{`"uncovered"`}},
		// an aggregation word nothing takes is uncovered, never dropped: "average revenue"
		// is not the total revenue
		{"average revenue", []string{`"uncovered"`}, nil},
		{"average revenue per order", []string{`"averagePer":{"source":"orders","field":""}`, `"metric":"revenue"`}, []string{`"uncovered"`}},
		{"average revenue per day in March", []string{`"averagePer":{"source":"orders","field":"order_date","grain":"day"}`}, []string{`"uncovered"`}},
		{"orders on the 14th of February", []string{`"ranges":[{"from":"2025-02-14","to":"2025-02-14"}]`}, nil},
		{"best selling dish", []string{`"metric":"quantity_total"`, `"field":"item_name"`, `"limit":1`}, nil},
		{"qual è il piatto più ordinato", []string{`"op":"count"`, `"field":"item_name"`, `"limit":1`}, nil},
		{"quale metodo di pagamento è il più usato", []string{`"op":"count"`, `"field":"payment_method"`, `"limit":1`}, nil},
		{"il giorno con meno ordini", []string{`"grain":"day"`, `"desc":false`, `"limit":1`}, nil},
		{"the 5 most expensive dishes", []string{`"op":"max","field":"unit_price"`, `"field":"item_name"`, `"limit":5`, `"desc":true`}, nil},
		{"revenue of orders with quantity between 2 and 4", []string{`"field":"quantity","op":"between","values":[2,4]`}, []string{`"uncovered"`}},
		{"the top 3 revenue", []string{`"uncovered"`}, nil},
	})
}
