package query

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/weirgw/weir/gateway/config"
)

// openExample opens an example's demo data as the query surface would.
func openExample(t *testing.T, name, csv string, filters map[string]config.FilterMap) *Source {
	t.Helper()
	dir, _ := filepath.Abs(filepath.Join("../../examples", name, "data"))
	s, err := OpenSource(context.Background(), config.DataSource{Name: name, Schema: filepath.Join(dir, "schema.yaml"), CSV: filepath.Join(dir, csv), Tool: "query_data", Filters: filters})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

var analyticsFilters = map[string]config.FilterMap{
	"metric":     {Role: config.RoleMetric},
	"dimension":  {Role: config.RoleGroupBy, Values: map[string]string{"calendar_month": "month"}},
	"year":       {Role: config.RoleYear},
	"date_range": {Role: config.RoleDateRange},
	"period":     {Role: config.RolePeriod},
	"limit":      {Role: config.RoleLimit},
}

func TestBuildQuery(t *testing.T) {
	orders := openExample(t, "analytics", "orders.csv", analyticsFilters)
	findings := openExample(t, "findings", "findings.csv", map[string]config.FilterMap{"keywords": {Role: config.RoleIgnore}})
	trade := openExample(t, "trade", "transactions.csv", nil)
	exact := openExample(t, "findings", "findings.csv", map[string]config.FilterMap{"severity": {Role: config.RoleField, Match: "exact"}})
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name    string
		src     *Source
		filters string
		want    string // the query as JSON
		warn    string
	}{
		{"metric", orders, `{"metric":"revenue"}`, `{"type":"aggregation","filters":null,"aggregations":[{"metric":"revenue"}],"limit":50,"confidence":0}`, ""},
		{"grouped and renamed", orders, `{"metric":"revenue","dimension":"calendar_month"}`, `"aggregations":[{"metric":"revenue","groupBy":"month"}]`, ""},
		{"year on the time field", orders, `{"metric":"revenue","year":2025}`, `{"field":"order_date","operator":"between","value":["2025-01-01","2025-12-31"]}`, ""},
		{"month name takes the year", orders, `{"metric":"revenue","period":"marzo","year":2025}`, `"value":["2025-03-01","2025-03-31"]`, ""},
		{"month name alone is its latest occurrence", orders, `{"period":"dicembre"}`, `"value":["2025-12-01","2025-12-31"]`, ""},
		{"relative period", orders, `{"period":"last_month"}`, `"value":["2026-10-01","2026-10-31"]`, ""},
		{"open range", orders, `{"date_range":{"start":"2025-03-01"}}`, `{"field":"order_date","operator":"greaterThan","value":"2025-02-28"}`, ""},
		{"a period Weir cannot express", orders, `{"metric":"revenue","period":"weekend"}`, `"filters":null`, "period=weekend not applied"},
		{"unknown metric is dropped", orders, `{"metric":"happiness"}`, `{"type":"detail","filters":null,"limit":50,"confidence":0}`, "aggregation not applied"},
		{"limit", orders, `{"limit":5}`, `"limit":5`, ""},
		{"lists become in, normalized", findings, `{"severity":["Critical","High"],"year":2024,"keywords":["fire"]}`,
			`"filters":[{"field":"severity","operator":"in","value":["Critical","High"],"matchStrategy":"normalized"},{"field":"year","operator":"equals","value":2024}]`, ""},
		{"operators are kept", trade, `{"totalValueUSD":{"greaterThan":50000},"importCountry":["China"]}`,
			`[{"field":"importCountry","operator":"equals","value":"China","matchStrategy":"normalized"},{"field":"totalValueUSD","operator":"greaterThan","value":50000}]`, ""},
		{"a value the dataset rejects is dropped", exact, `{"severity":"Catastrophic","status":["Open"]}`, `"filters":[{"field":"status","operator":"equals","value":"Open","matchStrategy":"normalized"}]`, "Catastrophic\" is not a value of severity"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var f map[string]any
			if err := json.Unmarshal([]byte(c.filters), &f); err != nil {
				t.Fatal(err)
			}
			b := buildQuery(c.src, f, 50, now)
			if len(b.warnings) > 0 && c.warn == "" {
				t.Fatalf("unexpected warnings %q", b.warnings)
			}
			got, _ := json.Marshal(b.query)
			if !strings.Contains(string(got), c.want) {
				t.Fatalf("query %s\nwant it to contain %s (warnings %q)", got, c.want, b.warnings)
			}
			if c.warn != "" && !strings.Contains(strings.Join(b.warnings, "; "), c.warn) {
				t.Fatalf("warnings %q, want %q", b.warnings, c.warn)
			}
			if _, err := c.src.Run(context.Background(), b.query); err != nil {
				t.Fatalf("the built query does not run: %v", err)
			}
		})
	}
}

func TestKnownAnswers(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "known.jsonl")
	os.WriteFile(path, []byte(`{"question": "How many immune system disorder AEs are recorded?", "answer": "3 events.", "source": "adae"}
# a comment
{"question": "What is the primary endpoint?", "answer": "Not computable"}
{"question": "What is the planned sample size?", "answer": "120 patients."}
`), 0o600)
	k, err := LoadKnown(path)
	if err != nil || k.Len() != 2 {
		t.Fatalf("%v, %d pairs (the not computable one is skipped)", err, k.Len())
	}
	m := k.Best("how many immune-system disorder AEs were recorded")
	if m == nil || m.Answer != "3 events." || m.Similarity < 0.8 {
		t.Fatalf("best %+v", m)
	}
	if m := k.Best("planned sample size for the trial?"); m == nil || m.Answer != "120 patients." {
		t.Fatalf("best %+v", m)
	}
	if m := k.Best("zzz"); m != nil {
		t.Fatalf("no keyword shared, got %+v", m)
	}
	os.WriteFile(path, []byte("{\"question\": \"q\", \"answer\": \"a\", \"extra\": 1}\n"), 0o600)
	if _, err := LoadKnown(path); err == nil || !strings.Contains(err.Error(), "known.jsonl:1") {
		t.Fatalf("a bad line must be an error with its line: %v", err)
	}
}

func TestDecodeRequest(t *testing.T) {
	r, err := DecodeRequest([]byte(`{"query": "How many orders?", "session_id": "s1", "options": {"mode": "simple", "max_results": 5, "include_metadata": false}}`))
	if err != nil || r.Options.Mode != ModeSimple || r.Options.MaxResults != 5 || *r.Options.IncludeMetadata {
		t.Fatalf("%+v %v", r, err)
	}
	if _, err := DecodeRequest([]byte(`{"query": "x", "options": {"mode": "fast"}}`)); err == nil || !strings.Contains(err.Error(), "options.mode") {
		t.Fatalf("a bad mode must be refused: %v", err)
	}
}

// TestBuildQueryGoValues: the classifier's own value types (int, []string) are accepted.
func TestBuildQueryGoValues(t *testing.T) {
	findings := openExample(t, "findings", "findings.csv", nil)
	b := buildQuery(findings, map[string]any{"year": 2024, "severity": []string{"Critical", "High"}}, 50, time.Now())
	got, _ := json.Marshal(b.query)
	if len(b.warnings) > 0 || !strings.Contains(string(got), `{"field":"year","operator":"equals","value":2024}`) || !strings.Contains(string(got), `"operator":"in","value":["Critical","High"]`) {
		t.Fatalf("%s %q", got, b.warnings)
	}
}

// TestContextBlock: the llm route's context stops at the row cap and at the token budget.
func TestContextBlock(t *testing.T) {
	orders := openExample(t, "analytics", "orders.csv", nil)
	res, err := orders.Query(context.Background(), []byte(`{"type":"detail","limit":100}`))
	if err != nil {
		t.Fatal(err)
	}
	results := []SourceResult{{Name: "orders", Used: true, Columns: res.Columns, Rows: res.Rows, Total: res.Total}}
	block, n := contextBlock(results, 20, 10000)
	if n != 20 || !strings.Contains(block, "left out to stay within 20 rows") {
		t.Fatalf("row cap: %d rows\n%s", n, block)
	}
	block, n = contextBlock(results, 100, 500)
	if n == 0 || n >= 20 || estimateTokens(len(block)) > 500+50 {
		t.Fatalf("token cap: %d rows, %d tokens", n, estimateTokens(len(block)))
	}
}
