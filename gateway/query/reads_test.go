package query

import (
	"context"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/weirgw/weir/adapters/data"
	"github.com/weirgw/weir/adapters/llm"
	"github.com/weirgw/weir/gateway/config"
	"github.com/weirgw/weir/policies/grounding"
	"github.com/weirgw/weir/rules"
)

// policyGuard is a tools decision by allowed tool names (the built-in library's matrix),
// recording every call it was asked about.
type policyGuard struct {
	allowed map[string]bool
	asked   []llm.ToolCall
}

func (g *policyGuard) Tools(_ context.Context, calls []llm.ToolCall) ([]Verdict, error) {
	g.asked = append(g.asked, calls...)
	out := make([]Verdict, len(calls))
	for i, c := range calls {
		out[i] = Verdict{Allow: g.allowed[c.Name]}
		if !out[i].Allow {
			out[i].Reason = "tool " + c.Name + " is not allowed"
		}
	}
	return out, nil
}

func (g *policyGuard) Answer(_ context.Context, text string, _ []grounding.Source, _ []string) (string, error) {
	return text, nil
}

// countingBackend counts the plans it runs.
type countingBackend struct {
	data.Backend
	runs atomic.Int32
}

func (b *countingBackend) Run(ctx context.Context, p *data.Plan) (*data.Result, error) {
	b.runs.Add(1)
	return b.Backend.Run(ctx, p)
}

// ordersSource opens the analytics orders with the read tools of seed 002.
func ordersSource(t *testing.T) (*Source, *countingBackend) {
	t.Helper()
	dir, _ := filepath.Abs("../../examples/analytics/data")
	cfg := config.DataSource{Name: "orders", Schema: filepath.Join(dir, "schema.yaml"), CSV: filepath.Join(dir, "orders.csv"), Tool: "execute_metric",
		Tools: config.ReadTools{Rows: "filter_data", Metric: "execute_metric", Group: "aggregate_group", Compare: "compare_periods"}}
	s, err := OpenSource(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	cb := &countingBackend{Backend: s.Backend}
	s.Backend = cb
	return s, cb
}

// seed002 is the intents of seed 002 with their routes and allowed tools.
var seed002 = map[string]struct {
	route   rules.Route
	allowed []string
}{
	"analytics":      {rules.Route{Kind: KindData, Tools: []string{"execute_metric", "aggregate_group", "compare_periods"}}, []string{"execute_metric", "aggregate_group", "compare_periods"}},
	"data_preview":   {rules.Route{Kind: KindData, Tools: []string{"filter_data"}}, []string{"filter_data"}},
	"strategy":       {rules.Route{Kind: KindLLM}, nil},
	"conversational": {rules.Route{Kind: KindLLM}, nil},
}

// TestReadsArePolicyDecided: whatever the intent, the extracted filters and the client's
// mode, Weir returns rows only from reads the intent's policy allows, and a denied read
// never reaches the backend (issue 12, point 6).
func TestReadsArePolicyDecided(t *testing.T) {
	src, backend := ordersSource(t)
	questions := []string{"grazie", "fatturato totale", "fatturato per categoria", "mostrami 5 ordini", "prime 10 righe"}
	modes := []string{"", ModeAuto, ModeSimple, ModeComplex, ModeHybrid}
	for intent, in := range seed002 {
		for _, text := range questions {
			for _, mode := range modes {
				g := &policyGuard{allowed: map[string]bool{}}
				for _, tool := range in.allowed {
					g.allowed[tool] = true
				}
				e := &Engine{Sources: map[string]*Source{"orders": src}, Order: []string{"orders"}, Opts: config.QueryOptions{MaxResults: 50}}
				q := &Question{Text: text, Class: rules.Classification{Intent: intent}, Intent: rules.Intent{Name: intent, Route: in.route},
					Options: Options{Mode: mode}, Guard: g}
				before := backend.runs.Load()
				resp, md, qerr := e.Answer(context.Background(), q)
				ran := backend.runs.Load() - before
				name := intent + "/" + mode
				var rows int
				if resp != nil {
					rows = len(resp.Rows)
				}
				allowedReads := 0
				for _, c := range md.ToolCalls {
					if c.Origin != OriginWeir {
						t.Fatalf("%s: a call of origin %q without a model", name, c.Origin)
					}
					if c.Allow != g.allowed[c.Name] {
						t.Fatalf("%s: call %s recorded allow=%v", name, c.Name, c.Allow)
					}
					if c.Allow {
						allowedReads++
					}
				}
				if len(g.asked) != len(md.ToolCalls) {
					t.Fatalf("%s: %d calls decided, %d recorded", name, len(g.asked), len(md.ToolCalls))
				}
				if int(ran) != allowedReads {
					t.Fatalf("%s: the backend ran %d queries for %d allowed reads", name, ran, allowedReads)
				}
				if rows > 0 && allowedReads == 0 {
					t.Fatalf("%s: %d rows without an allowed read: %+v", name, rows, md.ToolCalls)
				}
				if qerr == nil && len(md.ToolCalls) > 0 && allowedReads == 0 && !strings.Contains(resp.Answer, "not read") {
					t.Fatalf("%s: every read was denied but the answer says %q", name, resp.Answer)
				}
			}
		}
	}
}

// TestModeNarrowsTheRoute: options.mode takes a route kind only where the intent's route
// has what it needs; otherwise POLICY_DENIED names the intent and its route.
func TestModeNarrowsTheRoute(t *testing.T) {
	src, _ := ordersSource(t)
	reads := rules.Route{Kind: KindLLM, Tools: []string{"execute_metric"}}
	cases := []struct {
		route rules.Route
		mode  string
		want  string // route kind, or "403"
	}{
		{rules.Route{Kind: KindData}, "", KindData},
		{rules.Route{Kind: KindData}, ModeSimple, KindData},
		{rules.Route{Kind: KindData}, ModeComplex, "403"},
		{rules.Route{Kind: KindData}, ModeHybrid, "403"},
		{rules.Route{Kind: KindLLM}, ModeSimple, "403"}, // conversational: no rows
		{rules.Route{Kind: KindLLM}, ModeHybrid, "403"},
		{rules.Route{Kind: KindLLM}, ModeComplex, KindLLM},
		{reads, ModeSimple, KindData}, // seed 000's complex: its context rows may be shown
		{reads, ModeHybrid, KindDataLLM},
		{rules.Route{Kind: KindDataLLM}, ModeSimple, KindData},
		{rules.Route{Kind: KindDataLLM}, ModeComplex, KindLLM},
		{rules.Route{Kind: KindAgent}, ModeSimple, KindData},
		{rules.Route{Kind: KindAgent}, ModeHybrid, KindDataLLM},
		{rules.Route{Kind: KindAgent}, ModeAuto, KindAgent},
	}
	for _, c := range cases {
		t.Run(c.route.Kind+"/"+c.mode, func(t *testing.T) {
			e := &Engine{Sources: map[string]*Source{"orders": src}, Order: []string{"orders"}}
			g := &policyGuard{allowed: map[string]bool{"execute_metric": true, "filter_data": true}}
			q := &Question{Text: "Grazie!", Class: rules.Classification{Intent: "conversational"}, Intent: rules.Intent{Name: "conversational", Route: c.route},
				Options: Options{Mode: c.mode}, Guard: g}
			resp, md, err := e.Answer(context.Background(), q)
			if c.want == "403" {
				if err == nil || err.Status != 403 || err.Code != CodePolicy || !strings.Contains(err.Message, "conversational") ||
					!strings.Contains(err.Message, c.route.Kind) || len(g.asked) != 0 || md.RequestedMode != c.mode {
					t.Fatalf("want 403 naming the intent and route, got %+v %+v", err, g.asked)
				}
				return
			}
			if err != nil && err.Code == CodePolicy {
				t.Fatalf("refused: %v", err)
			}
			if md.Route != c.want {
				t.Fatalf("route %q, want %q (%+v)", md.Route, c.want, resp)
			}
		})
	}
}
