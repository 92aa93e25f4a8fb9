package nl

import "testing"

func TestDroppedOrSwapped(t *testing.T) {
	for _, c := range []struct {
		w, c string
		want bool
	}{
		{"oders", "orders", true}, // a letter dropped
		{"tabel", "table", true},  // neighbours swapped
		{"tible", "table", false}, // a letter changed
		{"ordersx", "orders", false},
		{"orderz", "orders", false},
		{"order", "orders", false}, // the last letter: another word
	} {
		if got := droppedOrSwapped(c.w, c.c); got != c.want {
			t.Errorf("droppedOrSwapped(%q, %q) = %v, want %v", c.w, c.c, got, c.want)
		}
	}
}

func TestOneEdit(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"febraio", "febbraio", true}, // a letter dropped
		{"fatturatto", "fatturato", true},
		{"improt", "import", true}, // neighbours swapped
		{"revanue", "revenue", true},
		{"revenue", "revenue", false}, // the same word is no typo
		{"reveneu", "revenue", true},
		{"revneeu", "revenue", false}, // two edits
		{"ordini", "ordine", true},
		{"abc", "abcde", false},
		{"città", "citta", true},   // runes, not bytes
		{"median", "media", false}, // a letter more at the end is another word
		{"vendutto", "venduto", true},
	} {
		if got := oneEdit(c.a, c.b); got != c.want {
			t.Errorf("oneEdit(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// TestTypos: an unknown word one edit from exactly one vocabulary word is read as it, and
// the query's notes say so; names of values, short words and words near two are not.
func TestTypos(t *testing.T) {
	runParseCases(t, "analytics", []parseCase{
		{"fatturto per categoria", []string{`"metric":"revenue"`, `"field":"category"`, `\"fatturto\" read as \"fatturato\"`}, []string{`"uncovered"`}},
		{"ordini di febraio", []string{`"ranges":[{"from":"2025-02-01","to":"2025-02-28"}]`, `read as \"febbraio\"`}, []string{`"uncovered"`}},
		{"orders served by Giula", []string{`"uncovered":["the data has nothing called \"giula\" (closest: Giulia)"]`}, []string{"read as"}},
		{"orders served by Giuliaa", []string{`"uncovered"`}, []string{"read as"}}, // a name: never guessed
		// Five letters: a dropped letter or two swapped neighbours only, never a changed one.
		{"how many oders did table 12 have in march?", []string{`"op":"count"`, `\"oders\" read as \"orders\"`, `"values":[12]`}, []string{`"uncovered"`}},
		{"ordni by category", []string{`"field":"category"`, `read as \"ordini\"`}, []string{`"uncovered"`}},
		{"revenue by tabel", []string{`"field":"table_id"`, `read as \"table\"`}, []string{`"uncovered"`}},
		{"revenue by tible", []string{`"uncovered"`}, []string{"read as"}}, // a changed letter: too short to guess
		{"revenue by ordr", []string{`"uncovered"`}, []string{"read as"}},  // four letters: never
	})
	runParseCases(t, "trade", []parseCase{
		{"improt value per year", []string{`"metric":"total_value"`, `"grain":"year"`, `read as \"import\"`}, []string{`"uncovered"`}},
		// Never a word of the generic lexicon: "leaving" is not "leading" (a top N).
		{"top 2 countries by import value, leaving the United States", []string{`"uncovered"`}, []string{"read as"}},
	})
}

// TestShorthand: contractions, abbreviations, month ranges with a hyphen, greetings and
// framing are read as what they stand for.
func TestShorthand(t *testing.T) {
	runParseCases(t, "findings", []parseCase{
		{"show me the critical findings that aren't closed yet", []string{`"field":"status","op":"notIn","values":["Closed"]`}, []string{`"uncovered"`}},
		{"I'd like to know how many findings were identified in the first half of 2024", []string{`"op":"count"`, `"ranges":[{"from":"2024-01-01","to":"2024-06-30"}]`}, []string{`"uncovered"`}},
		{"findings per yr", []string{`"grain":"year"`}, []string{`"uncovered"`}},
		{"hey, tot findings Q1 2025 rn", []string{`"op":"count"`, `"ranges":[{"from":"2025-01-01","to":"2025-03-31"}]`}, []string{`"uncovered"`}},
		{"findings Oct-Dec 2024", []string{`"ranges":[{"from":"2024-10-01","to":"2024-12-31"}]`}, []string{`"uncovered"`}},
		{"total no. of findings", []string{`"op":"count"`}, []string{`"uncovered"`, "notIn"}},
		{"the company's findings", []string{`"uncovered"`}, nil}, // a possessive is no verb
	})
	runParseCases(t, "analytics", []parseCase{
		{"fatturato gen-feb", []string{`"ranges":[{"from":"2025-01-01","to":"2025-02-28"}]`}, []string{`"uncovered"`}},
		{"avg qty per order", []string{`"metric":"average_quantity"`}, []string{`"uncovered"`}},
	})
}

// TestNamesWithNumbers: a code or a number that is a word of a product's name names the
// product, never a count or a threshold.
func TestNamesWithNumbers(t *testing.T) {
	runParseCases(t, "trade", []parseCase{
		{"declarations of the Dell Inspiron 15 laptop", []string{`"values":["Laptop Dell Inspiron 15"]`}, []string{`"uncovered"`}},
		{"highest unit price for the 55 inch LED TVs", []string{`"values":["LED television 55 inch"]`, `"op":"max"`}, []string{`"uncovered"`}},
		{"how many Galaxy A54 units from Germany", []string{`"values":["Smartphone Galaxy A54"]`, `"op":"sum","field":"quantity"`}, []string{`"uncovered"`}},
		{"declarations of more than 15 laptops", []string{`"uncovered"`}, nil}, // 15 is no word of a name here
	})
}

// TestExclusionAfter: "contanti esclusi" leaves the values before it out; before other
// values it excludes those.
func TestExclusionAfter(t *testing.T) {
	runParseCases(t, "analytics", []parseCase{
		{"numero ordini per metodo di pagamento, contanti esclusi", []string{`"field":"payment_method","op":"notIn","values":["Contanti"]`}, []string{`"uncovered"`}},
		{"fatturato delle pizze, esclusi i vini", []string{`"op":"in","values":["Pizze"]`, `"op":"notIn","values":["Vini"]`}, []string{`"uncovered"`}},
	})
	runParseCases(t, "clinical", []parseCase{
		{"mean treatment duration in days", []string{`"op":"average","field":"TRTDURD"`}, []string{`"uncovered"`}},
	})
}

// TestSeasonsAndRepeats: seasons are their months; a period said twice is asked once.
func TestSeasonsAndRepeats(t *testing.T) {
	runParseCases(t, "findings", []parseCase{
		{"how many findings came up in the spring of 2024", []string{`"ranges":[{"from":"2024-03-01","to":"2024-05-31"}]`}, []string{`"uncovered"`}},
		{"findings in autunno 2023", []string{`"ranges":[{"from":"2023-09-01","to":"2023-11-30"}]`}, []string{`"uncovered"`}},
		{"findings that fall in 2023", []string{`"ranges":[{"from":"2023-01-01","to":"2023-12-31"}]`}, []string{"09-01"}}, // "fall" the verb
	})
	runParseCases(t, "analytics", []parseCase{
		{"which waiter brought in the most revenue in the spring months, March through May", []string{`"ranges":[{"from":"2025-03-01","to":"2025-05-31"}]`, `"field":"waiter"`}, []string{`"uncovered"`}},
		{"top 5 piatti x fatturato", []string{`"field":"item_name"`, `"limit":5`, `"metric":"revenue"`}, []string{`"uncovered"`}},
	})
	runParseCases(t, "clinical", []parseCase{
		{"how many subjects didn't have any adverse events?", []string{`"not":true`}, []string{`"uncovered"`}},
	})
}

// TestSharePerGroup: a percentage by a dimension is each group's share — of its rows that
// match the condition, or without one of all the rows.
func TestSharePerGroup(t *testing.T) {
	runParseCases(t, "findings", []parseCase{
		{"percentage of findings by severity", []string{`"groupBy":{"source":"findings","field":"severity"}`, `"share":{}`}, []string{`"uncovered"`}},
		{"percentage of closed findings by department", []string{`"field":"department"`, `"share":{"filters":[{"source":"findings","field":"status","op":"in","values":["Closed"]}]}`}, []string{`"uncovered"`}},
		{"percentage of findings by severity, highest first", []string{`"uncovered"`}, nil},
	})
	runParseCases(t, "clinical", []parseCase{
		{"% of patients with at least one AE, per arm", []string{`"field":"ARM"`, `"share":{"exists"`}, []string{`"uncovered"`}},
	})
}

// TestListingWithoutRowNoun: "list the deferred ones" asks for the rows the values select.
func TestListingWithoutRowNoun(t *testing.T) {
	runParseCases(t, "findings", []parseCase{
		{"list the deferred ones please", []string{`"rows":true`, `"values":["Deferred"]`}, []string{`"uncovered"`, `"measures"`}},
		{"show me everything HR has that's still open or in progress", []string{`"rows":true`, `"values":["Open","In Progress"]`}, []string{`"uncovered"`}},
	})
}
