package query

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weirgw/weir/adapters/llm"
	"github.com/weirgw/weir/gateway/config"
	"github.com/weirgw/weir/rules"
)

// openExampleSource opens one dataset of an example as the query surface does.
func openExampleSource(t testing.TB, example, name, schema, csv, tool string) *Source {
	t.Helper()
	dir, _ := filepath.Abs(filepath.Join("../../examples", example, "data"))
	s, err := OpenSource(context.Background(), config.DataSource{Name: name, Schema: filepath.Join(dir, schema), CSV: filepath.Join(dir, csv), Tool: tool})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// engineFor builds an engine over sources, every tool allowed unless the guard says otherwise.
func engineFor(srcs ...*Source) *Engine {
	e := &Engine{Sources: map[string]*Source{}, Opts: config.QueryOptions{MaxResults: 50, KnownAnswerMin: 0.8}}
	for _, s := range srcs {
		e.Sources[s.Name] = s
		e.Order = append(e.Order, s.Name)
	}
	return e
}

func ask(t *testing.T, e *Engine, text string, route rules.Route, opts Options, g *policyGuard) (*Response, *Metadata) {
	t.Helper()
	if g == nil {
		g = &policyGuard{allowed: map[string]bool{"query_data": true, "query_findings": true, "execute_metric": true, "filter_data": true, "query_adsl": true, "query_adae": true, KnownAnswersTool: true}}
	}
	q := &Question{Text: text, Class: rules.Classification{Intent: "x"}, Intent: rules.Intent{Name: "x", Route: route}, Options: opts, Guard: g}
	resp, md, err := e.Answer(context.Background(), q)
	if err != nil {
		t.Fatalf("%q: %v", text, err)
	}
	return resp, md
}

var dataRoute = rules.Route{Kind: KindData}

// TestCannotAnswerReadsNothing: "never a wrong number" — a question asking something the
// semantic layer does not cover (a column the data lacks, a forecast) gets "cannot answer
// from the data", with no read made, no rows and no value.
func TestCannotAnswerReadsNothing(t *testing.T) {
	e := engineFor(openExampleSource(t, "trade", "transactions", "schema.yaml", "transactions.csv", "query_data"))
	for _, text := range []string{"how much import duty did we pay in 2024", "forecast the import value for 2025", "total value by HS code"} {
		resp, md := ask(t, e, text, dataRoute, Options{}, nil)
		if !strings.HasPrefix(resp.Answer, CannotAnswer) || len(md.ToolCalls) != 0 || len(resp.Rows) != 0 || resp.Result.Shape != "none" {
			t.Fatalf("%q: %q, %d calls, %d rows", text, resp.Answer, len(md.ToolCalls), len(resp.Rows))
		}
	}
}

// TestGrowthQuestion: seed 002's "how much revenue to grow 50%" answers the current value and
// Weir's own arithmetic on it, not the current revenue alone.
func TestGrowthQuestion(t *testing.T) {
	e := engineFor(openExampleSource(t, "analytics", "orders", "schema.yaml", "orders.csv", "execute_metric"))
	resp, _ := ask(t, e, "Quanto fatturato serve per crescere del 50%?", dataRoute, Options{}, nil)
	if resp.Result.Value != 21956.62 || resp.Result.Growth == nil || resp.Result.Growth.Target != 32934.93 || !strings.Contains(resp.Answer, "32934.93") {
		t.Fatalf("%q %+v", resp.Answer, resp.Result)
	}
}

// TestPage: seed 000's pagination — options.page returns the next page of a listing.
func TestPage(t *testing.T) {
	e := engineFor(openExampleSource(t, "analytics", "orders", "schema.yaml", "orders.csv", "filter_data"))
	p1, md1 := ask(t, e, "mostrami gli ordini di Giulia", dataRoute, Options{MaxResults: 10}, nil)
	p2, md2 := ask(t, e, "mostrami gli ordini di Giulia", dataRoute, Options{MaxResults: 10, Page: 2}, nil)
	if len(p1.Rows) != 10 || len(p2.Rows) != 10 || md1.Pagination == nil || md2.Pagination.Page != 2 || md2.Pagination.TotalCount != 177 {
		t.Fatalf("%d %d %+v %+v", len(p1.Rows), len(p2.Rows), md1.Pagination, md2.Pagination)
	}
	if p1.Rows[0].Get("order_id") == p2.Rows[0].Get("order_id") {
		t.Fatal("page 2 repeats page 1")
	}
}

// TestExplainShowsTheSQL: options.explain lists every read with its SQL and parameters.
func TestExplainShowsTheSQL(t *testing.T) {
	e := engineFor(openExampleSource(t, "findings", "findings", "schema.yaml", "findings.csv", "query_findings"))
	_, md := ask(t, e, "how many open critical findings in 2024", dataRoute, Options{Explain: true}, nil)
	if len(md.Steps) != 1 || !strings.Contains(md.Steps[0].SQL, `FROM "findings" WHERE`) || len(md.Steps[0].Args) == 0 || md.SemanticQuery == nil {
		t.Fatalf("%+v", md.Steps)
	}
}

// TestKnownAnswersAreNegationAware: seed 004's cache answers a question only when it asks
// the same thing; a negated or narrowed variant is answered from the data.
func TestKnownAnswersAreNegationAware(t *testing.T) {
	e := engineFor(openExampleSource(t, "clinical", "adsl", "adsl.schema.yaml", "adsl.csv", "query_adsl"),
		openExampleSource(t, "clinical", "adae", "adae.schema.yaml", "adae.csv", "query_adae"))
	k, err := LoadKnown("../../examples/clinical/data/known_answers.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	e.Known = k
	cases := []struct {
		text  string
		known bool
		value any
	}{
		{"How many serious adverse events were reported?", true, nil},
		{"How many non-serious adverse events were reported?", false, 56.0},
		{"How many serious adverse events were reported in the placebo arm?", false, 1.0},
		{"How many subjects are not in the safety population?", false, 0.0},
	}
	for _, c := range cases {
		resp, md := ask(t, e, c.text, rules.Route{Kind: KindData}, Options{}, nil)
		if (md.Route == "known") != c.known {
			t.Fatalf("%q: route %s, answer %q", c.text, md.Route, resp.Answer)
		}
		if !c.known && (resp.Result == nil || toF(resp.Result.Value) != c.value) {
			t.Fatalf("%q: %q %+v", c.text, resp.Answer, resp.Result)
		}
	}
}

func toF(v any) any {
	switch x := v.(type) {
	case int64:
		return float64(x)
	}
	return v
}

// contextModel records the system prompt it is given.
type contextModel struct{ prompt string }

func (m *contextModel) Generate(_ context.Context, msgs []llm.Message, _ llm.Options) (llm.Response, error) {
	m.prompt = msgs[0].Content
	return llm.Response{Text: "Analysis."}, nil
}

func (m *contextModel) Name() string { return "context" }

// TestKeywordsSelectTheModelsContext: seed 000 — the findings given to the model are those
// the question's words select (the fire findings), not the newest twenty.
func TestKeywordsSelectTheModelsContext(t *testing.T) {
	e := engineFor(openExampleSource(t, "findings", "findings", "schema.yaml", "findings.csv", "query_findings"))
	m := &contextModel{}
	e.Model = m
	route := rules.Route{Kind: KindLLM, Tools: []string{"query_findings"}, MaxContextRows: 20}
	resp, md := ask(t, e, "why do fire exits keep getting blocked?", route, Options{}, nil)
	if md.FindingsAnalyzed != 6 || strings.Count(m.prompt, "Fire exit blocked") != 6 || strings.Contains(m.prompt, "CCTV") || resp.Answer != "Analysis." {
		t.Fatalf("%d findings, prompt %s", md.FindingsAnalyzed, m.prompt)
	}
}

// TestPromptsArePackData: an intent's prompt file replaces the generic instruction.
func TestPromptsArePackData(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "x.md"), []byte("Sei un consulente."), 0o600); err != nil {
		t.Fatal(err)
	}
	e := engineFor(openExampleSource(t, "analytics", "orders", "schema.yaml", "orders.csv", "execute_metric"))
	e.Opts.Prompts = dir
	if err := e.Compile(); err != nil {
		t.Fatal(err)
	}
	m := &contextModel{}
	e.Model = m
	ask(t, e, "come vanno le cose", rules.Route{Kind: KindLLM}, Options{}, nil)
	if !strings.HasPrefix(m.prompt, "Sei un consulente.") || strings.Contains(m.prompt, "data analysis assistant") {
		t.Fatalf("prompt %q", m.prompt)
	}
}
