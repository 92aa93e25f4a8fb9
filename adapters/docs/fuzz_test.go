package docs

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzSearch: whatever a user or a model sends as a question — quotes, FTS5 operators
// (AND, NEAR, *, ^, :, -), SQL, invalid UTF-8 — the search is never a syntax error: it finds
// passages or none, each with a valid UTF-8 snippet taken from its text.
func FuzzSearch(f *testing.F) {
	for _, s := range []string{"What dropout rate was assumed?", `"primary endpoint" AND NEAR(a b)`, "age* ^col:x -y",
		"'; DROP TABLE weir_doc_chunks; --", "qualità dell'aria", "“sample size” «power»", `"unterminated`, "\xff\xfe", "", "a", "12 24 100 mg"} {
		f.Add(s)
	}
	dir := writeFiles(f, map[string]string{"docs/protocol.md": "# Sample size\n\nAssuming a dropout rate of 15%, 12 participants are randomised per arm.\n\n" +
		"# Safety\n\nEvery SAE is reported within 24 hours. Primary endpoint: change in ISI at Week 12.\n"})
	ix := openIndex(f, Config{Name: "fuzz", BaseDir: dir, Paths: []string{"docs/*.md"}})
	f.Fuzz(func(t *testing.T, q string) {
		ps, err := ix.Search(context.Background(), q, 3)
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		for _, p := range ps {
			if !utf8.ValidString(p.Snippet) || !strings.Contains(strings.Join(strings.Fields(p.Text), " "), strings.Trim(p.Snippet, "…")) {
				t.Fatalf("%q: snippet %q not from %q", q, p.Snippet, p.Text)
			}
		}
	})
}

// FuzzParseArguments: any arguments of a search tool call either decode into a query and
// a limit within bounds, or are refused with an error for the model; never a panic.
func FuzzParseArguments(f *testing.F) {
	for _, s := range []string{`{"query":"dropout","limit":5}`, `{"query":""}`, `{"query":"x","limit":-1}`, `{"query":"x","limit":1e9}`,
		`{"query":"x","extra":1}`, `{"query":"x"}{}`, `[]`, `null`, ``} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		a, err := ParseArguments(raw)
		if err == nil && (strings.TrimSpace(a.Query) == "" || len(a.Query) > MaxQueryBytes || a.Limit < 0 || a.Limit > MaxLimit) {
			t.Fatalf("%q accepted as %+v", raw, a)
		}
	})
}
