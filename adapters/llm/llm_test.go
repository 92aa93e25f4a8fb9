package llm

import (
	"context"
	"strings"
	"testing"

	"github.com/weirgw/weir/adapters/mockllm"
)

const script = `
model: mock-model
cases:
  - name: slow
    match: {contains: "slow"}
    reply: {text: "late", delay: 3s}
  - name: after-tool
    match: {tool_result: true}
    reply: {text: "Revenue was 21956.62 in 2024.", usage: {prompt_tokens: 50, completion_tokens: 9}}
  - name: parallel
    match: {contains: "revenue and covers", tools: true}
    reply:
      stream: {chunk: 4, interleave: true}
      tool_calls:
        - {id: call_a, name: execute_metric, arguments: {metric: revenue, year: 2024}}
        - {id: call_b, name: execute_metric, arguments: {metric: covers, year: 2024}}
  - name: text
    reply: {text: '{"intent": "analytics", "confidence": 0.8}', usage: {prompt_tokens: 120, completion_tokens: 12}}
`

var wantArgs = []string{`{"metric":"revenue","year":2024}`, `{"metric":"covers","year":2024}`}

func startMock(t *testing.T) *mockllm.Server {
	t.Helper()
	s, err := mockllm.ParseScript([]byte(script))
	if err != nil {
		t.Fatal(err)
	}
	srv, err := mockllm.Start(s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	return srv
}

func newModel(t *testing.T, cfg Config) Model {
	t.Helper()
	m, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

var metricTool = []Tool{{Name: "execute_metric", Description: "run a metric",
	Parameters: map[string]any{"type": "object", "properties": map[string]any{"metric": map[string]any{"type": "string"}}}}}

func TestGenerateText(t *testing.T) {
	srv := startMock(t)
	m := newModel(t, Config{Provider: ProviderOpenAI, BaseURL: srv.URL(), Model: "gpt-test"})
	zero := 0.0
	resp, err := m.Generate(context.Background(), []Message{
		{Role: RoleSystem, Content: "classify"}, {Role: RoleUser, Content: "how many covers?"},
	}, Options{MaxTokens: 64, Temperature: &zero, JSON: true})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Text != `{"intent": "analytics", "confidence": 0.8}` || resp.Usage != (Usage{120, 12}) || resp.Model != "gpt-test" {
		t.Errorf("response %+v", resp)
	}
	body := srv.Requests()[0].Body
	if body["model"] != "gpt-test" || body["temperature"] != 0.0 || body["max_tokens"] != 64.0 {
		t.Errorf("request %v", body)
	}
	if rf, _ := body["response_format"].(map[string]any); rf["type"] != "json_object" {
		t.Errorf("JSON mode not requested: %v", body["response_format"])
	}
}

func TestGenerateStreamsText(t *testing.T) {
	srv := startMock(t)
	m := newModel(t, Config{Provider: ProviderOpenAI, BaseURL: srv.URL(), Model: "m"})
	var chunks []string
	resp, err := m.Generate(context.Background(), []Message{{Role: RoleUser, Content: "hi"}},
		Options{OnText: func(s string) error { chunks = append(chunks, s); return nil }})
	if err != nil {
		t.Fatal(err)
	}
	if len(chunks) < 3 || strings.Join(chunks, "") != resp.Text || resp.Text != `{"intent": "analytics", "confidence": 0.8}` {
		t.Errorf("chunks %q, text %q", chunks, resp.Text)
	}
	if srv.Requests()[0].Body["stream"] != true {
		t.Error("not streamed")
	}
}

func TestToolConversation(t *testing.T) {
	srv := startMock(t)
	m := newModel(t, Config{Provider: ProviderOpenAI, BaseURL: srv.URL(), Model: "m"})
	msgs := []Message{{Role: RoleUser, Content: "revenue and covers for 2024"}}
	resp, err := m.Generate(context.Background(), msgs, Options{Tools: metricTool})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.ToolCalls) != 2 || resp.ToolCalls[0].Arguments != wantArgs[0] || resp.ToolCalls[1].ID != "call_b" {
		t.Fatalf("tool calls %+v", resp.ToolCalls)
	}
	msgs = append(msgs, Message{Role: RoleAssistant, ToolCalls: resp.ToolCalls},
		Message{Role: RoleTool, ToolCallID: "call_a", Name: "execute_metric", Content: `{"value": 21956.62}`},
		Message{Role: RoleTool, ToolCallID: "call_b", Name: "execute_metric", Content: `{"value": 913}`})
	resp, err = m.Generate(context.Background(), msgs, Options{Tools: metricTool})
	if err != nil || resp.Text != "Revenue was 21956.62 in 2024." {
		t.Fatalf("%+v %v", resp, err)
	}
	sent := srv.Requests()[1].Body["messages"].([]any)
	if len(sent) != 4 || sent[2].(map[string]any)["tool_call_id"] != "call_a" {
		t.Errorf("messages sent %v", sent)
	}
}

func TestConfigErrors(t *testing.T) {
	t.Setenv("WEIR_TEST_EMPTY", "")
	tests := []struct {
		name string
		cfg  Config
		want string
	}{
		{"no provider", Config{Model: "m"}, "provider is required"},
		{"unknown provider", Config{Provider: "bard", Model: "m"}, `unknown provider "bard"`},
		{"no model", Config{Provider: ProviderOpenAI}, "model is required"},
		{"openai without key", Config{Provider: ProviderOpenAI, Model: "m"}, "needs api_key_env"},
		{"empty key variable", Config{Provider: ProviderAnthropic, Model: "m", APIKeyEnv: "WEIR_TEST_EMPTY"}, "WEIR_TEST_EMPTY (api_key_env) is empty"},
		{"azure without endpoint", Config{Provider: ProviderAzure, Model: "m", APIKeyEnv: "X"}, "azure needs base_url"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(tc.cfg)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want %q", err, tc.want)
			}
		})
	}
}

// TestOptionalKey: a provider that needs no key builds when api_key_env names an unset or
// empty variable (a local OpenAI-compatible server, Ollama); one that needs a key does not.
func TestOptionalKey(t *testing.T) {
	t.Setenv("WEIR_TEST_EMPTY", "")
	tests := []struct {
		cfg      Config
		needsKey bool
	}{
		{Config{Provider: ProviderOpenAI, Model: "m", BaseURL: "http://127.0.0.1:8081/v1", APIKeyEnv: "WEIR_TEST_EMPTY"}, false},
		{Config{Provider: ProviderOpenAI, Model: "m", BaseURL: "http://127.0.0.1:8081/v1", APIKeyEnv: "WEIR_TEST_UNSET_VARIABLE"}, false},
		{Config{Provider: ProviderOllama, Model: "m", APIKeyEnv: "WEIR_TEST_EMPTY"}, false},
		{Config{Provider: ProviderOpenAI, Model: "m", APIKeyEnv: "WEIR_TEST_EMPTY"}, true},
		{Config{Provider: ProviderOpenAI, Model: "m", BaseURL: defaultOpenAIURL, APIKeyEnv: "WEIR_TEST_EMPTY"}, true},
		{Config{Provider: ProviderOpenAI, Model: "m", BaseURL: "https://api.openai.com/v1/", APIKeyEnv: "WEIR_TEST_EMPTY"}, true},
		{Config{Provider: ProviderAzure, Model: "m", BaseURL: "https://x.openai.azure.com", APIKeyEnv: "WEIR_TEST_EMPTY"}, true},
		{Config{Provider: ProviderAnthropic, Model: "m"}, true},
	}
	for _, tc := range tests {
		if got := tc.cfg.NeedsKey(); got != tc.needsKey {
			t.Errorf("%+v: NeedsKey = %v", tc.cfg, got)
		}
		_, err := New(tc.cfg)
		if (err != nil) != tc.needsKey {
			t.Errorf("%+v: New err = %v", tc.cfg, err)
		}
	}
}

func TestProvidersBuild(t *testing.T) {
	t.Setenv("WEIR_TEST_KEY", "sk-test")
	for _, cfg := range []Config{
		{Provider: ProviderOpenAI, Model: "gpt-4o-mini", APIKeyEnv: "WEIR_TEST_KEY"},
		{Provider: ProviderAnthropic, Model: "claude-3-5-haiku-latest", APIKeyEnv: "WEIR_TEST_KEY"},
		{Provider: ProviderOllama, Model: "llama3.2"},
		{Provider: ProviderAzure, BaseURL: "https://x.openai.azure.com", Model: "dep", APIKeyEnv: "WEIR_TEST_KEY"},
	} {
		m, err := New(cfg)
		if err != nil || m.Name() != cfg.Model {
			t.Errorf("%s: %v", cfg.Provider, err)
		}
	}
}

func TestAzure(t *testing.T) {
	srv := startMock(t)
	t.Setenv("WEIR_TEST_KEY", "az-key")
	m := newModel(t, Config{Provider: ProviderAzure, BaseURL: "http://" + srv.Addr(), Model: "my-deployment", APIKeyEnv: "WEIR_TEST_KEY"})
	if _, err := m.Generate(context.Background(), []Message{{Role: RoleUser, Content: "hi"}}, Options{}); err != nil {
		t.Fatal(err)
	}
	r := srv.Requests()[0]
	if r.Path != "/openai/deployments/my-deployment/chat/completions" || r.Header.Get("api-key") != "az-key" {
		t.Errorf("path %s, headers %v", r.Path, r.Header)
	}
}
