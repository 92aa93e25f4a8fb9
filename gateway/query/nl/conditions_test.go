package nl

import "testing"

// TestShareCondition: a share's condition is the last condition named, with every other
// condition on its field (an exclusion that narrows it), not the exclusion alone.
func TestShareCondition(t *testing.T) {
	runParseCases(t, "clinical", []parseCase{
		{"What percentage of patients had at least one AE assessed as RELATED (not counting 'possibly related')?",
			[]string{`"share":{"filters":[{"source":"adae","field":"AEREL","op":"in","values":["RELATED"]},{"source":"adae","field":"AEREL","op":"notIn"`}, []string{`"uncovered"`}},
	})
	runParseCases(t, "findings", []parseCase{
		{"closure rate for High findings", []string{`"filters":[{"source":"findings","field":"severity"`, `"share":{"filters":[{"source":"findings","field":"status","op":"in","values":["Closed"]}]}`}, []string{`"uncovered"`}},
		{"closure rate by year (% closed)", []string{`"grain":"year"`, `"share":{"filters":[{"source":"findings","field":"status","op":"in","values":["Closed"]}]}`}, []string{`"uncovered"`}},
		{"what % of High findings are closed", []string{`"share":{"filters":[{"source":"findings","field":"status"`}, []string{`"uncovered"`}},
		{"what percentage of open findings are high", []string{`"filters":[{"source":"findings","field":"status"`, `"share":{"filters":[{"source":"findings","field":"severity","op":"in","values":["High"]}]}`}, []string{`"uncovered"`}},
	})
}

// TestUnitThreshold: a number followed by a unit word is a condition on the one numeric
// field measured in that unit ("65 anni": AGE, in years); two such fields, or none, leave
// the number unexplained.
func TestUnitThreshold(t *testing.T) {
	runParseCases(t, "clinical", []parseCase{
		{"quanti pazienti hanno 65 anni o più?", []string{`"field":"AGE","op":"atLeast","values":[65]`}, []string{`"uncovered"`}},
		{"pazienti con più di 65 anni", []string{`"field":"AGE","op":"greaterThan","values":[65]`}, []string{`"uncovered"`}},
		{"how many patients under 40 years in the placebo arm", []string{`"field":"AGE","op":"lessThan","values":[40]`, `"Placebo"`}, []string{`"uncovered"`}},
		{"how many patients 60 days or more", []string{`"field":"TRTDURD","op":"atLeast","values":[60]`}, []string{`"uncovered"`}},
		{"how many patients over 3 months", []string{`"uncovered"`}, nil},
	})
	// "units" is the quantity whatever its unit of measure; "pieces" names the pcs rows.
	runParseCases(t, "trade", []parseCase{
		{"Number of declarations for Germany or Japan with a quantity of at least 5,000 units", []string{`"field":"quantity","op":"atLeast","values":[5000]`}, []string{`"uncovered"`, `"field":"unit"`}},
		{"declarations of at least 5000 pieces", []string{`"field":"quantity","op":"atLeast","values":[5000]`, `"field":"unit","op":"in","values":["pcs"]`}, []string{`"uncovered"`}},
	})
}

// TestAmountCounted: "how many <goods>" counts the goods' pieces even when a row noun
// follows later as context; a row noun right after the goods ("LED TV declarations") is
// what is counted.
func TestAmountCounted(t *testing.T) {
	runParseCases(t, "trade", []parseCase{
		{"how many LED TVs in total on declarations with import country Germany?", []string{`"op":"sum","field":"quantity"`, `"Germany"`}, []string{`"uncovered"`, `"op":"count"`}},
		{"how many LED TV declarations for Germany", []string{`"op":"count"`}, []string{`"uncovered"`, `"op":"sum"`}},
		{"how many declarations of LED TVs for Germany", []string{`"op":"count"`}, []string{`"uncovered"`, `"op":"sum"`}},
	})
}

// TestFramingVerbs: verbs of judging and appearing, intensifiers and "(inclusive)" frame
// the condition the other words state.
func TestFramingVerbs(t *testing.T) {
	runParseCases(t, "clinical", []parseCase{
		{"How many AEs were judged not related to study drug?", []string{`"AEREL"`}, []string{`"uncovered"`}},
		{"How many distinct preferred terms appear in the AE data?", []string{`"op":"count_distinct","field":"AEDECOD"`}, []string{`"uncovered"`}},
		{"What percentage of patients had at least one AE assessed as definitely RELATED (not counting 'possibly related')?", []string{`"share"`, `"values":["RELATED"]`}, []string{`"uncovered"`}},
	})
	runParseCases(t, "findings", []parseCase{
		{"How many findings were identified between June and September 2022 (inclusive)?", []string{`"from":"2022-06-01","to":"2022-09-30"`}, []string{`"uncovered"`}},
		{"compare open findings in 2023 vs 2024", []string{`"compare"`}, []string{`"uncovered"`}},
	})
}

// TestNamedAmount: a numeric field named alone is its total when a metric of the source
// sums it; a field no metric sums is not added up.
func TestNamedAmount(t *testing.T) {
	runParseCases(t, "analytics", []parseCase{
		{"quantity by category", []string{`"metric":"quantity_total"`, `"groupBy":{"source":"orders","field":"category"}`}, []string{`"uncovered"`}},
	})
	runParseCases(t, "trade", []parseCase{
		{"smartphone qty by year", []string{`"op":"sum","field":"quantity"`, `"grain":"year"`}, []string{`"uncovered"`}},
		{"unit price by country", []string{`"uncovered"`}, []string{`"op":"sum"`}},
	})
}

// TestActorWith: the actor's word framing a condition on another field of the rows counted
// is no condition of its own; counting the actor, or a threshold that may be the actor's
// total, is not read so.
func TestActorWith(t *testing.T) {
	runParseCases(t, "trade", []parseCase{
		{"How many declarations came from importers with a Seoul address?", []string{`"op":"count"`, `"field":"importCompanyAddress","op":"contains"`}, []string{`"uncovered"`}},
		{"how many importers with a Seoul address", []string{`"op":"count_distinct","field":"importCompanyName"`}, []string{`"uncovered"`}},
		{"how many declarations from importers with more than 100 pcs", []string{`"uncovered"`}, nil},
	})
}

// TestOtherThan: "diverse da" is "other than" (an exclusion), not "different" (a distinct
// count); "unresolved" is every status but Closed.
func TestOtherThan(t *testing.T) {
	runParseCases(t, "trade", []parseCase{
		{"Quanti pezzi di semiconduttori sono stati importati nel 2024 da aziende diverse da Dell?", []string{`"op":"sum","field":"quantity"`, `"op":"notIn","values":["Dell Inc"]`}, []string{`"uncovered"`, `"count_distinct"`}},
	})
	runParseCases(t, "findings", []parseCase{
		{"Unresolved high or critical findings identified in 2024 - list them please", []string{`"rows":true`, `"values":["Deferred","In Progress","Open"]`}, []string{`"uncovered"`}},
	})
}

// TestCompareBetween: "between A and B" in a question that compares is the two periods,
// not the range between them; without a comparison it stays a range.
func TestCompareBetween(t *testing.T) {
	runParseCases(t, "analytics", []parseCase{
		{"Confronto del fatturato tra marzo e aprile", []string{`"compare":{"sides":[{"label":"2025-03"`, `"label":"2025-04"`}, []string{`"uncovered"`}},
		{"difference in revenue between March and April", []string{`"compare"`}, []string{`"uncovered"`}},
		{"fatturato tra marzo e aprile", []string{`"from":"2025-03-01","to":"2025-04-30"`}, []string{`"uncovered"`, `"compare"`}},
	})
	runParseCases(t, "findings", []parseCase{
		{"compare findings between 2023 and 2024", []string{`"compare":{"sides":[{"label":"2023"`}, []string{`"uncovered"`, `"rows":true`}},
	})
}

// TestFindingsFraming: a field word that is also a future word ("type of project") is the
// field; a typo of a value of the schema's closed list is read as it; owned by, leaving
// … aside and most recently frame what the other words state.
func TestFindingsFraming(t *testing.T) {
	runParseCases(t, "findings", []parseCase{
		{"Which type of project has the most findings?", []string{`"groupBy":{"source":"findings","field":"projectType"}`, `"limit":1`}, []string{`"uncovered"`}},
		{"Critcal and high findings per year", []string{`"values":["Critical","High"]`, `read as \"critical\"`}, []string{`"uncovered"`}},
		{"Leaving IT aside, which department has the most open findings?", []string{`"op":"notIn","values":["IT"]`}, []string{`"uncovered"`}},
		{"ongoing findings owned by Facilities", []string{`"rows":true`, `"values":["Facilities"]`}, []string{`"uncovered"`}},
		{"What's the most recently identified finding?", []string{`"rows":true`, `"desc":true`, `"limit":1`}, []string{`"uncovered"`}},
		{"List open high severity findings in shopping malls", []string{`"values":["Mall"]`}, []string{`"uncovered"`}},
	})
	runParseCases(t, "trade", []parseCase{
		{"project imports for 2024", []string{`"uncovered"`}, nil},
	})
}

// TestGroupWithExtreme: "<dimension> with the highest <measure>" ranks the groups by the
// measure; mistyped question words are read.
func TestGroupWithExtreme(t *testing.T) {
	runParseCases(t, "analytics", []parseCase{
		{"category with the highest food cost %", []string{`"groupBy":{"source":"orders","field":"category"}`, `"order":{"measure":0,"desc":true}`, `"limit":1`}, []string{`"uncovered"`}},
		{"wich category has the highest food cost %?", []string{`"groupBy":{"source":"orders","field":"category"}`, `"limit":1`}, []string{`"uncovered"`}},
		{"waiter with the lowest revenue in march", []string{`"field":"waiter"`, `"desc":false`}, []string{`"uncovered"`}},
	})
	runParseCases(t, "trade", []parseCase{
		{"country with the highest unit price", []string{`"uncovered"`}, nil},
	})
}

// TestRankedRowsN: N rows by a numeric field answer with their values; "the N most recent
// <rows>" lists N rows by time.
func TestRankedRowsN(t *testing.T) {
	runParseCases(t, "clinical", []parseCase{
		{"Which three patients were on treatment the longest?", []string{`"field":"TRTDURD","desc":true,"ranked":true`, `"limit":3`}, []string{`"uncovered"`}},
	})
	runParseCases(t, "trade", []parseCase{
		{"the 3 most recent declarations of Japan", []string{`"rows":true`, `"field":"date","desc":true`, `"limit":3`}, []string{`"uncovered"`, `"ranked":true`}},
	})
}

// TestSharePredicate: a share's condition is what follows its verb ("are from 2023"),
// whatever the rows' own words name before it.
func TestSharePredicate(t *testing.T) {
	runParseCases(t, "trade", []parseCase{
		{"what percentage of declarations from Japan are from 2023", []string{`"filters":[{"source":"transactions","field":"importCountry"`, `"share":{"time":`}, []string{`"uncovered"`}},
		{"what percentage of 2023 declarations are from Japan", []string{`"share":{"filters":[{"source":"transactions","field":"importCountry"`}, []string{`"uncovered"`, `"share":{"time"`}},
	})
	runParseCases(t, "clinical", []parseCase{
		{"how many AEs does a patient have at most", []string{`"uncovered"`}, nil},
	})
}

// TestRelatedRowsNotCounted: the rows after "at least one" are what the counted ones must
// have, never what is counted ("how many women had at least one severe AE": women).
func TestRelatedRowsNotCounted(t *testing.T) {
	runParseCases(t, "clinical", []parseCase{
		{"men vs women - how many of each had at least one AE?", []string{`"source":"adsl"`, `"compare"`, `"exists"`}, []string{`"uncovered"`}},
		{"how many women had at least one severe AE", []string{`"source":"adsl"`}, []string{`"uncovered"`, `"unit":"events"`}},
		{"how many patients had at least one AE", []string{`"source":"adsl"`, `"exists"`}, []string{`"uncovered"`}},
		{"female patients in the low dose arm who had any adverse event - how many?", []string{`"source":"adsl"`, `"exists"`}, []string{`"uncovered"`, `"unit":"events"`}},
		{"subjects with an AE in the placebo arm, how many?", []string{`"source":"adsl"`, `"exists"`}, []string{`"uncovered"`, `"unit":"events"`}},
		{"pazienti donne che hanno avuto un evento avverso: quanti?", []string{`"source":"adsl"`, `"exists"`}, []string{`"uncovered"`, `"unit":"events"`}},
		{"severe AEs in female patients - how many?", []string{`"unit":"events"`}, []string{`"uncovered"`}},
	})
}

// TestPurposeClauses: what the answer is for is no condition; a data noun after "for the"
// stays a condition.
func TestPurposeClauses(t *testing.T) {
	runParseCases(t, "findings", []parseCase{
		{"For the quarterly audit committee pack I need the number of findings per month in 2025, please.", []string{`"grain":"month"`, `"label":"2025"`, `is what the answer is for`}, []string{`"uncovered"`, `"grain":"quarter"`}},
	})
	runParseCases(t, "clinical", []parseCase{
		{"Quick one for the safety review: how many patients had at least one serious adverse event?", []string{`"source":"adsl"`, `"field":"AESER"`}, []string{`"uncovered"`}},
		{"Can you pull the list of subjects who experienced a severe AE? I need them for the patient narratives.", []string{`"rows":true`}, []string{`"uncovered"`}},
		{"how many AEs for the placebo arm", []string{`"Placebo"`}, []string{`"uncovered"`, `answer is for`}},
	})
	runParseCases(t, "analytics", []parseCase{
		{"Per la riunione con i soci mi serve il margine lordo del primo trimestre, in euro", []string{`"label":"2025-Q1"`}, []string{`"uncovered"`}},
	})
	runParseCases(t, "trade", []parseCase{
		{"For the mid-year review I need the total import value for Japan in the first half of 2024", []string{`"Japan"`, `2024-H1`}, []string{`"uncovered"`}},
	})
}

// TestDayAfterMonth and TestNotAny: "May 1st 2024" is a day; "didn't report any AE" is
// the absence of the relation.
func TestDayAfterMonth(t *testing.T) {
	runParseCases(t, "clinical", []parseCase{
		{"How many subjects were randomized since May 1st 2024?", []string{`"from":"2024-05-01"`}, []string{`"uncovered"`}},
		{"How many subjects were randomized since May 1, 2024?", []string{`"from":"2024-05-01"`}, []string{`"uncovered"`}},
		{"Which subjects didn't report any adverse event at all?", []string{`"exists":[{"source":"adae","entity":"","not":true}]`}, []string{`"uncovered"`}},
	})
	runParseCases(t, "analytics", []parseCase{
		{"revenue on March 3rd", []string{`"from":"2025-03-03","to":"2025-03-03"`}, []string{`"uncovered"`}},
		{"revenue in May 5 orders", []string{`"uncovered"`}, nil},
	})
}

// TestSpelledOutValues: values listed after a word that named fewer of them spell out what
// the word meant; a narrower list after a wider one is still refused.
func TestSpelledOutValues(t *testing.T) {
	runParseCases(t, "clinical", []parseCase{
		{"drug-related AEs (related or possibly related): placebo vs high dose", []string{`"values":["RELATED","POSSIBLY RELATED"]`, `read as RELATED, POSSIBLY RELATED`}, []string{`"uncovered"`}},
		{"possibly related AEs that are related", []string{`"uncovered"`}, nil},
		{"how many subjects in the safety pop?", []string{`"field":"SAFFL"`}, []string{`"uncovered"`}},
		{"AEs by severity grade pls", []string{`"groupBy":{"source":"adae","field":"AESEV"}`}, []string{`"uncovered"`}},
	})
}

// TestRankedOverValues: a superlative with another dimension ranks it over the values
// together; a comparative beside another dimension stays refused; two values alone compare.
func TestRankedOverValues(t *testing.T) {
	runParseCases(t, "findings", []parseCase{
		{"Which department has the most critical or high findings?", []string{`"groupBy":{"source":"findings","field":"department"}`, `"values":["Critical","High"]`, `"limit":1`}, []string{`"uncovered"`, `"compare"`}},
		{"which has more findings, critical or high?", []string{`"compare"`}, []string{`"uncovered"`}},
	})
	runParseCases(t, "analytics", []parseCase{
		{"which waiter sold more pizza or pasta", []string{`"uncovered"`}, nil},
	})
}

// TestLongValueTyposAndSameItem: a typo of a long value read from the data is read as it
// (never of a short one: names); "N or more of the same item" is a threshold on the item's
// pieces; the rows' key in a listing is one of its columns.
func TestLongValueTyposAndSameItem(t *testing.T) {
	runParseCases(t, "trade", []parseCase{
		{"avg declaration value for Singapre?", []string{`"values":["Singapore"]`, `read as \"singapore\"`}, []string{`"uncovered"`}},
	})
	runParseCases(t, "clinical", []parseCase{
		{"placebo pts with nasopharingitis?", []string{`"values":["Nasopharyngitis"]`}, []string{`"uncovered"`}},
	})
	runParseCases(t, "analytics", []parseCase{
		{"revenue of Marta", []string{`"uncovered"`}, []string{`"Marco"`}},
		{"which orders had 5 or more of the same item? just give me the order ids", []string{`"rows":true`, `"field":"quantity","op":"atLeast","values":[5]`}, []string{`"uncovered"`}},
		{"list the orders where someone got 5 or more of the same item", []string{`"field":"quantity","op":"atLeast","values":[5]`}, []string{`"uncovered"`}},
	})
}

// TestUseAndFrequency: a verb of use alone frames a condition; ranked, it ranks by how
// often (a count), in the direction the superlative says; "what did X import most often"
// ranks the kinds of rows.
func TestUseAndFrequency(t *testing.T) {
	runParseCases(t, "analytics", []parseCase{
		{"how many orders used a credit card", []string{`"op":"count"`, `"values":["Carta di credito"]`}, []string{`"uncovered"`, `"groupBy"`}},
		{"how many orders used each payment method", []string{`"groupBy":{"source":"orders","field":"payment_method"}`}, []string{`"uncovered"`, `"limit"`}},
		{"which payment method was used the least", []string{`"op":"count"`, `"desc":false`, `"limit":1`}, []string{`"uncovered"`, `"revenue"`}},
		{"which payment method was used most", []string{`"op":"count"`, `"desc":true`}, []string{`"uncovered"`, `"revenue"`}},
	})
	runParseCases(t, "trade", []parseCase{
		{"What did Acme import most often?", []string{`"groupBy":{"source":"transactions","field":"goodsName"}`, `"limit":1`}, []string{`"uncovered"`}},
		{"how many declarations did Acme file most often", []string{`"uncovered"`}, nil},
	})
}

// TestSet7Families: ranked values of a declared order; comparisons of years grouped by
// year; "weekday" against the weekend; double negations; what is not counted named by a
// measure's field.
func TestSet7Families(t *testing.T) {
	runParseCases(t, "findings", []parseCase{
		{"How many medium-or-higher severity findings are there for office buildings?", []string{`"values":["Medium","High","Critical"]`}, []string{`"uncovered"`}},
		{"findings above medium", []string{`"values":["High","Critical"]`}, []string{`"uncovered"`}},
		{"open or higher findings", []string{`"uncovered"`}, nil},
		{"2022 vs 2023: how many findings each year?", []string{`"compare":{"sides":[{"label":"2022"`}, []string{`"uncovered"`, `"groupBy"`}},
	})
	runParseCases(t, "clinical", []parseCase{
		{"AEs moderate or worse", []string{`"values":["MODERATE","SEVERE"]`}, []string{`"uncovered"`}},
		{"Which patients never reported any adverse event?", []string{`"not":true`}, []string{`"uncovered"`}},
	})
	runParseCases(t, "analytics", []parseCase{
		{"weekend vs weekday revenue", []string{`"label":"weekend"`, `"label":"weekday"`, `"values":[1,2,3,4,5]`}, []string{`"uncovered"`}},
		{"quanti ordini NON hanno avuto nessuno sconto?", []string{`"field":"discount_percent","op":"equals"`}, []string{`"uncovered"`}},
		{"Quante pizze abbiamo venduto a maggio? (pezzi, non ordini)", []string{`"metric":"quantity_total"`}, []string{`"uncovered"`}},
	})
}

// TestPoliteList: "mi elenchi" lists, as "elencami" does.
func TestPoliteList(t *testing.T) {
	runParseCases(t, "analytics", []parseCase{
		{"Mi elenchi gli ordini con sconto del 20% pagati in contanti?", []string{`"rows":true`, `"values":["Contanti"]`}, []string{`"uncovered"`}},
	})
}

// TestSet8Families: a measure word before a threshold names each row's value (with the
// rows named; without them it is a condition on groups' totals, refused); a bare letter
// is no flag; a filler is its own words only.
func TestSet8Families(t *testing.T) {
	runParseCases(t, "trade", []parseCase{
		{"How many declarations have a total value of more than 500,000 USD?", []string{`"op":"count"`, `"field":"totalValueUSD","op":"greaterThan","values":[500000]`}, []string{`"uncovered"`, `"metric"`}},
		{"Which companies have a total import value above 2 million USD? Give me their totals.", []string{`"groupBy":{"source":"transactions","field":"importCompanyName"}`, `"having":{"measure":0,"op":"greaterThan","value":2000000}`}, []string{`"uncovered"`, `"filters"`}},
		{"total value above 2 million", []string{`"uncovered":["a condition on a total`}, nil},
		{"total value by port of entry in 2024", []string{`"uncovered"`}, nil},
	})
	runParseCases(t, "clinical", []parseCase{
		{"n in ITT pop?", []string{`"uncovered"`}, []string{`"SAFFL"`}},
		{"AEs M vs F", []string{`"compare"`, `"label":"M"`}, []string{`"uncovered"`}},
	})
}

// TestSignsAndWithN: comparison signs read as their words; "with N <rows>" is how many
// each has, never a top N.
func TestSignsAndWithN(t *testing.T) {
	runParseCases(t, "clinical", []parseCase{
		{"subjects with >=1 AE by arm", []string{`"groupBy":{"source":"adsl","field":"ARM"}`, `"exists"`}, []string{`"uncovered"`, `"limit"`}},
		{"subjects with 2 AEs by arm", []string{`"uncovered"`}, []string{`"limit":2`}},
	})
	runParseCases(t, "trade", []parseCase{
		{"declarations > 500k USD", []string{`"field":"totalValueUSD","op":"greaterThan","values":[500000]`}, []string{`"uncovered"`}},
		{"declarations with a value <= 1000", []string{`"op":"atMost","values":[1000]`}, []string{`"uncovered"`}},
	})
}

// TestDifferenceAsked: "how many more A than B", "di quanto A supera B", "by how much does
// A exceed B" compare the two sides and answer A minus B; a comparison word before a
// number stays a threshold.
func TestDifferenceAsked(t *testing.T) {
	runParseCases(t, "findings", []parseCase{
		{"How many more findings were logged in 2024 than in 2023?", []string{`"compare":{"sides":[{"label":"2024"`, `"difference":true`}, []string{`"uncovered"`}},
	})
	runParseCases(t, "analytics", []parseCase{
		{"Di quanto il fatturato dei Secondi supera quello dei Primi?", []string{`"label":"Secondi"`, `"label":"Primi"`, `"difference":true`}, []string{`"uncovered"`}},
		{"orders with more than 5 pieces", []string{`"op":"greaterThan","values":[5]`}, []string{`"compare"`}},
		{"How much more gross revenue did Sara bring in than Marco?", []string{`"label":"Sara"`, `"label":"Marco"`, `"difference":true`}, []string{`"uncovered"`}},
	})
	runParseCases(t, "trade", []parseCase{
		{"By how much does Germany's total import value exceed South Korea's?", []string{`"difference":true`}, []string{`"uncovered"`}},
		{"declarations that exceed 500k USD", []string{`"op":"greaterThan","values":[500000]`}, []string{`"compare"`}},
	})
}

// TestHaving: a threshold on a measure's total per group is a condition on the groups;
// a percentage beside a measure in money is refused.
func TestHaving(t *testing.T) {
	runParseCases(t, "analytics", []parseCase{
		{"Quali categorie hanno un food cost sopra il 37%? dammi il valore", []string{`"uncovered"`}, []string{`"having"`}},
		{"which waiters have revenue above 4000 euro", []string{`"groupBy":{"source":"orders","field":"waiter"}`, `"having"`}, []string{`"uncovered"`}},
		{"waiters with revenue above 4000 euro", []string{`"uncovered"`}, []string{`"having"`}},
	})
}

// TestMeasureBasis: words that state the basis a measure already has ("lordo", "before
// discounts") frame the measures asked; beside the net revenue they contradict it; after
// "vs" they ask for the measure; alone they ask nothing.
func TestMeasureBasis(t *testing.T) {
	runParseCases(t, "analytics", []parseCase{
		{"fatturato x categoria, lordo", []string{`"metric":"revenue"`, `"field":"category"`}, []string{`"uncovered"`, `net_revenue`}},
		{"ticket medio x ordine a febbraio? prezzi pieni, senza togliere gli sconti", []string{`"metric":"ticket_medio"`}, []string{`"uncovered"`, `"metric":"revenue"`}},
		{"avg order value in may? before discounts", []string{`"metric":"ticket_medio"`}, []string{`"uncovered"`}},
		{"best month by gross revenue?", []string{`"metric":"revenue"`, `"grain":"month"`}, []string{`"uncovered"`}},
		{"fatturato netto lordo", []string{`"uncovered"`, `lordo`}, nil},
		{"lordo?", []string{`what \"lordo\" qualifies`}, nil},
	})
}

// TestChatShorthand: the shorthand of chat ("hw many", "r", "qnti", "cn", "diff") is read
// as the words it stands for; "diff between" two periods is a difference, never their sum.
func TestChatShorthand(t *testing.T) {
	runParseCases(t, "clinical", []parseCase{
		{"hw many subjects r 65 or older", []string{`"field":"AGE","op":"atLeast","values":[65]`, `"unit":"patients"`}, []string{`"uncovered"`}},
		{"hi! quick one - how many pts per arm?", []string{`"field":"ARM"`, `"unit":"patients"`}, []string{`"uncovered"`}},
	})
	runParseCases(t, "analytics", []parseCase{
		{"qnti ordini pagati cn satispay a marzo?", []string{`"values":["Satispay"]`, `"from":"2025-03-01"`}, []string{`"uncovered"`}},
	})
	runParseCases(t, "trade", []parseCase{
		{"how many diff products r there?", []string{`"op":"count_distinct","field":"goodsName"`}, []string{`"uncovered"`}},
		{"diff between 2023 and 2024 import value", []string{`"compare"`}, []string{`"uncovered"`, `"from":"2023-01-01","to":"2024-12-31"`}},
		{"the diff in import value between 2023 and 2024", []string{`"compare"`}, []string{`"uncovered"`, `"from":"2023-01-01","to":"2024-12-31"`}},
	})
}

// TestDayAfterMonthInRanges: "March 10 to March 20", "on March 3": a day written after its month
// where a range joins it or a preposition puts it; "in May 5 orders" counts orders.
func TestDayAfterMonthInRanges(t *testing.T) {
	runParseCases(t, "analytics", []parseCase{
		{"orders from march 10 to march 20, both days included - how many?", []string{`"from":"2025-03-10","to":"2025-03-20"`}, []string{`"uncovered"`}},
		{"how many orders between march 10 and march 20", []string{`"from":"2025-03-10","to":"2025-03-20"`}, []string{`"uncovered"`}},
		{"orders on march 3", []string{`"from":"2025-03-03","to":"2025-03-03"`}, []string{`"uncovered"`}},
		{"in may 5 orders had a discount?", []string{`"from":"2025-05-01","to":"2025-05-31"`}, nil},
	})
}

// TestSuperlativeOfMeasure: a superlative with a measure and a field ("our biggest-spending
// customer", "top spending customer") ranks that field by the measure, even after "who".
func TestSuperlativeOfMeasure(t *testing.T) {
	runParseCases(t, "analytics", []parseCase{
		{"Who's our biggest-spending customer?", []string{`"groupBy":{"source":"orders","field":"customer_id"}`, `"desc":true`, `"limit":1`}, []string{`"uncovered"`, `waiter`}},
		{"who is our top spending customer", []string{`"field":"customer_id"`, `"limit":1`}, []string{`"uncovered"`, `waiter`}},
		{"lowest spending table", []string{`"field":"table_id"`, `"desc":false`}, []string{`"uncovered"`}},
	})
}

// TestDividedAmong: how the rows divide among a field's values is a breakdown by it.
func TestDividedAmong(t *testing.T) {
	runParseCases(t, "analytics", []parseCase{
		{"Come si dividono gli ordini tra i vari metodi di pagamento?", []string{`"groupBy":{"source":"orders","field":"payment_method"}`}, []string{`"uncovered"`}},
		{"how are orders split across payment methods?", []string{`"field":"payment_method"`}, []string{`"uncovered"`}},
		{"how is revenue distributed among the various categories?", []string{`"metric":"revenue"`, `"field":"category"`}, []string{`"uncovered"`}},
	})
}

// TestFramingVerbsOfShares: verbs that frame a condition or a share ("avevano", "viene da",
// "account for", "pesano sul", "com'è andato"), "don't count X" as an exclusion, and field
// words users type (exposure, taxed at, margine percentuale).
func TestFramingVerbsOfShares(t *testing.T) {
	runParseCases(t, "analytics", []parseCase{
		{"Ad aprile, quanti ordini pagati con Satispay avevano uno sconto?", []string{`"values":["Satispay"]`, `"field":"discount_percent"`}, []string{`"uncovered"`}},
		{"Quanti clienti diversi sono passati a gennaio?", []string{`"count_distinct","field":"customer_id"`}, []string{`"uncovered"`}},
		{"Quanto pesano i vini sul fatturato totale, in percentuale?", []string{`"share"`, `"Vini"`}, []string{`"uncovered"`}},
		{"Gennaio contro febbraio: com'è andato il fatturato?", []string{`"compare"`, `"metric":"revenue"`}, []string{`"uncovered"`}},
		{"how many order lines are taxed at 22%?", []string{`"field":"tax_rate"`}, []string{`"uncovered"`}},
		{"Margine percentuale dei vini rispetto a quello delle pizze", []string{`"metric":"gross_margin_percent"`, `"compare"`}, []string{`"uncovered"`}},
		{"abbiamo venduto meno pizze o primi a marzo?", []string{`"compare"`}, []string{`"uncovered"`}}, // "o primi" is no "o prima"
	})
	runParseCases(t, "trade", []parseCase{
		{"What share of total import value does the United States account for?", []string{`"share"`, `"United States"`}, []string{`"uncovered"`}},
		{"che quota del valore totale viene dalle dichiarazioni del 2024?", []string{`"share"`}, []string{`"uncovered"`}},
	})
	runParseCases(t, "findings", []parseCase{
		{"How many findings are marked Open? Don't count in-progress or deferred ones.", []string{`"op":"notIn","values":["In Progress","Deferred"]`}, []string{`"uncovered"`}},
		{"Quanti finding critici sono stati rilevati nel 2025?", []string{`"Critical"`, `"from":"2025-01-01"`}, []string{`"uncovered"`}},
	})
	runParseCases(t, "clinical", []parseCase{
		{"Which patient had the longest treatment exposure?", []string{`"field":"TRTDURD"`}, []string{`"uncovered"`}},
		{"AEs with study day 14 or earlier", []string{`"op":"atMost","values":[14]`}, []string{`"uncovered"`}},
	})
}

// TestSmallReadings: "2nd half of 2022"; "in the data" frames nothing; a field followed by
// "più usato" / "used the most" ranks it by frequency; "(not weighted)" frames a plain average.
func TestSmallReadings(t *testing.T) {
	runParseCases(t, "findings", []parseCase{
		{"findings identified in the 2nd half of 2022 - how many?", []string{`"from":"2022-07-01","to":"2022-12-31"`}, []string{`"uncovered"`}},
	})
	runParseCases(t, "trade", []parseCase{
		{"hi! whats the total import value in the data?", []string{`"metric":"total_value"`}, []string{`"uncovered"`}},
		{"led tv 55 inch: plain avg of the unit prices on the declarations (not weighted)", []string{`"op":"average","field":"unitPriceUSD"`}, []string{`"uncovered"`}},
	})
	runParseCases(t, "analytics", []parseCase{
		{"metodo di pagamento piu usato? grazie", []string{`"field":"payment_method"`, `"limit":1`}, []string{`"uncovered"`}},
		{"payment method used the most", []string{`"field":"payment_method"`, `"limit":1`}, []string{`"uncovered"`}},
	})
}

// TestRestatedFormula: a measure restated by its parts and their arithmetic (after "i.e.",
// or as the last sentence) is read once; a formula that is not the measure's is refused.
func TestRestatedFormula(t *testing.T) {
	runParseCases(t, "analytics", []parseCase{
		{"What's the gross margin on the secondi? Revenue minus ingredient cost.", []string{`"metric":"gross_margin"`, `"Secondi"`}, []string{`"uncovered"`}},
		{"fatturato totale lordo? cioè prezzo x quantità prima degli sconti", []string{`"metric":"revenue"`}, []string{`"uncovered"`, `"groupBy"`}},
		{"Mi fai vedere il fatturato netto, cioè dopo gli sconti, diviso per categoria?", []string{`"metric":"net_revenue"`, `"field":"category"`}, []string{`"uncovered"`}},
		{"revenue minus food cost", []string{`"uncovered"`, `minus`}, nil},
		{"fatturato diviso per categoria", []string{`"field":"category"`}, []string{`"uncovered"`}},
	})
	runParseCases(t, "trade", []parseCase{
		{"Frozen shrimp: weighted average price per kg, i.e. total value divided by total kilos", []string{`"metric":"average_unit_price"`, `"Frozen shrimp"`}, []string{`"uncovered"`}},
		{"avg price per unit of galaxy a54, total value divided by total quantity", []string{`"uncovered"`}, nil}, // a plain average is not that formula
	})
}

// TestMeasureOnOtherBasis: a measure computed from the revenue, asked on the net revenue,
// is not declared; two measures with a percentage are the measure declared as their ratio.
func TestMeasureOnOtherBasis(t *testing.T) {
	runParseCases(t, "analytics", []parseCase{
		{"Top 3 waiters for average ticket net of discount.", []string{`ticket_medio on the net_revenue`}, nil},
		{"Food cost percent of the Secondi category, on the net revenue?", []string{`food_cost_percent on the net_revenue`}, nil},
		{"Net revenue of each waiter in March, after the discounts please.", []string{`"metric":"net_revenue"`, `"field":"waiter"`}, []string{`"uncovered"`}},
		{"Il food cost di gennaio in percentuale sul fatturato lordo, quanto era?", []string{`"metric":"food_cost_percent"`, `"from":"2025-01-01"`}, []string{`"uncovered"`, `"share"`}},
		{"food cost as a % of revenue in march", []string{`"metric":"food_cost_percent"`}, []string{`"uncovered"`, `"share"`}},
	})
	runParseCases(t, "findings", []parseCase{
		{"Which was the first finding ever identified?", []string{`"rows":true`, `"limit":1`, `"desc":false`}, []string{`"uncovered"`, `"groupBy"`}},
	})
}

// TestReportFraming: the framing of report writers (verbs that carry no condition, the
// table the answer is for, "calendar year", "both years together"), numbers joined to a
// word ("55-inch") or to another ("study day 1-30"), "one million", "X, not Y" after the
// count is named, and a threshold whose measure word comes after it ("exceed one million
// USD in value": each declaration's value, counted).
func TestReportFraming(t *testing.T) {
	runParseCases(t, "findings", []parseCase{
		{"In 2022, which quarter saw the most findings raised?", []string{`"grain":"quarter"`, `"limit":1`}, []string{`"uncovered"`}},
	})
	runParseCases(t, "analytics", []parseCase{
		{"A quanto ammontano in euro gli sconti concessi nel periodo gennaio-maggio?", []string{`"metric":"discount_amount"`, `"from":"2025-01-01","to":"2025-05-31"`}, []string{`"uncovered"`}},
		{"Confrontami il fatturato lordo di febbraio con quello di marzo.", []string{`"compare"`}, []string{`"uncovered"`}},
		{"Classifica dei 5 tavoli che rendono di più come incasso netto.", []string{`"metric":"net_revenue"`, `"field":"table_id"`, `"limit":5`}, []string{`"uncovered"`}},
		{"fatturato dei tavoli 1-5", []string{`"op":"between","values":[1,5]`}, []string{`"uncovered"`}},
	})
	runParseCases(t, "trade", []parseCase{
		{"What was the total declared import value for calendar year 2024, in USD?", []string{`"from":"2024-01-01","to":"2024-12-31"`}, []string{`"uncovered"`}},
		{"Top 3 importers by total value, both years together.", []string{`"field":"importCompanyName"`, `"limit":3`}, []string{`"uncovered"`}},
		{"Count the 2024 declarations of 55-inch LED TVs with Germany as import country.", []string{`"LED television 55 inch"`, `"Germany"`}, []string{`"uncovered"`}},
		{"How many declarations exceed one million USD in value?", []string{`"op":"greaterThan","values":[1000000]`, `"unit":"declarations"`}, []string{`"uncovered"`, `"metric":"total_value"`}},
		{"Quante dichiarazioni ha presentato XYZ Corporation nel 2023?", []string{`"XYZ Corporation"`}, []string{`"uncovered"`}},
	})
	runParseCases(t, "clinical", []parseCase{
		{"For the demographics table: number of subjects randomised in each treatment arm.", []string{`"field":"ARM"`, `"unit":"patients"`}, []string{`"uncovered"`}},
		{"how many AEs began within the first 30 days of treatment (study day 1-30)?", []string{`"op":"between","values":[1,30]`}, []string{`"uncovered"`}},
		{"Subjects with at least one AE by arm — subjects, not events.", []string{`"unit":"patients"`, `"field":"ARM"`}, []string{`"uncovered"`}},
		{"number of AEs per arm (events pls, not subjects)", []string{`"unit":"events"`, `"field":"ARM"`}, []string{`"uncovered"`}},
		{"patients not AEs", []string{`"uncovered"`}, nil},
	})
}

// TestAgeThresholdWords: "65 years or older", "65 and over", "40 or younger" are
// thresholds on the field, never a ranking by its extreme.
func TestAgeThresholdWords(t *testing.T) {
	runParseCases(t, "clinical", []parseCase{
		{"how many subjects 65 years or older are there in each arm", []string{`"field":"AGE","op":"atLeast","values":[65]`, `"field":"ARM"`}, []string{`"uncovered"`, `"limit"`}},
		{"subjects aged 65 and over", []string{`"field":"AGE","op":"atLeast","values":[65]`}, []string{`"uncovered"`}},
		{"patients 40 years or younger", []string{`"field":"AGE","op":"atMost","values":[40]`}, []string{`"uncovered"`}},
	})
}

// TestPercentChange: a change of a value between two periods asked in percent is the change
// from the period it is measured against ("rispetto ad aprile": April) to the other.
func TestPercentChange(t *testing.T) {
	runParseCases(t, "analytics", []parseCase{
		{"Di quanto è cambiato in percentuale il fatturato di maggio rispetto ad aprile?", []string{`"percentChange":true`, `"sides":[{"label":"2025-04"`}, []string{`"uncovered"`, `"share"`}},
		{"From March to April how much the net revenue is changed, in percent?", []string{`"percentChange":true`, `"sides":[{"label":"2025-03"`, `"metric":"net_revenue"`}, []string{`"uncovered"`, `"share"`}},
		{"variazione percentuale del fatturato tra marzo e aprile", []string{`"percentChange":true`}, []string{`"uncovered"`}},
		{"fatturato marzo vs aprile", []string{`"compare"`}, []string{`"percentChange"`, `"uncovered"`}},
	})
}

// TestPreambles: a leading clause about the one asking that names nothing of the data is
// no condition; one that names a value, a number, a date or a negation stays read.
func TestPreambles(t *testing.T) {
	runParseCases(t, "analytics", []parseCase{
		{"Sono nuovo qui e vorrei farmi un'idea: quanti ordini abbiamo registrato in tutto?", []string{`"unit":"orders"`, `speaks of the one asking`}, []string{`"uncovered"`}},
		{"I don't want discounts: revenue in march", []string{`"uncovered"`}, []string{`speaks of the one asking`}},
		{"Per capire come pagano i clienti: quanti ordini per ogni metodo di pagamento?", []string{`"uncovered"`}, []string{`speaks of the one asking`}},
	})
	runParseCases(t, "trade", []parseCase{
		{"Since I'm trying to learn when the peaks are: which month of 2024 had the highest total declared value?", []string{`"grain":"month"`, `"limit":1`}, []string{`"uncovered"`}},
	})
	runParseCases(t, "clinical", []parseCase{
		{"I'm taking over monitoring for site 103 next week. How many subjects does that site have?", []string{`"uncovered"`}, []string{`speaks of the one asking`}},
	})
}

// TestValueAndItsField: the field word right after a value is that value's own ("the High
// Dose group"), never what is counted; "total kilograms … across all declarations" sums the
// quantity in kg; "not X — Y, Z" where Y, Z are what X leaves is "not X".
func TestValueAndItsField(t *testing.T) {
	runParseCases(t, "clinical", []parseCase{
		{"Asian women in the High Dose group: how many?", []string{`"unit":"patients"`, `"High Dose"`}, []string{`"uncovered"`, `count_distinct`}},
	})
	runParseCases(t, "trade", []parseCase{
		{"Total kilograms of frozen shrimp across all declarations", []string{`"op":"sum","field":"quantity"`, `"values":["kg"]`}, []string{`"uncovered"`, `"op":"count"`}},
	})
	runParseCases(t, "findings", []parseCase{
		{"How many findings are not closed yet — open, in progress or deferred?", []string{`"op":"notIn","values":["Closed"]`}, []string{`"uncovered"`, `"In Progress"]`}},
		{"findings excluding closed, open, in progress and deferred", []string{`leaves no value of status`}, nil},
	})
}

// TestLearnersWords: the words of people learning the business — basis phrases (at menu
// prices, once discounts are taken off), "without any discount", "how big", "più debole",
// "che fetta", "whatever the unit", "racial make-up", a formula after the measure it restates.
func TestLearnersWords(t *testing.T) {
	runParseCases(t, "analytics", []parseCase{
		{"What's our total revenue at menu prices, before any discounts come off?", []string{`"metric":"revenue"`}, []string{`"uncovered"`, `net_revenue`}},
		{"Which waiter brings in the most money once discounts are taken off?", []string{`"metric":"net_revenue"`, `"field":"waiter"`}, []string{`"uncovered"`}},
		{"Luca's March orders without any discount — how many per payment method?", []string{`"field":"discount_percent","op":"equals"`, `"field":"payment_method"`}, []string{`"uncovered"`}},
		{"How many orders had some discount and was paid in cash?", []string{`"field":"discount_percent","op":"greaterThan"`}, []string{`"uncovered"`}},
		{"Qual è stato il mese più debole come fatturato netto, cioè dopo gli sconti?", []string{`"metric":"net_revenue"`, `"desc":false`}, []string{`"uncovered"`}},
		{"Che fetta del fatturato lordo (prima degli sconti) viene dai vini?", []string{`"share"`, `"Vini"`}, []string{`"uncovered"`}},
		{"Food cost %: ingredient cost over pre-discount revenue.", []string{`"metric":"food_cost_percent"`}, []string{`"uncovered"`}},
	})
	runParseCases(t, "trade", []parseCase{
		{"How many declarations are for a quantity of 5,000 or more, whatever the unit?", []string{`"field":"quantity","op":"atLeast","values":[5000]`}, []string{`"uncovered"`, `"field":"unit"`}},
		{"Quanti pezzi di Galaxy A54 sono entrati nel 2024?", []string{`"Smartphone Galaxy A54"`}, []string{`"uncovered"`}},
	})
	runParseCases(t, "clinical", []parseCase{
		{"How big is the ITT population?", []string{`"ITTFL"`}, []string{`"uncovered"`}},
		{"How many subjects stayed on treatment for more than 120 days?", []string{`"field":"TRTDURD","op":"greaterThan","values":[120]`}, []string{`"uncovered"`}},
		{"How many severe adverse events were there? I mean events, not people.", []string{`"unit":"events"`, `"SEVERE"`}, []string{`"uncovered"`}},
		{"How many adverse events were considered related to study drug, counting both 'related' and 'possibly related'?", []string{`"field":"AEREL"`, `"POSSIBLY RELATED"`}, []string{`"uncovered"`}},
	})
}

// TestWithoutDiscountsAmbiguous: "without discounts" right after a measure computed before
// them may keep the rows without one or mean the value before them: refused; after the rows
// it is their condition. A basis word with rows kept at zero discount is refused too.
func TestWithoutDiscountsAmbiguous(t *testing.T) {
	runParseCases(t, "analytics", []parseCase{
		{"fatturato senza sconti", []string{`"uncovered"`, `keeps the rows without`}, nil},
		{"revenue without discounts", []string{`"uncovered"`}, nil},
		{"revenue of orders without discounts", []string{`"field":"discount_percent","op":"equals"`}, []string{`"uncovered"`}},
		{"quanti ordini senza sconto", []string{`"field":"discount_percent","op":"equals"`}, []string{`"uncovered"`}},
		{"Scontrino medio per ordine, a prezzi pieni (senza sconti)", []string{`"uncovered"`}, nil},
		{"fatturato lordo degli ordini con sconto", []string{`"field":"discount_percent","op":"greaterThan"`}, []string{`"uncovered"`}},
	})
}

// TestTrapFamilies: a text search named in one text field searches that field only; a
// threshold "in total" is on each group's total; "whose" is a relative; a value joined to
// another field's word by "and" is refused.
func TestTrapFamilies(t *testing.T) {
	runParseCases(t, "findings", []parseCase{
		{"How many findings have the word 'missing' in their title?", []string{`"field":"title","op":"contains","values":["missing"]`}, []string{`"uncovered"`, `"or"`}},
		{"How many findings use the word 'missing' in their description?", []string{`"field":"description","op":"contains"`}, []string{`"uncovered"`, `"or"`}},
		{"findings mentioning fire", []string{`"or":["description"]`}, []string{`"uncovered"`}},
		{"List the critical findings whose status is Open.", []string{`"rows":true`, `"values":["Open"]`}, []string{`"uncovered"`, `"groupBy"`}},
	})
	runParseCases(t, "trade", []parseCase{
		{"Which companies imported more than 3 million USD in total, and how much each?", []string{`"having"`, `"field":"importCompanyName"`}, []string{`"uncovered"`, `"field":"totalValueUSD"`}},
		{"declarations with more than 3 million in total", []string{`"uncovered"`}, nil},
	})
	runParseCases(t, "analytics", []parseCase{
		{"How many different dishes and drinks did we sell in May?", []string{`"uncovered"`}, []string{`"Bevande"`}},
	})
}

// TestDifferenceSaid: "quanto … in più … rispetto a" and "how much more … than" ask the
// difference even beside a comparison word.
func TestDifferenceSaid(t *testing.T) {
	runParseCases(t, "trade", []parseCase{
		{"Nel 2024 quanto ha importato in più la Corea del Sud rispetto al Giappone, in dollari?", []string{`"difference":true`, `"label":"South Korea"`}, []string{`"uncovered"`}},
	})
	runParseCases(t, "analytics", []parseCase{
		{"quanto abbiamo fatturato in più a marzo rispetto a febbraio?", []string{`"difference":true`}, []string{`"uncovered"`}},
		{"fatturato marzo vs febbraio", []string{`"compare"`}, []string{`"difference":true`}},
		{"Di quanto è cambiato in percentuale il fatturato di maggio rispetto ad aprile?", []string{`"percentChange":true`}, []string{`"difference":true`}},
	})
}

// TestShareDenominators: every value after the share's verb is its condition ("are both
// critical and closed": of all findings); "è stata fatta a marzo" puts March in the
// condition; the rows and the condition as values of one field are refused.
func TestShareDenominators(t *testing.T) {
	runParseCases(t, "findings", []parseCase{
		{"What percentage of all findings are both critical and closed?", []string{`"share":{"filters":[{"source":"findings","field":"severity"`, `"values":["Closed"]`}, []string{`"uncovered"`, `"filters":[{"source":"findings","field":"status"`}},
		{"what percentage of open findings are high", []string{`"filters":[{"source":"findings","field":"status"`, `"share":{"filters":[{"source":"findings","field":"severity"`}, []string{`"uncovered"`}},
	})
	runParseCases(t, "analytics", []parseCase{
		{"Che percentuale del fatturato lordo delle pizze è stata fatta a marzo?", []string{`"share":{"time":`, `"values":["Pizze"]`}, []string{`"uncovered"`}},
	})
	runParseCases(t, "trade", []parseCase{
		{"what percentage of declarations from Japan are from China", []string{`rows and condition are values of one field`}, nil},
	})
	runParseCases(t, "clinical", []parseCase{
		{"How many patients never had any adverse event?", []string{`"unit":"patients"`}, []string{`"uncovered"`}},
	})
	runParseCases(t, "findings", []parseCase{
		{"How many findings were identified in the first quarter of 2022 (January to March)?", []string{`"from":"2022-01-01","to":"2022-03-31"`}, []string{`"uncovered"`}},
	})
}

// TestComparisonBeforeField: "on or after study day 50", "over age 65": the comparison
// before a numeric field and its number.
func TestComparisonBeforeField(t *testing.T) {
	runParseCases(t, "clinical", []parseCase{
		{"How many adverse events started on or after study day 50?", []string{`"field":"ASTDY","op":"atLeast","values":[50]`}, []string{`"uncovered"`}},
		{"patients over age 65", []string{`"field":"AGE","op":"greaterThan","values":[65]`}, []string{`"uncovered"`}},
		{"AEs with study day 30", []string{`"field":"ASTDY","op":"equals","values":[30]`}, []string{`"uncovered"`}},
	})
}

// TestShareOfAverage: "the average discount percentage" is the field's average, never a
// share; a share of an average is refused; the month of the year across years is refused.
func TestShareOfAverage(t *testing.T) {
	runParseCases(t, "analytics", []parseCase{
		{"Among the orders that got a discount, what was the average discount percentage?", []string{`"op":"average","field":"discount_percent"`, `"op":"greaterThan"`}, []string{`"uncovered"`, `"share"`}},
		{"what percentage of orders had a discount", []string{`"share"`}, []string{`"uncovered"`}},
	})
	runParseCases(t, "findings", []parseCase{
		{"Which calendar month, across all years, saw the most findings identified?", []string{`"uncovered"`}, nil},
	})
}

// TestPreamblesNamedAgain: a leading clause about the one asking may name what the question
// names again; "a prescindere da" fields is no condition; formatting asks nothing.
func TestPreamblesNamedAgain(t *testing.T) {
	runParseCases(t, "analytics", []parseCase{
		{"Sto guardando i secondi piatti: nel primo trimestre del 2025, quanto hanno fatturato i secondi pagati con carta di credito?", []string{`"Secondi"`, `"Carta di credito"`, `speaks of the one asking`}, []string{`"uncovered"`}},
		{"Sto guardando i vini: quanto hanno fatturato i secondi?", []string{`"uncovered"`}, []string{`speaks of the one asking`}},
	})
	runParseCases(t, "findings", []parseCase{
		{"Elenca i rilievi del reparto HR emessi nel 2025, a prescindere dalla severità e dallo stato.", []string{`"rows":true`, `"values":["HR"]`}, []string{`"uncovered"`, `"field":"severity"`, `"field":"status"`}},
		{"For each year, what share of that year's findings were critical? Percentages with one decimal.", []string{`"grain":"year"`, `"share"`}, []string{`"uncovered"`}},
		{"Quanti rilievi di severità bassa risultano chiusi?", []string{`"Low"`, `"Closed"`}, []string{`"uncovered"`}},
		{"findings regardless of", []string{`"uncovered"`}, nil},
	})
	runParseCases(t, "trade", []parseCase{
		{"What's the average declaration value when Japan is the import country?", []string{`"op":"average","field":"totalValueUSD"`, `"Japan"`}, []string{`"uncovered"`}},
		{"What is the weighted average unit price of semiconductor chips, meaning total value divided by total quantity across all their declarations?", []string{`"metric":"average_unit_price"`}, []string{`"uncovered"`}},
	})
}

// TestScopeFraming: "looking only at", "guardando" frame the scope the other words state;
// "orders where a discount was applied" have one; "calcolato come" restates a measure;
// "per un controllo" is what the answer is for.
func TestScopeFraming(t *testing.T) {
	runParseCases(t, "analytics", []parseCase{
		{"Guardando mese per mese, quale mese ha avuto lo scontrino medio più alto, calcolato come fatturato diviso numero di ordini?", []string{`"metric":"ticket_medio"`, `"grain":"month"`, `"limit":1`}, []string{`"uncovered"`}},
		{"I'd like a breakdown of the number of orders by payment method, but only for orders where a discount was applied.", []string{`"field":"payment_method"`, `"field":"discount_percent","op":"greaterThan"`}, []string{`"uncovered"`}},
		{"Per un controllo sugli sconti, mi elenchi tutti gli ordini di tagliata di manzo a cui è stato applicato lo sconto del 20%?", []string{`"rows":true`, `"values":[20]`}, []string{`"uncovered"`}},
		{"scontrino medio calcolato come fatturato diviso food cost", []string{`"uncovered"`}, nil},
	})
}

// TestEntityRows: a threshold on each customer's number of orders; "how many customers"
// counts those that pass; the orders of those customers are not read.
func TestEntityRows(t *testing.T) {
	runParseCases(t, "analytics", []parseCase{
		{"How many customers placed at least 5 orders?", []string{`"groupBy":{"source":"orders","field":"customer_id"}`, `"having":{"measure":0,"op":"atLeast","value":5}`, `"countGroups":true`}, []string{`"uncovered"`}},
		{"quanti clienti diversi hanno fatto almeno 5 ordini", []string{`"countGroups":true`}, []string{`"uncovered"`}},
		{"how many orders did customers with at least 5 orders make", []string{`"uncovered"`}, []string{`"countGroups"`}},
		{"revenue of customers with at least 5 orders", []string{`"uncovered"`}, nil},
	})
}

// TestRestatedConditions: "cioè" / "i.e." before conditions that restate the ones before
// them; the conditions are read with the others (one period said twice is one), and a
// restatement ends at an exclusion.
func TestRestatedConditions(t *testing.T) {
	runParseCases(t, "findings", []parseCase{
		{"Quanti rilievi sono stati identificati nel secondo semestre 2024, cioè da luglio a dicembre?", []string{`"from":"2024-07-01","to":"2024-12-31"`}, []string{`"uncovered"`}},
	})
	runParseCases(t, "clinical", []parseCase{
		{"How many adverse events began within the first 14 days of treatment, i.e. on study day 14 or earlier?", []string{`"field":"ASTDY","op":"atMost","values":[14]`}, []string{`"uncovered"`}},
	})
	runParseCases(t, "analytics", []parseCase{
		{"Qual è il fatturato lordo, cioè prima degli sconti, escludendo i vini?", []string{`"metric":"revenue"`, `"op":"notIn","values":["Vini"]`}, []string{`"uncovered"`}},
	})
}

// TestGoodsAsImports: "goods coming from", "imported goods", "merce proveniente" name the
// imports themselves; "by goods", "different goods" stay the goods dimension.
func TestGoodsAsImports(t *testing.T) {
	runParseCases(t, "trade", []parseCase{
		{"Average declaration value for goods coming from South Korea", []string{`"op":"average","field":"totalValueUSD"`, `"South Korea"`}, []string{`"uncovered"`}},
		{"How many different companies imported goods into Germany?", []string{`"count_distinct","field":"importCompanyName"`, `"Germany"`}, []string{`"uncovered"`}},
		{"Quante dichiarazioni riguardano merce proveniente dal Giappone?", []string{`"Japan"`}, []string{`"uncovered"`}},
		{"valore per merce", []string{`"groupBy":{"source":"transactions","field":"goodsName"}`}, []string{`"uncovered"`}},
	})
}

// TestEntityRepeat: "how many customers ordered more than once": more than one row of each
// customer, the customers counted; without a field that counts, refused.
func TestEntityRepeat(t *testing.T) {
	runParseCases(t, "analytics", []parseCase{
		{"how many customers ordered more than once", []string{`"having":{"measure":0,"op":"greaterThan","value":1}`, `"countGroups":true`}, []string{`"uncovered"`}},
		{"quanti clienti hanno ordinato più di una volta", []string{`"countGroups":true`}, []string{`"uncovered"`}},
		{"revenue more than once", []string{`"uncovered"`}, nil},
	})
}

// TestOrderByNamedDate: "the earliest AE onset" orders by the date named; asked of rows of
// another source (patients by their AEs' onset), it is refused, never ordered by the
// patients' own date.
func TestOrderByNamedDate(t *testing.T) {
	runParseCases(t, "clinical", []parseCase{
		{"Which patient had the earliest AE onset in the study?", []string{`a date of adae`}, []string{`"field":"RANDDT"`}},
		{"which AE had the earliest onset", []string{`"field":"ASTDT","desc":false`, `"limit":1`}, []string{`"uncovered"`}},
	})
}

// TestAskingFraming: "can I get", "battuto", "through each", "within <value>" frame what the
// other words ask; a ranking word with nothing ranked is refused, never a total.
func TestAskingFraming(t *testing.T) {
	runParseCases(t, "analytics", []parseCase{
		{"Can I get revenue month by month?", []string{`"grain":"month"`}, []string{`"uncovered"`}},
		{"Ciao, quanti ordini abbiamo battuto a marzo?", []string{`"unit":"orders"`, `"from":"2025-03-01"`}, []string{`"uncovered"`}},
		{"Credit card vs cash — how much revenue came in through each?", []string{`"compare"`}, []string{`"uncovered"`}},
		{"Tra le pizze, fammi la classifica per margine lordo in euro", []string{`"uncovered"`}, nil},
		{"classifica dei camerieri per fatturato", []string{`"field":"waiter"`}, []string{`"uncovered"`}},
	})
	runParseCases(t, "clinical", []parseCase{
		{"Within nervous system disorders, how many events per preferred term?", []string{`"field":"AEDECOD"`, `"Nervous system disorders"`}, []string{`"uncovered"`}},
	})
}

// TestTopOfValue: "top 3 pizze per fatturato" ranks the kinds of rows (the dishes) within
// the value named; "top 3 piatti" ranks all dishes.
func TestTopOfValue(t *testing.T) {
	runParseCases(t, "analytics", []parseCase{
		{"What are the top 3 first courses (primi) by gross revenue?", []string{`"field":"item_name"`, `"values":["Primi"]`, `"limit":3`}, []string{`"uncovered"`}},
		{"top 3 pizze per fatturato", []string{`"field":"item_name"`, `"values":["Pizze"]`, `"limit":3`}, []string{`"uncovered"`}},
		{"top 3 piatti per fatturato", []string{`"field":"item_name"`, `"limit":3`}, []string{`"uncovered"`, `"values":["Pizze"]`}},
	})
}

// TestItemsThreshold: "more than 3 items" is a threshold on the items' pieces, as "3 or
// more items"; a value after the number ("15 laptops") is no such field.
func TestItemsThreshold(t *testing.T) {
	runParseCases(t, "analytics", []parseCase{
		{"How many orders had more than 3 items?", []string{`"field":"quantity","op":"greaterThan","values":[3]`}, []string{`"uncovered"`}},
		{"Which waiter had the highest average gross ticket per order in April?", []string{`"metric":"ticket_medio"`, `"field":"waiter"`}, []string{`"uncovered"`}},
	})
	runParseCases(t, "trade", []parseCase{
		{"declarations of more than 15 laptops", []string{`"uncovered"`}, nil},
	})
}
