package docs

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestParseArguments(t *testing.T) {
	tests := []struct {
		raw   string
		want  ToolArguments
		error string
	}{
		{`{"query": "primary endpoint"}`, ToolArguments{Query: "primary endpoint"}, ""},
		{`{"query": "x", "limit": 3}`, ToolArguments{Query: "x", Limit: 3}, ""},
		{`{"query": "x", "limit": 500}`, ToolArguments{Query: "x", Limit: MaxLimit}, ""},
		{`{"query": ""}`, ToolArguments{}, "query is required"},
		{`{"limit": 2}`, ToolArguments{}, "query is required"},
		{`{"query": "x", "limit": -1}`, ToolArguments{}, "limit must be positive"},
		{`{"query": "x", "page": 2}`, ToolArguments{}, `unknown field "page"`},
		{`{"query": 7}`, ToolArguments{}, "arguments must be a JSON object"},
		{`{"query": "x"} {}`, ToolArguments{}, "one JSON object"},
		{`{"query": "` + strings.Repeat("x", MaxQueryBytes+1) + `"}`, ToolArguments{}, "longer than"},
	}
	for _, tc := range tests {
		got, err := ParseArguments([]byte(tc.raw))
		if tc.error != "" {
			if err == nil || !strings.Contains(err.Error(), tc.error) {
				t.Errorf("%.40s: err = %v, want %q", tc.raw, err, tc.error)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%.40s: %+v, %v; want %+v", tc.raw, got, err, tc.want)
		}
	}
}

func TestToolParametersIsJSONSchema(t *testing.T) {
	b, err := json.Marshal(ToolParameters())
	if err != nil || !strings.Contains(string(b), `"required":["query"]`) {
		t.Errorf("schema %s, %v", b, err)
	}
}

var passages = []Passage{
	{File: "docs/protocol.pdf", Page: 7, Section: "10 Statistics > 10.1 Sample size", Text: "Assuming a dropout rate of 15%,\n12 per arm.", Snippet: "…dropout rate of 15%…", Score: 10},
	{File: "docs/sap.md", Section: "3 Definitions > 3.3 Dropout", Text: "A dropout is a participant without a post-baseline ISI.", Score: 6},
	{File: "notes.txt", Text: "plain", Score: 4.9},
}

func TestCite(t *testing.T) {
	want := []string{"protocol.pdf p. 7", "sap.md § 3.3 Dropout", "notes.txt"}
	for i, p := range passages {
		if got := Cite(p); got != want[i] {
			t.Errorf("Cite = %q, want %q", got, want[i])
		}
	}
}

func TestToolResult(t *testing.T) {
	got := ToolResult(passages[:2])
	want := "[1] protocol.pdf p. 7 (10 Statistics > 10.1 Sample size)\nAssuming a dropout rate of 15%,\n12 per arm.\n\n" +
		"[2] sap.md § 3.3 Dropout\nA dropout is a participant without a post-baseline ISI."
	if got != want {
		t.Errorf("ToolResult =\n%s\nwant\n%s", got, want)
	}
	if got := ToolResult(nil); !strings.HasPrefix(got, "No passage") {
		t.Errorf("empty ToolResult = %q", got)
	}
}

func TestQuote(t *testing.T) {
	got := Quote(passages, 2)
	want := "From protocol.pdf p. 7: \"…dropout rate of 15%…\"\n" +
		"From sap.md § 3.3 Dropout: \"A dropout is a participant without a post-baseline ISI.\""
	if got != want {
		t.Errorf("Quote =\n%s\nwant\n%s", got, want)
	}
	if got := Quote(passages, 3); strings.Contains(got, "notes.txt") {
		t.Errorf("a passage under half the best score is quoted:\n%s", got)
	}
	long := Quote([]Passage{{File: "a.md", Text: strings.Repeat("é", 400)}}, 5)
	if !strings.HasSuffix(long, "…\"") || len(long) > 700 {
		t.Errorf("long quote not cut: %d bytes", len(long))
	}
}
