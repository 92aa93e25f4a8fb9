package gateway

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/weirgw/weir/gateway/query"
)

// allowedTools reads an example's policy data: the tools each intent may call.
func allowedTools(t *testing.T, example string) map[string]map[string]bool {
	t.Helper()
	root, _ := filepath.Abs("..")
	b, err := os.ReadFile(filepath.Join(root, "examples", example, "policies", "data.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Intents map[string]struct {
			Allowed []string `yaml:"allowed_tools"`
			Blocked []string `yaml:"blocked_tools"`
		} `yaml:"intents"`
	}
	if err := yaml.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]bool{}
	for name, in := range doc.Intents {
		out[name] = map[string]bool{}
		for _, tool := range in.Allowed {
			out[name][tool] = true
		}
		for _, tool := range in.Blocked {
			delete(out[name], tool)
		}
	}
	return out
}

// TestQueryReproGraziesSimple is issue 12's reproduction: "Grazie!" with mode simple on the
// analytics example returned 50 raw order rows. Conversational reads nothing, so a data
// answer is refused, naming the intent and its route.
func TestQueryReproGrazieSimple(t *testing.T) {
	e := startQueryGateway(t, queryParams{example: "analytics"})
	status, _, eb, raw := e.ask(t, `{"query":"Grazie!","options":{"mode":"simple"}}`)
	if status != 403 || eb.Error.Code != query.CodePolicy || !strings.Contains(eb.Error.Message, "conversational") ||
		!strings.Contains(eb.Error.Message, "llm") || strings.Contains(raw, "ORD-") || eb.Metadata == nil || eb.Metadata.RequestedMode != "simple" {
		t.Fatalf("%d %s", status, raw)
	}
	// A metric question reads through execute_metric, recorded as a call that ran.
	status, resp, _, raw := e.ask(t, q("Qual è il fatturato totale?"))
	if status != 200 || len(resp.Metadata.ToolCalls) != 1 || resp.Metadata.ToolCalls[0].Name != "execute_metric" ||
		resp.Metadata.ToolCalls[0].Origin != query.OriginWeir || len(resp.Metadata.Sources) != 1 || resp.Metadata.Sources[0].Rows != 1 {
		t.Fatalf("%d %s", status, raw)
	}
	rec := readAudit(t, filepath.Join(e.dir, "audit.jsonl"))
	tcs, _ := rec[len(rec)-1]["tool_calls"].([]any)
	if len(tcs) != 1 || tcs[0].(map[string]any)["name"] != "execute_metric" || tcs[0].(map[string]any)["allowed"] != true {
		t.Fatalf("audit tool calls %v", tcs)
	}
}

// TestQueryNoOptionWidensTheReads: for questions of every intent, every mode and row cap,
// with and without a model, the rows a response shows and the data a model is given come
// only from reads the intent's policy allows, each recorded with its verdict in the
// metadata and the audit record (issue 12, point 6).
func TestQueryNoOptionWidensTheReads(t *testing.T) {
	allowed := allowedTools(t, "analytics")
	questions := []string{"Grazie!", "Come posso aumentare il fatturato del 10%?", "Qual è il fatturato totale?",
		"fatturato per categoria", "mostrami le prime 10 righe", "zxq blorp", "ok, mostrami il fatturato"}
	for _, withModel := range []bool{false, true} {
		e := startQueryGateway(t, queryParams{example: "analytics", model: withModel})
		if withModel {
			e.model.set(reply("Va bene."))
		}
		for _, question := range questions {
			for _, mode := range []string{"", "auto", "simple", "complex", "hybrid"} {
				for _, maxResults := range []int{0, 3} {
					body, _ := json.Marshal(map[string]any{"query": question, "options": map[string]any{"mode": mode, "max_results": maxResults}})
					name := fmt.Sprintf("model=%v %q mode=%q max=%d", withModel, question, mode, maxResults)
					status, resp, eb, raw := e.ask(t, string(body))
					md := resp.Metadata
					rows := len(resp.Rows)
					if status != 200 {
						md, rows = eb.Metadata, len(eb.Error.FallbackData)
					}
					if md == nil {
						continue // refused before classification
					}
					checkReads(t, name, allowed[md.Intent], md, rows, raw)
				}
			}
			if withModel {
				req, _, _ := e.model.last()
				if req != nil && strings.Contains(fmt.Sprint(req["messages"]), "ORD-") {
					// data_preview may read rows, but a model never answers data_preview here
					t.Fatalf("the model was given raw order rows: %v", req["messages"])
				}
			}
		}
	}
}

// checkReads asserts that rows rest on allowed reads and that every read is recorded.
func checkReads(t *testing.T, name string, allowed map[string]bool, md *query.Metadata, rows int, raw string) {
	t.Helper()
	ran := 0
	for _, c := range md.ToolCalls {
		if c.Origin == query.OriginWeir && c.Allow != allowed[c.Name] {
			t.Fatalf("%s: read %s recorded allow=%v for intent %s: %s", name, c.Name, c.Allow, md.Intent, raw)
		}
		if c.Allow && c.Outcome != "denied" {
			ran++
		}
		if !c.Allow && c.Outcome != "denied" {
			t.Fatalf("%s: a denied call ran: %+v", name, c)
		}
	}
	if rows > 0 && ran == 0 {
		t.Fatalf("%s: %d rows without an allowed read (intent %s): %s", name, rows, md.Intent, raw)
	}
	for _, s := range md.Sources {
		if s.Rows > 0 && !allowed[s.Tool] {
			t.Fatalf("%s: source %s gave %d rows through %s, not allowed for %s", name, s.Name, s.Rows, s.Tool, md.Intent)
		}
	}
}
