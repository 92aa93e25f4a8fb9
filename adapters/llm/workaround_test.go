package llm

// Each workaround of the package doc, shown twice against a real socket: what langchaingo
// v0.1.14 does on its own (the reason), and what our adapter does instead.

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tmc/langchaingo/httputil"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/ollama"
	"github.com/tmc/langchaingo/llms/openai"
)

func TestWorkaroundHTTPTimeout(t *testing.T) {
	// Why: langchaingo's default client, used unless one is passed, has no time limit.
	if httputil.DefaultClient.Timeout != 0 {
		t.Error("langchaingo's default client now has a timeout; review the workaround")
	}
	// Ours: a server that never answers in time fails the call after Config.Timeout even
	// when the caller's context has no deadline.
	srv := startMock(t)
	m := newModel(t, Config{Provider: ProviderOpenAI, BaseURL: srv.URL(), Model: "m", Timeout: 200 * time.Millisecond})
	start := time.Now()
	_, err := m.Generate(context.Background(), []Message{{Role: RoleUser, Content: "slow"}}, Options{})
	if err == nil || time.Since(start) > 2*time.Second {
		t.Fatalf("err %v after %v", err, time.Since(start))
	}
}

func TestWorkaroundOllamaTools(t *testing.T) {
	// Why: langchaingo's Ollama client sends no tools to /api/chat.
	var mu sync.Mutex
	var native map[string]any
	rec := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		_ = json.Unmarshal(b, &native)
		mu.Unlock()
		http.Error(w, "recording only", http.StatusTeapot)
	}))
	defer rec.Close()
	raw, err := ollama.New(ollama.WithServerURL(rec.URL), ollama.WithModel("llama3.2"))
	if err != nil {
		t.Fatal(err)
	}
	_, _ = raw.GenerateContent(context.Background(), []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "revenue and covers")},
		llms.WithTools([]llms.Tool{{Type: "function", Function: &llms.FunctionDefinition{Name: "execute_metric"}}}))
	mu.Lock()
	if native == nil {
		t.Fatal("the native client sent nothing")
	}
	if _, has := native["tools"]; has {
		t.Error("langchaingo's Ollama client now sends tools; review the workaround")
	}
	mu.Unlock()

	// Ours: provider ollama speaks Ollama's OpenAI-compatible /v1 API, tools included.
	srv := startMock(t)
	m := newModel(t, Config{Provider: ProviderOllama, BaseURL: "http://" + srv.Addr(), Model: "llama3.2"})
	resp, err := m.Generate(context.Background(), []Message{{Role: RoleUser, Content: "revenue and covers for 2024"}}, Options{Tools: metricTool})
	if err != nil {
		t.Fatal(err)
	}
	r := srv.Requests()[0]
	tools, _ := r.Body["tools"].([]any)
	if r.Path != "/v1/chat/completions" || len(tools) != 1 || len(resp.ToolCalls) != 2 {
		t.Fatalf("path %s, tools %v, calls %+v", r.Path, r.Body["tools"], resp.ToolCalls)
	}
}

func TestWorkaroundParallelToolCallStream(t *testing.T) {
	srv := startMock(t)
	msgs := []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "revenue and covers for 2024")}
	tools := []llms.Tool{{Type: "function", Function: &llms.FunctionDefinition{Name: "execute_metric"}}}
	// Why: streamed through langchaingo, interleaved argument deltas (told apart only by
	// their index) are all appended to the last call.
	raw, err := openai.New(openai.WithBaseURL(srv.URL()), openai.WithToken("x"), openai.WithModel("m"))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := raw.GenerateContent(context.Background(), msgs, llms.WithTools(tools),
		llms.WithStreamingFunc(func(context.Context, []byte) error { return nil }))
	if err != nil {
		t.Fatal(err)
	}
	calls := resp.Choices[0].ToolCalls
	if len(calls) == 2 && calls[0].FunctionCall.Arguments == wantArgs[0] && calls[1].FunctionCall.Arguments == wantArgs[1] {
		t.Error("langchaingo now assembles parallel streamed tool calls; review the workaround")
	}
	for _, c := range calls {
		t.Logf("langchaingo assembled %s(%s)", c.FunctionCall.Name, c.FunctionCall.Arguments)
	}

	// Ours: a streamed call that offers tools is made without streaming; the arguments
	// are exact and the text still reaches OnText.
	m := newModel(t, Config{Provider: ProviderOpenAI, BaseURL: srv.URL(), Model: "m"})
	got, err := m.Generate(context.Background(), []Message{{Role: RoleUser, Content: "revenue and covers for 2024"}},
		Options{Tools: metricTool, OnText: func(string) error { return nil }})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.ToolCalls) != 2 || got.ToolCalls[0].Arguments != wantArgs[0] || got.ToolCalls[1].Arguments != wantArgs[1] {
		t.Fatalf("tool calls %+v", got.ToolCalls)
	}
	if last := srv.Requests()[1]; last.Body["stream"] == true {
		t.Error("the call with tools was streamed")
	}
}

func TestWorkaroundMaxTokensField(t *testing.T) {
	srv := startMock(t)
	hi := []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "hi")}
	// Why: langchaingo sends only max_completion_tokens, which OpenAI-compatible servers
	// (Ollama, vLLM, llama.cpp) may ignore, leaving the output unbounded.
	raw, err := openai.New(openai.WithBaseURL(srv.URL()), openai.WithToken("x"), openai.WithModel("m"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.GenerateContent(context.Background(), hi, llms.WithMaxTokens(64)); err != nil {
		t.Fatal(err)
	}
	if b := srv.Requests()[0].Body; b["max_completion_tokens"] != 64.0 || b["max_tokens"] != nil {
		t.Errorf("langchaingo sent %v", b)
	}
	// Ours: every provider but OpenAI itself gets max_tokens.
	for i, cfg := range []Config{
		{Provider: ProviderOpenAI, BaseURL: srv.URL(), Model: "m"},
		{Provider: ProviderOllama, BaseURL: "http://" + srv.Addr(), Model: "m"},
	} {
		m := newModel(t, cfg)
		if _, err := m.Generate(context.Background(), []Message{{Role: RoleUser, Content: "hi"}}, Options{MaxTokens: 64}); err != nil {
			t.Fatal(err)
		}
		if b := srv.Requests()[i+1].Body; b["max_tokens"] != 64.0 || b["max_completion_tokens"] != nil {
			t.Errorf("%s sent %v", cfg.Provider, b)
		}
	}
	t.Setenv("WEIR_TEST_KEY", "sk-test")
	m := newModel(t, Config{Provider: ProviderOpenAI, Model: "o3-mini", APIKeyEnv: "WEIR_TEST_KEY"})
	if m.(*lcModel).legacyMaxTokens {
		t.Error("api.openai.com should get max_completion_tokens (reasoning models require it)")
	}
}

func TestWorkaroundEnvironment(t *testing.T) {
	srv := startMock(t)
	t.Setenv("OPENAI_API_KEY", "sk-from-env")
	t.Setenv("OPENAI_BASE_URL", srv.URL())
	t.Setenv("WEIR_TEST_KEY", "sk-configured")
	hi := []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "hi")}
	// Why: unless told otherwise, langchaingo takes the key and the URL from the
	// environment, so a config could silently use another service or another key.
	raw, err := openai.New(openai.WithModel("m"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.GenerateContent(context.Background(), hi); err != nil {
		t.Fatal(err)
	}
	if auth := srv.Requests()[0].Header.Get("Authorization"); auth != "Bearer sk-from-env" {
		t.Errorf("langchaingo used %q", auth)
	}
	// Ours: only the configured variable is read; a local server without api_key_env
	// gets a placeholder, never OPENAI_API_KEY.
	for i, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{Provider: ProviderOpenAI, BaseURL: srv.URL(), Model: "m", APIKeyEnv: "WEIR_TEST_KEY"}, "Bearer sk-configured"},
		{Config{Provider: ProviderOllama, BaseURL: "http://" + srv.Addr(), Model: "m"}, "Bearer unused"},
	} {
		m := newModel(t, tc.cfg)
		if _, err := m.Generate(context.Background(), []Message{{Role: RoleUser, Content: "hi"}}, Options{}); err != nil {
			t.Fatal(err)
		}
		if auth := srv.Requests()[i+1].Header.Get("Authorization"); auth != tc.want || strings.Contains(auth, "from-env") {
			t.Errorf("%s: Authorization %q, want %q", tc.cfg.Provider, auth, tc.want)
		}
	}
}
