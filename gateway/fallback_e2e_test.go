package gateway

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/weirgw/weir/adapters/mockllm"
	"github.com/weirgw/weir/gateway/audit"
)

// The analytics pack is unsure about lowQuestion (rules 0.46 < fallback.below 0.6) and
// sure about highQuestion (conversational, 0.995).
const (
	lowQuestion  = "mostrami le vendite di oggi"
	highQuestion = "grazie mille"
	slowQuestion = "[slow] mostrami le vendite di oggi"
)

// fallbackScript classifies every question as conversational (an intent the pack's
// default, strategy, is not), slowly when it says [slow].
const fallbackScript = `model: weir-mock-fallback
cases:
  - name: slow
    match: {contains: "[slow]", tools: false}
    reply: {text: '{"intent": "conversational", "confidence": 0.9}', delay: 3s}
  - name: classify
    match: {regex: '^<question>', tools: false}
    reply: {text: '{"intent": "conversational", "confidence": 0.8}', usage: {prompt_tokens: 600, completion_tokens: 12}}
`

// fallbackSection is the config's fallback section pointing at model; the key variable is
// unset on purpose: a local OpenAI-compatible server needs none.
func fallbackSection(model *mockllm.Server, timeout string) string {
	return fmt.Sprintf(`fallback:
  llm: {provider: openai, base_url: '%s', model: mock-classifier, api_key_env: WEIR_TEST_FALLBACK_KEY_UNSET}
  timeout: %s
  breaker_failures: 3
`, model.URL(), timeout)
}

// startFallbackGateway runs a gateway over the analytics pack whose config has section
// appended, with the scripted model; p.policies may name another bundle.
func startFallbackGateway(t *testing.T, p gwParams, section string) (*testEnv, *mockllm.Server) {
	t.Helper()
	script, err := mockllm.ParseScript([]byte(fallbackScript))
	if err != nil {
		t.Fatal(err)
	}
	model, err := mockllm.Start(script)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { model.Close() })
	if section == "" {
		section = fallbackSection(model, "300ms")
	}
	e := &testEnv{up: startUpstream(t), logs: &syncBuffer{}}
	e.up.set(reply("Ciao!"))
	p.upstreamURL = e.up.url
	e.config = writeConfig(t, p)
	appendFile(t, e.config, section)
	g := serve(t, Options{ConfigPath: e.config, Logger: discardLogger()})
	e.g = g
	e.client = openai.NewClient(option.WithBaseURL("http://"+g.Addr()+"/v1/"), option.WithAPIKey("client-key"),
		option.WithMaxRetries(0), option.WithRequestTimeout(10*time.Second))
	return e, model
}

func appendFile(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}

// ask sends one question and returns the intent header, or the error.
func (e *testEnv) ask(question string) (string, error) {
	var hr *http.Response
	_, err := e.client.Chat.Completions.New(ctx, params(openai.UserMessage(question)), option.WithResponseInto(&hr))
	if err != nil {
		return "", err
	}
	return hr.Header.Get("X-Weir-Intent"), nil
}

func TestFallbackEndToEnd(t *testing.T) {
	e, model := startFallbackGateway(t, gwParams{}, "")
	tests := []struct {
		name, question, wantIntent, wantSource string
		wantModelCalls                         int
	}{
		{"low confidence: the model decides", lowQuestion, "conversational", "llm", 1},
		{"high confidence: the model is not asked", highQuestion, "conversational", "rules", 1},
		{"model too slow: the pack default, quickly", slowQuestion, "strategy", "default", 2},
		{"low confidence again: from the cache", lowQuestion, "conversational", "llm", 2},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			intent, err := e.ask(tc.question)
			if err != nil {
				t.Fatal(err)
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("took %v; the fallback's 300ms limit must bound the wait", d)
			}
			if intent != tc.wantIntent {
				t.Errorf("X-Weir-Intent = %q, want %q", intent, tc.wantIntent)
			}
			reqs := model.Requests()
			if len(reqs) != tc.wantModelCalls {
				t.Fatalf("the model saw %d requests, want %d", len(reqs), tc.wantModelCalls)
			}
			if tc.wantSource == "llm" && !strings.Contains(fmt.Sprint(reqs[0].Body["messages"]), "<question>"+lowQuestion+"</question>") {
				t.Errorf("the model was not asked the question: %v", reqs[0].Body["messages"])
			}
			rs := e.records(t)
			if len(rs) != i+1 {
				t.Fatalf("%d audit records, want %d", len(rs), i+1)
			}
			if r := rs[i]; r.Source != tc.wantSource || r.Intent != tc.wantIntent || r.Outcome != audit.OutcomeAllowed {
				t.Errorf("audit record: source %q intent %q outcome %q", r.Source, r.Intent, r.Outcome)
			}
			// The trail says which tier decided and why, and which model answered.
			r := rs[i]
			if r.Reason == "" {
				t.Errorf("audit record lacks the classification reason")
			}
			if tc.wantSource == "llm" && (r.Fallback == nil || r.Fallback.Model == "") {
				t.Errorf("audit record lacks the fallback call: %+v", r.Fallback)
			}
			if tc.wantSource == "rules" && r.Fallback != nil {
				t.Errorf("a rules decision records a fallback call: %+v", r.Fallback)
			}
		})
	}
	m := adminGet(t, e.g.AdminAddr(), "/metrics")
	for _, want := range []string{
		"weir_fallback_calls_total 2", `weir_fallback_failures_total{reason="timeout"} 1`,
		`weir_fallback_failures_total{reason="unknown_intent"} 0`, "weir_fallback_cache_hits_total 1",
		"weir_fallback_shared_total 0", "weir_fallback_tokens_total 612", "weir_fallback_breaker_state 0",
		"weir_fallback_breaker_opened_total 0", `weir_classifications_total{source="llm"} 2`,
	} {
		if !strings.Contains(m, want+"\n") {
			t.Errorf("/metrics lacks %s", want)
		}
	}
}

// TestFallbackPolicySeesSource: the policy input carries the classification's source, so
// a bundle can refuse an intent that only the LLM chose while admitting it from the rules.
func TestFallbackPolicySeesSource(t *testing.T) {
	dir := t.TempDir()
	polDir := filepath.Join(dir, "policies")
	copyDir(t, "../examples/analytics/policies", polDir)
	os.Remove(filepath.Join(polDir, "analytics_test.rego"))
	rego := `package weir.request

llm_forbidden := {"conversational"}

violation contains v if {
	input.classification.source == "llm"
	input.classification.intent in llm_forbidden
	v := {"code": "intent_needs_rules", "rule": "weir.request.violation[intent_needs_rules]",
	      "message": sprintf("intent %q was chosen by the LLM fallback alone", [input.classification.intent])}
}
`
	if err := os.WriteFile(filepath.Join(polDir, "llm.rego"), []byte(rego), 0o644); err != nil {
		t.Fatal(err)
	}
	e, _ := startFallbackGateway(t, gwParams{dir: dir, policies: "policies"}, "")
	_, err := e.ask(lowQuestion)
	apiError(t, err, 403, "intent_needs_rules")
	if r := e.lastRecord(t); r.Source != "llm" || r.Outcome != audit.OutcomeBlocked {
		t.Errorf("refused record: source %q outcome %q", r.Source, r.Outcome)
	}
	if intent, err := e.ask(highQuestion); err != nil || intent != "conversational" {
		t.Fatalf("the same intent from the rules: %q, %v", intent, err)
	}
}

// TestFallbackReload: the fallback (its cache, breaker and counters) survives reloads
// that leave its section alone, is rebuilt when the section changes, and a section that
// does not build fails the reload and keeps the running snapshot.
func TestFallbackReload(t *testing.T) {
	e, model := startFallbackGateway(t, gwParams{}, "")
	first := e.g.Snapshot().Fallback
	if first == nil {
		t.Fatal("no fallback built")
	}
	if _, err := e.ask(lowQuestion); err != nil {
		t.Fatal(err)
	}
	base, _ := os.ReadFile(e.config)
	cfg := string(base)
	steps := []struct {
		name    string
		config  string
		wantErr string
		check   func(t *testing.T, s *Snapshot)
	}{
		{"unchanged section keeps the fallback", cfg + "\n", "", func(t *testing.T, s *Snapshot) {
			if s.Fallback != first {
				t.Error("the fallback was rebuilt")
			}
		}},
		{"changed section rebuilds it", strings.Replace(cfg, "timeout: 300ms", "timeout: 400ms", 1), "", func(t *testing.T, s *Snapshot) {
			if s.Fallback == first || s.Fallback == nil || s.Config.Fallback.Timeout != 400*time.Millisecond {
				t.Error("the fallback was not rebuilt")
			}
		}},
		{"unknown provider fails the reload", strings.Replace(cfg, "provider: openai", "provider: bard", 1), "fallback.llm.provider must be", func(t *testing.T, s *Snapshot) {
			if s.Fallback == nil || s.Config.Fallback.Timeout != 400*time.Millisecond {
				t.Error("the running snapshot was replaced")
			}
		}},
		{"a needed key that is unset fails the reload", strings.Replace(cfg, "base_url: '"+model.URL()+"'", "base_url: 'https://api.openai.com/v1'", 1),
			"environment variable WEIR_TEST_FALLBACK_KEY_UNSET is unset", nil},
		{"no section: rules only", cfg[:strings.Index(cfg, "fallback:")], "", func(t *testing.T, s *Snapshot) {
			if s.Fallback != nil {
				t.Error("the fallback is still there")
			}
		}},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			if err := os.WriteFile(e.config, []byte(st.config), 0o600); err != nil {
				t.Fatal(err)
			}
			err := e.g.Reload(ctx)
			if (err != nil) != (st.wantErr != "") || (err != nil && !strings.Contains(err.Error(), st.wantErr)) {
				t.Fatalf("Reload = %v, want error %q", err, st.wantErr)
			}
			if st.check != nil {
				st.check(t, e.g.Snapshot())
			}
		})
	}
	if first.Stats().Calls != 1 {
		t.Errorf("calls = %d", first.Stats().Calls)
	}
	if m := adminGet(t, e.g.AdminAddr(), "/metrics"); strings.Contains(m, "weir_fallback_") {
		t.Error("fallback metrics without a fallback section")
	}
	if intent, err := e.ask(lowQuestion); err != nil || intent != "strategy" || len(model.Requests()) != 1 {
		t.Errorf("rules only: %q, %v, %d model requests", intent, err, len(model.Requests()))
	}
}
