package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weirgw/weir/adapters/mockllm"
)

// startMock serves a scripted model that classifies every question as data_preview.
func startMock(t *testing.T) *mockllm.Server {
	t.Helper()
	script, err := mockllm.ParseScript([]byte(`model: weir-mock-cli
cases:
  - name: classify
    match: {regex: '^<question>', tools: false}
    reply: {text: '{"intent": "data_preview", "confidence": 0.8}', usage: {prompt_tokens: 600, completion_tokens: 12}}
`))
	if err != nil {
		t.Fatal(err)
	}
	srv, err := mockllm.Start(script)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

// writeGatewayConfig writes a gateway config whose rule pack is `rules`, relative to the
// config file (a link to the analytics pack), and whose fallback asks model.
func writeGatewayConfig(t *testing.T, modelURL string) string {
	t.Helper()
	dir := t.TempDir()
	pack, _ := filepath.Abs("../../examples/analytics/rules")
	if err := os.Symlink(pack, filepath.Join(dir, "rules")); err != nil {
		t.Fatal(err)
	}
	cfg := fmt.Sprintf(`rules: rules
policies: policies
upstreams: [{name: llm, base_url: 'http://127.0.0.1:9/v1'}]
routes: [{name: chat, upstream: llm, auth: none}]
fallback:
  llm: {provider: openai, base_url: '%s', model: mock, api_key_env: WEIR_TEST_UNSET_KEY}
  timeout: 2s
`, modelURL)
	p := filepath.Join(dir, "weir.yaml")
	if err := os.WriteFile(p, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

type cliResult struct {
	Intent   string `json:"intent"`
	Source   string `json:"source"`
	Reason   string `json:"reason"`
	Fallback *struct {
		Model string `json:"model"`
		Error string `json:"error"`
	} `json:"fallback"`
}

func TestClassifyWithConfigFallback(t *testing.T) {
	srv := startMock(t)
	cfg := writeGatewayConfig(t, srv.URL())
	const low, high = "mostrami le vendite di oggi", "qual è il fatturato totale del 2024?"
	tests := []struct {
		name       string
		args       []string
		wantIntent string
		wantSource string
		wantModel  string // "" when the model must not be asked
		wantCalls  int    // requests the model has seen after this case
	}{
		{"low confidence asks the model", []string{"--config", cfg, low}, "data_preview", "llm", "mock", 1},
		{"--no-llm keeps the pack default", []string{"--config", cfg, "--no-llm", low}, "strategy", "default", "", 1},
		{"high confidence never reaches the model", []string{"--config", cfg, high}, "analytics", "rules", "", 1},
		// --rules wins over the config's pack: the mini pack does not define data_preview,
		// so the model's answer is refused and the mini pack's default applies.
		{"--rules overrides the config's pack", []string{"--config", cfg, "--rules", miniPack, "zzz"}, "complex", "default", "mock", 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, "", append([]string{"classify", "--json"}, tc.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			var res cliResult
			if err := json.Unmarshal([]byte(out), &res); err != nil {
				t.Fatal(err)
			}
			if res.Intent != tc.wantIntent || res.Source != tc.wantSource {
				t.Errorf("got %s/%s (%s), want %s/%s", res.Intent, res.Source, res.Reason, tc.wantIntent, tc.wantSource)
			}
			switch {
			case tc.wantModel == "" && res.Fallback != nil:
				t.Errorf("the model was asked: %+v", res.Fallback)
			case tc.wantModel != "" && (res.Fallback == nil || res.Fallback.Model != tc.wantModel):
				t.Errorf("fallback = %+v, want model %s", res.Fallback, tc.wantModel)
			}
			if n := len(srv.Requests()); n != tc.wantCalls {
				t.Errorf("the model saw %d requests, want %d", n, tc.wantCalls)
			}
		})
	}
}

func TestClassifyConfigJSONL(t *testing.T) {
	srv := startMock(t)
	cfg := writeGatewayConfig(t, srv.URL())
	in := `{"query": "mostrami le vendite di oggi"}` + "\n" + `{"query": "grazie mille"}` + "\n"
	code, out, errOut := runCLI(t, in, "classify", "--config", cfg, "--jsonl")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], `"source":"llm"`) || !strings.Contains(lines[0], `"model":"mock"`) ||
		!strings.Contains(lines[1], `"source":"rules"`) || strings.Contains(lines[1], `"fallback"`) {
		t.Fatalf("jsonl:\n%s", out)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("the model saw %d requests, want 1", n)
	}
}

func TestClassifyConfigErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "weir.yaml")
	src := "rules: r\npolicies: p\nupstreams: [{name: u, base_url: 'http://x'}]\nroutes: [{name: a, upstream: u}]\nfallback:\n  llm: {provider: bard, model: m}\n"
	if err := os.WriteFile(bad, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runCLI(t, "", "classify", "--config", bad, "hi")
	if code != 1 || !strings.Contains(errOut, "weir.yaml:6: config_invalid: fallback.llm.provider") {
		t.Errorf("exit %d: %s", code, errOut)
	}
	if code, _, _ := runCLI(t, "", "classify", "--config", filepath.Join(dir, "missing.yaml"), "hi"); code != 1 {
		t.Errorf("missing config: exit %d", code)
	}
}
