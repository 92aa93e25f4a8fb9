package gateway

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/valyala/fasthttp"

	"github.com/weirgw/weir/adapters/data"
	"github.com/weirgw/weir/adapters/data/sqlstore/pgtest"
	"github.com/weirgw/weir/gateway/query"
)

// queryEnv is a gateway with one query route over an example's rules, policies and demo
// data (embedded SQLite), and optionally a scripted model.
type queryEnv struct {
	g     *Gateway
	model *upstreamScript
	dir   string
}

type queryParams struct {
	example     string // analytics, trade, findings
	model       bool   // configure the scripted model
	onViolation string
	mode        string
	data        string // replaces the data section
	route       string // extra route keys
	auth        string // the route's auth; default none
	extra       string // top-level YAML appended (auth:, limits:)
	documents   string // a documents section
	policies    string // replaces the example's policy bundle
}

var exampleData = map[string]string{
	"analytics": `  - name: orders
    schema: %[1]s/data/schema.yaml
    csv: %[1]s/data/orders.csv
    tool: execute_metric
    tools: {rows: filter_data, metric: execute_metric, group: aggregate_group, compare: compare_periods}
`,
	"trade": `  - name: transactions
    schema: %[1]s/data/schema.yaml
    csv: %[1]s/data/transactions.csv
    tool: query_data
`,
	"clinical": `  - name: adsl
    schema: %[1]s/data/adsl.schema.yaml
    csv: %[1]s/data/adsl.csv
    tool: query_adsl
  - name: adae
    schema: %[1]s/data/adae.schema.yaml
    csv: %[1]s/data/adae.csv
    tool: query_adae
`,
	"findings": `  - name: findings
    schema: %[1]s/data/schema.yaml
    csv: %[1]s/data/findings.csv
    tool: query_findings
`,
}

func startQueryGateway(t *testing.T, p queryParams) *queryEnv {
	t.Helper()
	root, _ := filepath.Abs("..")
	ex := filepath.Join(root, "examples", p.example)
	if p.onViolation == "" {
		p.onViolation = "error"
	}
	if p.mode == "" {
		p.mode = "enforce"
	}
	if p.auth == "" {
		p.auth = "none"
	}
	e := &queryEnv{dir: t.TempDir()}
	model := ""
	if p.model {
		e.model = startUpstream(t)
		model = fmt.Sprintf("    model: {provider: openai, base_url: '%s', model: scripted, api_key_env: WEIR_TEST_QUERY_KEY_UNSET, timeout: 5s}\n", e.model.url)
	}
	data := p.data
	if data == "" {
		data = fmt.Sprintf(exampleData[p.example], ex)
	}
	policies := p.policies
	if policies == "" {
		policies = ex + "/policies"
	}
	cfg := fmt.Sprintf(`listen: 127.0.0.1:0
admin_listen: 127.0.0.1:0
rules: %s/rules
policies: %s
routes:
  - name: query
    surface: query
    path: /v1/query
    auth: %s
    mode: %s
    on_violation: %s
%s%sdata:
%s%saudit: {path: audit.jsonl, include_content: true}
%s`, ex, policies, p.auth, p.mode, p.onViolation, model, p.route, data, p.documents, p.extra)
	path := filepath.Join(e.dir, "weir.yaml")
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	g := serve(t, Options{ConfigPath: path, Logger: discardLogger()})
	e.g = g
	return e
}

// answer is a decoded response; rows decode as maps.
type answer struct {
	query.Response
	Rows []map[string]any `json:"rows"`
}

// ask posts a question and decodes the answer (or the error body into errBody).
func (e *queryEnv) ask(t *testing.T, body string) (int, answer, query.ErrorBody, string) {
	t.Helper()
	status, b, h := rawPost(t, e.g.Addr(), "/v1/query", []byte(body))
	var resp answer
	var eb query.ErrorBody
	if status == 200 {
		if err := json.Unmarshal(b, &resp); err != nil {
			t.Fatalf("decode %s: %v", b, err)
		}
		if resp.Metadata == nil || resp.Metadata.DecisionID != string(h.Peek("X-Weir-Decision-Id")) {
			t.Fatalf("metadata decision id does not match the header: %s", b)
		}
	} else if err := json.Unmarshal(b, &eb); err != nil || eb.Error.DecisionID == "" || eb.Success {
		t.Fatalf("error body %s: %v", b, err)
	}
	return status, resp, eb, string(b)
}

func q(s string) string { b, _ := json.Marshal(map[string]string{"query": s}); return string(b) }

// TestQueryDataRoute: metric questions are answered from the data with the exact values
// of the demo dataset (seed 002's golden numbers), no model involved.
func TestQueryDataRoute(t *testing.T) {
	e := startQueryGateway(t, queryParams{example: "analytics"})
	cases := []struct {
		question, intent, col string
		want                  any
		rows                  int
	}{
		{"Qual è il fatturato totale?", "analytics", "revenue", 21956.62, 1},
		{"How many orders?", "analytics", "count", 941.0, 1},
		{"fatturato per mese", "analytics", "revenue", 4408.0, 5},
		{"fatturato di marzo 2025", "analytics", "revenue", 5050.0, 1},
	}
	for _, c := range cases {
		t.Run(c.question, func(t *testing.T) {
			status, resp, _, raw := e.ask(t, q(c.question))
			if status != 200 || resp.Type != "simple" || resp.Metadata.Intent != c.intent || resp.Metadata.Route != "data" {
				t.Fatalf("status %d: %s", status, raw)
			}
			if len(resp.Rows) != c.rows || resp.Rows[0][c.col] != c.want {
				t.Fatalf("rows %s, want %v in %s", raw, c.want, c.col)
			}
			if !strings.Contains(resp.Answer, format(c.want)) {
				t.Fatalf("answer %q does not carry %v", resp.Answer, c.want)
			}
			if resp.Metadata.TokensUsed != 0 || len(resp.Metadata.Warnings) != 0 || resp.Result == nil {
				t.Fatalf("a data answer used a model or warned: %s", raw)
			}
		})
	}
	// Rows: a preview is paginated (seed 000: above 50 results).
	status, resp, _, raw := e.ask(t, `{"query": "mostrami gli ordini", "options": {"max_results": 10}}`)
	if status != 200 || resp.Metadata.Intent != "data_preview" || len(resp.Rows) != 10 || resp.Metadata.Pagination == nil ||
		resp.Metadata.Pagination.TotalCount != 941 || !resp.Metadata.Pagination.Paginated {
		t.Fatalf("preview: %s", raw)
	}
	// include_metadata: false leaves the metadata out.
	_, b, _ := rawPostNoCheck(t, e.g.Addr(), `{"query": "How many orders?", "options": {"include_metadata": false}}`)
	if strings.Contains(b, "metadata") {
		t.Fatalf("metadata present: %s", b)
	}
	rec := readAudit(t, filepath.Join(e.dir, "audit.jsonl"))
	last := rec[len(rec)-1]
	if last["surface"] != "query" || last["route"] != "query" || last["status"] != 200.0 || last["intent"] != "analytics" {
		t.Fatalf("audit record %v", last)
	}
}

// format writes numbers as the data holds them (no exponent).
func format(v any) string {
	if f, ok := v.(float64); ok {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return fmt.Sprint(v)
}

func rawPostNoCheck(t *testing.T, addr, body string) (int, string, *fasthttp.ResponseHeader) {
	status, b, h := rawPost(t, addr, "/v1/query", []byte(body))
	return status, string(b), h
}

func readAudit(t *testing.T, path string) []map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

// TestQueryBadRequests pins the status and code of requests the surface refuses.
func TestQueryBadRequests(t *testing.T) {
	e := startQueryGateway(t, queryParams{example: "analytics"})
	for _, c := range []struct{ body, msg string }{
		{`{}`, "query is required"},
		{`{"query": "  "}`, "query is required"},
		{`{"query": "x", "extra": 1}`, `unknown field "extra"`},
		{`{"query": 5}`, "query must be string"},
		{`{"query": "x", "options": {"mode": "turbo"}}`, "options.mode must be"},
		{`{"query": "x", "options": {"max_results": -1}}`, "must not be negative"},
		{`{"query": "x"`, "truncated"},
		{`not json`, "malformed JSON"},
		{`{"query": "x"} {}`, "after the JSON object"},
		{`{"query": "` + strings.Repeat("a", query.MaxQueryBytes+1) + `"}`, "longer than"},
		// What encoding/json accepts and exact-key readers take otherwise.
		{`{"query": "Grazie!", "query": "Mostrami le righe"}`, "ambiguous"},
		{`{"query": "Grazie!", "Query": "Mostrami le righe"}`, "ambiguous"},
		{`{"QUERY": "Mostrami le righe"}`, `"QUERY" is not written as a request field`},
		{`{"query": "x", "options": {"mode": "auto", "Mode": "simple"}}`, "ambiguous"},
		{`{"query": "x", "Options": {"mode": "simple"}}`, `"Options" is not written`},
		{`{"query": "x", "options": {"MAX_RESULTS": 500}}`, `options."MAX_RESULTS" is not written`},
	} {
		status, _, eb, raw := e.ask(t, c.body)
		if status != 400 || eb.Error.Code != query.CodeValidation || !strings.Contains(eb.Error.Message, c.msg) {
			t.Errorf("%.40s: status %d, %s; want 400 VALIDATION_ERROR %q", c.body, status, raw, c.msg)
		}
	}
	// GET is not served.
	req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	req.SetRequestURI("http://" + e.g.Addr() + "/v1/query")
	if err := fasthttp.Do(req, resp); err != nil || resp.StatusCode() != 400 || !strings.Contains(string(resp.Body()), "use POST") {
		t.Fatalf("GET: %v %d %s", err, resp.StatusCode(), resp.Body())
	}
}

// TestQueryNoModel: without a model, an llm route that gives its model rows degrades to
// the data with seed 000's message; one that reads nothing (advice, small talk) says that
// the question is not answered from the data, and shows no rows.
func TestQueryNoModel(t *testing.T) {
	e := startQueryGateway(t, queryParams{example: "analytics"})
	for _, question := range []string{"Come posso aumentare il fatturato del 10%?", "grazie mille"} {
		status, resp, _, raw := e.ask(t, q(question))
		if status != 200 || resp.Answer != query.NoModel || len(resp.Rows) != 0 || len(resp.Metadata.ToolCalls) != 0 {
			t.Fatalf("%s without a model: %s", question, raw)
		}
	}
	f := startQueryGateway(t, queryParams{example: "findings"})
	status, resp, _, raw := f.ask(t, q("analyze the patterns in critical findings"))
	if status != 200 || resp.Metadata.Intent != "complex" || !strings.HasPrefix(resp.Answer, query.AIUnavailable) ||
		len(resp.Rows) == 0 || resp.Metadata.Warnings[0] != query.AIUnavailable {
		t.Fatalf("complex without a model: %s", raw)
	}
}

// TestQueryModelAnswers: the llm route's answer passes grounding and the response policy;
// an invented number is rewritten (rewrite) or refused with the data as fallback (error);
// a failing model degrades to the data.
func TestQueryModelAnswers(t *testing.T) {
	t.Run("grounded", func(t *testing.T) {
		e := startQueryGateway(t, queryParams{example: "analytics", model: true})
		// The analytics policy admits, in strategy answers, only numbers the user gave.
		e.model.set(reply("Per crescere del 10% puntate sui piatti con il margine più alto."))
		status, resp, _, raw := e.ask(t, q("Come posso aumentare il fatturato del 10%?"))
		if status != 200 || resp.Type != "complex" || !strings.Contains(resp.Answer, "10%") || resp.Metadata.TokensUsed != 2 {
			t.Fatalf("%d %s", status, raw)
		}
		req, _, _ := e.model.last()
		msgs := req["messages"].([]any)
		sys := msgs[0].(map[string]any)["content"].(string)
		// Strategy may read no data (allowed_tools: []): the model gets none.
		if strings.Contains(sys, "21956.62") || !strings.Contains(sys, "No data was found") || req["tools"] != nil {
			t.Fatalf("the model got data a strategy question may not read: %s", sys)
		}
	})
	t.Run("rewrite", func(t *testing.T) {
		e := startQueryGateway(t, queryParams{example: "analytics", model: true, onViolation: "rewrite"})
		e.model.set(reply("Per crescere del 10% l'anno prossimo il fatturato sarà 98765.43 euro."))
		status, resp, _, raw := e.ask(t, q("Come posso aumentare il fatturato del 10%?"))
		if status != 200 || strings.Contains(resp.Answer, "98765") || !strings.Contains(resp.Answer, "10%") || !strings.Contains(resp.Answer, "[unverified number]") {
			t.Fatalf("%d %s", status, raw)
		}
		last := readAudit(t, filepath.Join(e.dir, "audit.jsonl"))
		if rec := last[len(last)-1]; rec["outcome"] != "modified" {
			t.Fatalf("audit outcome %v", rec["outcome"])
		}
	})
	t.Run("error", func(t *testing.T) {
		e := startQueryGateway(t, queryParams{example: "analytics", model: true})
		e.model.set(reply("L'anno prossimo il fatturato sarà 98765.43 euro."))
		status, _, eb, raw := e.ask(t, q("Come posso aumentare il fatturato del 10%?"))
		if status != 422 || eb.Error.Code != query.CodeAnswerRejected || len(eb.Error.FallbackData) != 0 {
			t.Fatalf("%d %s", status, raw)
		}
	})
	t.Run("model down", func(t *testing.T) {
		e := startQueryGateway(t, queryParams{example: "analytics", model: true})
		e.model.set(func(rc *fasthttp.RequestCtx, _ map[string]any) {
			rc.SetStatusCode(500)
			rc.SetBodyString(`{"error": {"message": "boom"}}`)
		})
		status, resp, _, raw := e.ask(t, q("Come posso aumentare il fatturato del 10%?"))
		if status != 200 || resp.Answer != query.NoModel || len(resp.Rows) != 0 {
			t.Fatalf("%d %s", status, raw)
		}
	})
}

// agentModel scripts the model of the agent loop from the conversation so far: turns
// returns the next reply given the tool results already in it.
func agentModel(turn func(results []string) (string, []call)) func(*fasthttp.RequestCtx, map[string]any) {
	return func(rc *fasthttp.RequestCtx, req map[string]any) {
		var results []string
		for _, m := range req["messages"].([]any) {
			mm := m.(map[string]any)
			if mm["role"] == "tool" {
				results = append(results, fmt.Sprint(mm["content"]))
			}
		}
		text, calls := turn(results)
		writeCompletion(rc, text, calls)
	}
}

const chinaTotal = `{"type":"aggregation","filters":[{"field":"importCountry","operator":"equals","value":"china","matchStrategy":"normalized"}],"aggregations":[{"field":"totalValueUSD","operation":"sum"}]}`

// TestQueryAgentLoop: the bounded tool loop with the scripted model — a correction after an
// invalid query, a call the policy denies, empty data, the iteration cap, a backend failure.
func TestQueryAgentLoop(t *testing.T) {
	t.Run("corrects an invalid query", func(t *testing.T) {
		e := startQueryGateway(t, queryParams{example: "trade", model: true})
		var total string
		e.model.set(agentModel(func(results []string) (string, []call) {
			switch len(results) {
			case 0: // two groupings: the policy lets them through, the dataset asks for two queries
				return "", []call{{"query_data", `{"type":"aggregation","filters":[],"aggregations":[{"field":"totalValueUSD","operation":"sum","groupBy":"month"},{"field":"quantity","operation":"sum","groupBy":"year"}]}`}}
			case 1:
				if !strings.Contains(results[0], "invalid query") {
					return "unexpected: " + results[0], nil
				}
				return "", []call{{"query_data", chinaTotal}}
			}
			var r struct {
				Rows []map[string]any `json:"rows"`
			}
			json.Unmarshal([]byte(results[1]), &r)
			total = format(r.Rows[0]["sum_totalValueUSD"])
			return "Imports from China total " + total + " USD.", nil
		}))
		status, resp, _, raw := (e).ask(t, q("What is the total import value from China?"))
		if status != 200 || resp.Type != "agent" || resp.Metadata.Iterations != 3 || total == "" || !strings.Contains(resp.Answer, total) {
			t.Fatalf("%d %s", status, raw)
		}
		calls := resp.Metadata.ToolCalls
		if len(calls) != 2 || calls[0].Outcome != "invalid" || calls[1].Outcome != "rows" || len(resp.Rows) != 1 {
			t.Fatalf("calls %+v", calls)
		}
		rec := readAudit(t, filepath.Join(e.dir, "audit.jsonl"))
		if tcs := rec[len(rec)-1]["tool_calls"].([]any); len(tcs) != 2 {
			t.Fatalf("audit tool calls %v", tcs)
		}
	})
	t.Run("policy denies a call", func(t *testing.T) {
		e := startQueryGateway(t, queryParams{example: "trade", model: true})
		e.model.set(agentModel(func(results []string) (string, []call) {
			if len(results) == 0 { // a field the trade policy does not know
				return "", []call{{"query_data", `{"type":"detail","filters":[{"field":"price","operator":"equals","value":1}]}`}}
			}
			return "I could not query that.", nil
		}))
		// The denied call goes back to the model; its answer without data is then refused,
		// because the trade policy requires a query_data call before answering.
		status, _, eb, raw := e.ask(t, q("show declarations with price 1"))
		if status != 422 || eb.Error.Code != query.CodeAnswerRejected || len(eb.Metadata.ToolCalls) != 1 ||
			eb.Metadata.ToolCalls[0].Allow || eb.Metadata.ToolCalls[0].Outcome != "denied" {
			t.Fatalf("%d %s", status, raw)
		}
		rec := readAudit(t, filepath.Join(e.dir, "audit.jsonl"))
		tc := rec[len(rec)-1]["tool_calls"].([]any)[0].(map[string]any)
		if tc["allowed"] != false {
			t.Fatalf("audit: %v", tc)
		}
	})
	t.Run("empty data is an answer", func(t *testing.T) {
		e := startQueryGateway(t, queryParams{example: "trade", model: true})
		e.model.set(agentModel(func(results []string) (string, []call) {
			if len(results) == 0 {
				return "", []call{{"query_data", `{"type":"detail","filters":[{"field":"importCountry","operator":"equals","value":"Atlantis"}]}`}}
			}
			return "There are no declarations from Atlantis.", nil
		}))
		status, resp, _, raw := e.ask(t, q("show declarations from Atlantis"))
		if status != 200 || resp.Metadata.ToolCalls[0].Outcome != "empty" || !strings.Contains(resp.Answer, "no declarations") {
			t.Fatalf("%d %s", status, raw)
		}
	})
	t.Run("iteration cap", func(t *testing.T) {
		e := startQueryGateway(t, queryParams{example: "trade", model: true})
		var n int
		var mu sync.Mutex
		e.model.set(agentModel(func([]string) (string, []call) {
			mu.Lock()
			n++
			mu.Unlock()
			return "", []call{{"query_data", chinaTotal}}
		}))
		status, resp, _, raw := e.ask(t, q("What is the total import value from China?"))
		if status != 200 || resp.Metadata.Iterations != 20 || n != 20 || len(resp.Metadata.ToolCalls) != 20 ||
			!strings.Contains(strings.Join(resp.Metadata.Warnings, " "), "did not answer within 20 steps") || len(resp.Rows) != 1 {
			t.Fatalf("%d calls, %s", n, raw)
		}
	})
	t.Run("backend failure", func(t *testing.T) {
		api := startFailingDataAPI(t)
		root, _ := filepath.Abs("..")
		data := fmt.Sprintf(`  - name: transactions
    schema: %s/examples/trade/data/schema.yaml
    http: {url: '%s', rows: rows}
`, root, api)
		e := startQueryGateway(t, queryParams{example: "trade", model: true, data: data})
		e.model.set(agentModel(func(results []string) (string, []call) {
			if len(results) == 0 {
				return "", []call{{"query_data", chinaTotal}}
			}
			return "unexpected second turn", nil
		}))
		status, _, eb, raw := e.ask(t, q("What is the total import value from China?"))
		if status != 502 || eb.Error.Code != query.CodeDatabase || eb.Metadata == nil || eb.Metadata.ToolCalls[0].Outcome != "error" {
			t.Fatalf("%d %s", status, raw)
		}
	})
}

// startFailingDataAPI is a REST data service that answers 500.
func startFailingDataAPI(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &fasthttp.Server{Handler: func(rc *fasthttp.RequestCtx) { rc.SetStatusCode(500); rc.SetBodyString("db down") }}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Shutdown() })
	return "http://" + ln.Addr().String() + "/rows"
}

// TestQueryAgentInjection: values a model writes reach SQL as parameters only; the table
// is intact afterwards and the hostile value simply matches nothing.
func TestQueryAgentInjection(t *testing.T) {
	e := startQueryGateway(t, queryParams{example: "trade", model: true})
	hostile := `{"type":"detail","filters":[{"field":"importCountry","operator":"equals","value":"China'; DROP TABLE transactions; --"},{"field":"goodsName","operator":"contains","value":"%' OR '1'='1"}]}`
	e.model.set(agentModel(func(results []string) (string, []call) {
		switch len(results) {
		case 0:
			return "", []call{{"query_data", hostile}}
		case 1:
			return "", []call{{"query_data", `{"type":"aggregation","filters":[],"aggregations":[{"field":"totalValueUSD","operation":"count"}]}`}}
		}
		return "Done.", nil
	}))
	status, resp, _, raw := e.ask(t, q("show declarations from China"))
	if status != 200 || len(resp.Metadata.ToolCalls) != 2 || resp.Metadata.ToolCalls[0].Outcome != "empty" ||
		resp.Metadata.ToolCalls[1].Outcome != "rows" || resp.Rows[0]["count_totalValueUSD"] != 80.0 {
		t.Fatalf("%d %s", status, raw)
	}
}

// TestQueryPostgres runs the analytics data route against a real PostgreSQL when
// WEIR_TEST_POSTGRES_DSN is set (.ci/run sets it when 127.0.0.1:5432 answers).
func TestQueryPostgres(t *testing.T) {
	dsn := pgtest.DSN(t)
	if dsn == "" {
		t.Skip("WEIR_TEST_POSTGRES_DSN is not set or does not answer: PostgreSQL query-surface test skipped")
	}
	root, _ := filepath.Abs("..")
	csvRows := loadCSVToPostgres(t, dsn, filepath.Join(root, "examples/analytics/data"))
	data := fmt.Sprintf(strings.Replace(exampleData["analytics"], "    csv: %[1]s/data/orders.csv\n", "    dsn: '%[2]s'\n", 1), filepath.Join(root, "examples/analytics"), dsn)
	e := startQueryGateway(t, queryParams{example: "analytics", data: data})
	status, resp, _, raw := e.ask(t, q("Qual è il fatturato totale?"))
	if status != 200 || resp.Rows[0]["revenue"] != 21956.62 {
		t.Fatalf("%d %s", status, raw)
	}
	status, resp, _, raw = e.ask(t, q("How many orders?"))
	if status != 200 || resp.Result == nil || resp.Result.Value != float64(csvRows) {
		t.Fatalf("%d %s", status, raw)
	}
}

// TestQueryFanOutAndKnownAnswers: seed 004 — a close known answer is the answer; otherwise
// the intent's sources are queried in parallel, scored, and the best one answers.
func TestQueryFanOutAndKnownAnswers(t *testing.T) {
	root, _ := filepath.Abs("..")
	known := filepath.Join(root, "examples/clinical/data/known_answers.jsonl")
	e := startQueryGateway(t, queryParams{example: "clinical", route: "    known_answers: " + known + "\n"})
	status, resp, _, raw := e.ask(t, q("How many serious adverse events were reported?"))
	if status != 200 || resp.Known == nil || !resp.Known.Used || resp.Metadata.Route != "known" || !strings.Contains(resp.Answer, "1 serious adverse event") {
		t.Fatalf("known answer: %s", raw)
	}
	// Patients are ADSL's subjects; headache is an adverse event term of ADAE: the
	// semantic layer counts the subjects whose key has a headache event (a join on the
	// declared entity), reading both sources.
	status, resp, _, raw = e.ask(t, q("how many patients had headache"))
	if status != 200 || resp.Metadata.Intent != "sas" || len(resp.Metadata.Sources) != 2 || resp.Metadata.DataQuery == nil ||
		resp.Result == nil || resp.Result.Value != 8.0 || resp.Result.Unit != "patients" {
		t.Fatalf("fan-out: %s", raw)
	}
	// A protocol question reads no data source here and no model is configured.
	status, resp, _, raw = e.ask(t, q("what is the primary endpoint of the study?"))
	if status != 200 || resp.Metadata.Intent != "pdf" || resp.Answer != query.NoModel || len(resp.Rows) != 0 {
		t.Fatalf("pdf without a model: %s", raw)
	}
}

// TestQueryHTTPSource: the same trade question answered from an existing REST data service
// (httpstore: rows read at a JSON path, filtered and aggregated in Weir) and from the demo
// SQLite database gives the same answer.
func TestQueryHTTPSource(t *testing.T) {
	root, _ := filepath.Abs("..")
	f, err := os.Open(filepath.Join(root, "examples/trade/data/transactions.csv"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := data.ReadCSV(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	var items []map[string]any
	for _, r := range c.Records {
		item := map[string]any{}
		for i, h := range c.Header {
			if n, err := strconv.ParseFloat(r.Values[i], 64); err == nil && h != "declarationNumber" {
				item[h] = n
			} else {
				item[h] = r.Values[i]
			}
		}
		items = append(items, item)
	}
	body, _ := json.Marshal(map[string]any{"data": map[string]any{"items": items}})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var seen []string
	srv := &fasthttp.Server{Handler: func(rc *fasthttp.RequestCtx) {
		mu.Lock()
		seen = append(seen, string(rc.QueryArgs().QueryString()))
		mu.Unlock()
		rc.SetContentType("application/json")
		rc.SetBody(body)
	}}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Shutdown() })
	httpData := fmt.Sprintf(`  - name: transactions
    schema: %s/examples/trade/data/schema.yaml
    http:
      url: 'http://%s/v1/declarations'
      params: {limit: "{{limit}}"}
      rows: data.items
`, root, ln.Addr())
	question := q("total import value from China in 2024")
	viaHTTP := startQueryGateway(t, queryParams{example: "trade", data: httpData})
	viaSQL := startQueryGateway(t, queryParams{example: "trade"})
	s1, a1, _, raw1 := viaHTTP.ask(t, question)
	s2, a2, _, raw2 := viaSQL.ask(t, question)
	if s1 != 200 || s2 != 200 || a1.Answer != a2.Answer || len(a1.Rows) != len(a2.Rows) || len(a1.Rows) == 0 {
		t.Fatalf("HTTP source:\n%s\nSQLite source:\n%s", raw1, raw2)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) == 0 {
		t.Fatal("the data service was not asked")
	}
}

// TestQueryRateLimit: a model's 429 with no data to fall back on is RATE_LIMIT_ERROR.
func TestQueryRateLimit(t *testing.T) {
	e := startQueryGateway(t, queryParams{example: "trade", model: true})
	e.model.set(func(rc *fasthttp.RequestCtx, _ map[string]any) {
		rc.SetStatusCode(429)
		rc.SetContentType("application/json")
		rc.SetBodyString(`{"error": {"message": "Rate limit reached", "type": "requests", "code": "rate_limit_exceeded"}}`)
	})
	status, _, eb, raw := e.ask(t, q("What is the total import value from China?"))
	if status != 429 || eb.Error.Code != query.CodeRateLimit || eb.Error.Suggestion == "" {
		t.Fatalf("%d %s", status, raw)
	}
}

// TestQueryAgentSemanticTool: in agent mode the model may call the semantic query (the
// layer's schema) as a tool; an invalid one goes back to be corrected, a valid one runs as
// reads each decided by the policy under the source's tool, and the answer rests on them.
func TestQueryAgentSemanticTool(t *testing.T) {
	e := startQueryGateway(t, queryParams{example: "trade", model: true, route: "    semantic_tool: ask_data\n"})
	var got string
	e.model.set(agentModel(func(results []string) (string, []call) {
		switch len(results) {
		case 0:
			return "", []call{{"ask_data", `{"source":"transactions","measures":[{"metric":"revenue"}]}`}}
		case 1:
			if !strings.Contains(results[0], "not a metric") {
				return "unexpected: " + results[0], nil
			}
			return "", []call{{"ask_data", `{"source":"transactions","measures":[{"metric":"total_value"}],"filters":[{"source":"transactions","field":"importCountry","op":"in","values":["China"]}]}`}}
		}
		got = results[1]
		return "Imports from China total 1890171 USD.", nil
	}))
	status, resp, _, raw := e.ask(t, q("What is the total import value from China?"))
	if status != 200 || !strings.Contains(got, "1890171") || !strings.Contains(resp.Answer, "1890171") {
		t.Fatalf("%d %s (tool result %s)", status, raw, got)
	}
	var model, weir int
	for _, c := range resp.Metadata.ToolCalls {
		switch c.Origin {
		case query.OriginModel:
			model++
		case query.OriginWeir:
			weir++
			if c.Name != "query_data" || !c.Allow {
				t.Fatalf("the semantic tool's read %+v", c)
			}
		}
	}
	if model != 2 || weir != 1 || resp.Metadata.ToolCalls[0].Outcome != "invalid" {
		t.Fatalf("calls %+v", resp.Metadata.ToolCalls)
	}
}
