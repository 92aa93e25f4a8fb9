package config

import (
	"strings"
	"testing"
	"time"

	"github.com/weirgw/weir/adapters/llm"
)

// base is a valid config without a fallback section.
const fallbackBase = "rules: r\npolicies: p\nupstreams:\n  - {name: llm, base_url: 'http://x/v1'}\nroutes:\n  - {name: a, upstream: llm, auth: none}\n"

func TestFallbackSection(t *testing.T) {
	src := fallbackBase + `fallback:
  llm:
    provider: openai
    base_url: ${LLM_URL:-http://127.0.0.1:8081/v1}
    model: ${MODEL:-gpt-4o-mini}
    api_key_env: WEIR_LLM_API_KEY
    timeout: 5s
  timeout: 1500ms
  cache_size: -1
  breaker_cooldown: 1m
`
	cfg, err := parse("weir.yaml", "/x/weir.yaml", []byte(src), env(nil))
	if err != nil {
		t.Fatal(err)
	}
	f := cfg.Fallback
	if f == nil {
		t.Fatal("no fallback section")
	}
	want := llm.Config{Provider: "openai", BaseURL: "http://127.0.0.1:8081/v1", Model: "gpt-4o-mini", APIKeyEnv: "WEIR_LLM_API_KEY", Timeout: 5 * time.Second}
	if f.LLM != want {
		t.Errorf("llm = %+v", f.LLM)
	}
	// Written values stay; the others take the fallback's defaults.
	if f.Timeout != 1500*time.Millisecond || f.CacheSize != -1 || f.BreakerCooldown != time.Minute ||
		f.BreakerFailures != 5 || f.MaxTokens != 64 || f.ExamplesPerIntent != 2 || f.MaxQuestionBytes != 2048 {
		t.Errorf("options = %+v", f.Options)
	}
	if d := cfg.Dump(); !strings.Contains(d, "api_key_env: WEIR_LLM_API_KEY") || !strings.Contains(d, "timeout: 1.5s") {
		t.Errorf("Dump:\n%s", d)
	}

	cfg, err = parse("weir.yaml", "/x/weir.yaml", []byte(fallbackBase), env(nil))
	if err != nil || cfg.Fallback != nil {
		t.Fatalf("no section: %v %+v", err, cfg.Fallback)
	}
}

func TestFallbackKeyEnv(t *testing.T) {
	tests := []struct {
		name string
		llm  string
		env  map[string]string
		want string // "" for no error
	}{
		{"openai needs a key: set", "{provider: openai, model: m, api_key_env: K}", map[string]string{"K": "sk-secret"}, ""},
		{"openai needs a key: unset", "{provider: openai, model: m, api_key_env: K}", nil, "weir.yaml:8: config_invalid: fallback.llm.api_key_env: environment variable K is unset or empty"},
		{"openai needs a key: empty", "{provider: openai, model: m, api_key_env: K}", map[string]string{"K": ""}, "environment variable K is unset or empty"},
		{"openai needs a key: none named", "{provider: openai, model: m}", nil, "weir.yaml:8: config_invalid: fallback.llm: provider openai at its default endpoint needs api_key_env"},
		{"anthropic needs a key", "{provider: anthropic, model: m, api_key_env: K}", nil, "environment variable K is unset"},
		{"local openai-compatible: no key needed", "{provider: openai, base_url: 'http://127.0.0.1:8081/v1', model: m, api_key_env: K}", nil, ""},
		{"ollama: no key", "{provider: ollama, model: llama3.2}", nil, ""},
		{"a key written as the name", "{provider: openai, model: m, api_key_env: 'sk-proj-12345'}", nil, "must be the name of an environment variable, not a key (value withheld)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := fallbackBase + "fallback:\n  llm: " + tc.llm + "\n"
			_, err := parse("weir.yaml", "/x/weir.yaml", []byte(src), env(tc.env))
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			if err != nil && (strings.Contains(err.Error(), "sk-secret") || strings.Contains(err.Error(), "sk-proj")) {
				t.Errorf("the error shows a key: %v", err)
			}
		})
	}
}

func TestFallbackErrors(t *testing.T) {
	tests := []struct {
		name    string
		section string
		want    []string // substrings of the error, in order
	}{
		{"unknown key in section", "fallback:\n  llm: {provider: ollama, model: m}\n  cache: 10\n", []string{"weir.yaml:9: config_unknown_key: unknown key \"cache\" in fallback"}},
		{"unknown key in llm", "fallback:\n  llm:\n    provider: ollama\n    model: m\n    api_key: sk-1\n", []string{"weir.yaml:11: config_unknown_key: unknown key \"api_key\" in fallback.llm"}},
		{"unknown provider", "fallback:\n  llm:\n    provider: bard\n    model: m\n", []string{"weir.yaml:9: config_invalid: fallback.llm.provider must be openai, azure, ollama or anthropic, not \"bard\""}},
		{"missing provider", "fallback:\n  llm: {model: m}\n", []string{"weir.yaml:8: config_invalid: fallback.llm.provider is required"}},
		{"missing model", "fallback:\n  llm: {provider: ollama}\n", []string{"weir.yaml:8: config_invalid: fallback.llm.model is required"}},
		{"missing llm", "fallback:\n  timeout: 1s\n", []string{"fallback.llm.provider is required", "fallback.llm.model is required"}},
		{"azure without endpoint", "fallback:\n  llm: {provider: azure, model: dep, api_key_env: K}\n", []string{"base_url is required for azure"}},
		{"bad base_url", "fallback:\n  llm:\n    provider: ollama\n    model: m\n    base_url: 'ftp://x'\n", []string{"weir.yaml:11: config_invalid: fallback.llm.base_url must be an absolute http or https URL"}},
		{"bad duration", "fallback:\n  llm: {provider: ollama, model: m}\n  timeout: soon\n", []string{"weir.yaml:9: config_type_error"}},
		{"negative timeout", "fallback:\n  llm: {provider: ollama, model: m}\n  timeout: -1s\n", []string{"weir.yaml:9: config_invalid: fallback.timeout must not be negative"}},
		{"negative breaker", "fallback:\n  llm: {provider: ollama, model: m}\n  breaker_failures: -2\n", []string{"weir.yaml:9: config_invalid: fallback.breaker_failures must not be negative"}},
		{"wrong type", "fallback:\n  llm: {provider: ollama, model: m}\n  cache_size: many\n", []string{"weir.yaml:9: config_type_error"}},
		{"all errors at once", "fallback:\n  llm: {provider: bard}\n  nope: 1\n", []string{":9: config_unknown_key"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parse("weir.yaml", "/x/weir.yaml", []byte(fallbackBase+tc.section), env(nil))
			if err == nil {
				t.Fatal("no error")
			}
			msg, rest := err.Error(), err.Error()
			for _, w := range tc.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("error %q does not contain %q (in order)", msg, w)
				}
				rest = rest[i+len(w):]
			}
		})
	}
}
