package docs

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseQuestion(t *testing.T) {
	tests := []struct {
		name, q string
		fts5    string
	}{
		{"stop words dropped, stems as prefixes", "What is the primary endpoint?", `"primar"* OR "endpoint"*`},
		{"short words exact and plural", "How many AEs per arm?", `"aes" OR "aess" OR "aeses" OR "aesed" OR "aesing" OR "arm" OR "arms" OR "armes" OR "armed" OR "arming"`},
		{"numbers exact", "Week 12 visit", `"week" OR "weeks" OR "weekes" OR "weeked" OR "weeking" OR "12" OR "visit" OR "visits" OR "visites" OR "visited" OR "visiting"`},
		{"British and American spelling meet", "randomised apnoea", `"randomiz"* OR "apne"*`},
		{"diacritics folded, Italian stop words", "Qual è la qualità della vita?", `"qualit"* OR "vita" OR "vitas" OR "vitaes" OR "vitaed" OR "vitaing"`},
		{"quoted phrase added", `what's the "primary endpoint"?`, `"primar"* OR "endpoint"* OR "primary endpoint"`},
		{"operators are words", `AND OR NOT NEAR(a b) title:x * ^y -z`, `"near" OR "nears" OR "neares" OR "neared" OR "nearing" OR "titl"*`},
		{"only stop words", "what is it?", ``},
		{"duplicate words once", "dose dose doses", `"dose" OR "doses" OR "dosed" OR "dosing" OR "dose"*`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := parseQuestion(tc.q).fts5(); got != tc.fts5 {
				t.Errorf("parseQuestion(%q).fts5() = %s, want %s", tc.q, got, tc.fts5)
			}
		})
	}
}

func TestTSQueries(t *testing.T) {
	got := parseQuestion(`sites "primary endpoint" 12 age`).tsqueries()
	want := []string{`'site':*`, `'primar':*`, `'endpoint':*`, `'12'`, `'age' | 'ages' | 'aged' | 'aging'`, `'primary' <-> 'endpoint'`}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("tsqueries = %q, want %q", got, want)
	}
}

func TestNormalize(t *testing.T) {
	tests := map[string]string{
		"apnoea": "apnea", "haematology": "hematology", "aes": "aes", "aesi": "aesi",
		"randomised": "randomized", "randomisation": "randomization", "analysed": "analyzed",
		"analysis": "analysis", "behaviour": "behavior", "hour": "hour", "enrolled": "enroled",
		"enrollment": "enrolment", "centre": "center", "does": "does",
	}
	for in, want := range tests {
		if got := normalize(in); got != want {
			t.Errorf("normalize(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSnippet(t *testing.T) {
	text := "The sample size is based on the comparison of High Dose with Placebo for the primary endpoint. " +
		"Assuming a difference of 4.5 points in the change from baseline in the ISI total score at Week 12, " +
		"a common standard deviation of 3.5 points, 10 evaluable participants per arm are needed. " +
		"Assuming a dropout rate of 15% (participants without a post-baseline ISI assessment), 12 participants are randomised per arm."
	got := snippet(text, parseQuestion("What dropout rate was assumed in the sample size calculation?"))
	if !strings.HasPrefix(got, "…Assuming a dropout rate of 15%") {
		t.Errorf("snippet = %q, want the sentence with the rarer words", got)
	}
	if short := snippet("a short text", parseQuestion("text")); short != "a short text" {
		t.Errorf("short snippet = %q", short)
	}
}
