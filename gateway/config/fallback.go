package config

import (
	"github.com/weirgw/weir/adapters/llm"
	"github.com/weirgw/weir/rules/fallback"
)

// Fallback is the `fallback:` section: the model the classifier asks when the rules are
// not confident, and how it is asked.
//
//	fallback:
//	  llm:
//	    provider: openai            # openai | azure | ollama | anthropic
//	    base_url: https://api.openai.com/v1
//	    model: gpt-4o-mini
//	    api_key_env: OPENAI_API_KEY # the NAME of the variable; keys are never in this file
//	  timeout: 2s                   # per call; on timeout the pack default applies
//	  cache_size: 1024              # -1 disables the cache
//	  breaker_failures: 5
//	  breaker_cooldown: 30s
//	  examples_per_intent: 2
//	  max_question_bytes: 2048
//
// The gateway builds the model once and keeps it (with its cache, breaker and counters)
// across reloads while this section stays the same; a reload that changes it builds a new one.
type Fallback struct {
	// LLM selects and configures the model (go doc github.com/weirgw/weir/adapters/llm
	// Config). Its own defaults (timeout 30s, max_tokens 1024, the provider's base_url)
	// are applied by adapters/llm.
	LLM llm.Config `yaml:"llm"`
	// Options tune the fallback; they are written inline, beside llm (go doc
	// github.com/weirgw/weir/rules/fallback Options). A zero or absent value takes the
	// fallback's default: timeout 2s, max_tokens 64, cache_size 1024, breaker_failures 5,
	// breaker_cooldown 30s, examples_per_intent 2, max_question_bytes 2048.
	fallback.Options `yaml:",inline"`
}

var providers = map[string]bool{llm.ProviderOpenAI: true, llm.ProviderAzure: true, llm.ProviderOllama: true, llm.ProviderAnthropic: true}

// defaults fills the fallback's own defaults; negative durations are kept for validation
// to report (WithDefaults would replace them).
func (f *Fallback) defaults() {
	o := f.Options.WithDefaults()
	if f.Timeout < 0 {
		o.Timeout = f.Timeout
	}
	if f.BreakerCooldown < 0 {
		o.BreakerCooldown = f.BreakerCooldown
	}
	f.Options = o
}

// validateFallback checks the section as adapters/llm will, so that a bad provider, a
// missing model or an unset key variable is reported with its line at load, not when the
// first question falls back. env is the environment the key will be read from.
func (c *Config) validateFallback(bad func(path, format string, args ...any), env lookupFunc) {
	if c.Fallback == nil {
		return
	}
	validateLLM(bad, env, "fallback.llm", c.Fallback.LLM)
	f, m := c.Fallback, c.Fallback.LLM
	for _, n := range []struct {
		key string
		neg bool
	}{
		{"timeout", f.Timeout < 0}, {"breaker_cooldown", f.BreakerCooldown < 0}, {"llm.timeout", m.Timeout < 0},
		{"breaker_failures", f.BreakerFailures < 0}, {"max_question_bytes", f.MaxQuestionBytes < 0},
		{"max_tokens", f.MaxTokens < 0}, {"llm.max_tokens", m.MaxTokens < 0},
	} {
		if n.neg {
			bad("fallback."+n.key, "fallback.%s must not be negative", n.key)
		}
	}
}

// validateLLM checks a model section (at path, e.g. fallback.llm) as adapters/llm will, so
// that a bad provider, a missing model or an unset key variable is reported with its line
// at load, not when the model is first asked.
func validateLLM(bad func(path, format string, args ...any), env lookupFunc, path string, m llm.Config) {
	validateModel(bad, path, m)
	validateKeyEnv(bad, env, path, m)
}

// validateModel checks provider, model and base_url.
func validateModel(bad func(path, format string, args ...any), path string, m llm.Config) {
	switch {
	case m.Provider == "":
		bad(path, "%s.provider is required (openai, azure, ollama, anthropic)", path)
	case !providers[m.Provider]:
		bad(path+".provider", "%s.provider must be openai, azure, ollama or anthropic, not %q", path, m.Provider)
	}
	if m.Model == "" {
		bad(path, "%s.model is required (the deployment name for azure)", path)
	}
	switch {
	case m.BaseURL != "":
		if msg := checkURL(m.BaseURL); msg != "" {
			bad(path+".base_url", "%s.base_url %s", path, msg)
		}
	case m.Provider == llm.ProviderAzure:
		bad(path, "%s.base_url is required for azure (the resource endpoint)", path)
	}
}

// validateKeyEnv checks api_key_env: it must be a variable's name (a key written there by
// mistake is never echoed), and a provider that needs a key must find it set.
func validateKeyEnv(bad func(path, format string, args ...any), env lookupFunc, path string, m llm.Config) {
	if !providers[m.Provider] {
		return
	}
	if m.APIKeyEnv != "" && !validName(m.APIKeyEnv) {
		bad(path+".api_key_env", "%s.api_key_env must be the name of an environment variable, not a key (value withheld)", path)
		return
	}
	if !m.NeedsKey() {
		return
	}
	if m.APIKeyEnv == "" {
		bad(path, "%s: provider %s at %s needs api_key_env (the name of the variable holding the key)", path, m.Provider, keyHost(m))
		return
	}
	if v, _ := env(m.APIKeyEnv); v == "" {
		bad(path+".api_key_env", "%s.api_key_env: environment variable %s is unset or empty, and provider %s at %s needs a key", path, m.APIKeyEnv, m.Provider, keyHost(m))
	}
}

func keyHost(m llm.Config) string {
	if m.BaseURL != "" {
		return m.BaseURL
	}
	return "its default endpoint"
}
