package llm

import (
	"fmt"
	"strings"

	"github.com/tmc/langchaingo/llms/anthropic"
	"github.com/tmc/langchaingo/llms/openai"
)

// newOpenAI serves openai, OpenAI-compatible servers, azure and ollama. Ollama goes
// through its OpenAI-compatible /v1 API because langchaingo's Ollama client drops tools.
func newOpenAI(c Config, key string) (Model, error) {
	base := strings.TrimRight(c.BaseURL, "/")
	if c.Provider == ProviderOllama && !strings.HasSuffix(base, "/v1") {
		base += "/v1"
	}
	opts := []openai.Option{
		openai.WithToken(key), openai.WithModel(c.Model), openai.WithBaseURL(base),
		openai.WithHTTPClient(c.httpClient()),
	}
	if c.Provider == ProviderAzure {
		opts = append(opts, openai.WithAPIType(openai.APITypeAzure), openai.WithAPIVersion(c.APIVersion))
	}
	m, err := openai.New(opts...)
	if err != nil {
		return nil, fmt.Errorf("llm: %s: %w", c.Provider, err)
	}
	return &lcModel{
		cfg: c, llm: m, jsonMode: true,
		// Only OpenAI itself is known to read max_completion_tokens (and requires it for
		// reasoning models); Ollama, vLLM, llama.cpp and Azure's older API versions read
		// max_tokens and ignore the other field, which would leave the output unbounded.
		legacyMaxTokens: !(c.Provider == ProviderOpenAI && base == defaultOpenAIURL),
	}, nil
}

func newAnthropic(c Config, key string) (Model, error) {
	opts := []anthropic.Option{anthropic.WithToken(key), anthropic.WithModel(c.Model),
		anthropic.WithHTTPClient(c.httpClient())}
	if c.BaseURL != "" {
		opts = append(opts, anthropic.WithBaseURL(c.BaseURL))
	}
	m, err := anthropic.New(opts...)
	if err != nil {
		return nil, fmt.Errorf("llm: anthropic: %w", err)
	}
	// Anthropic has no JSON mode; the prompt asks for JSON.
	return &lcModel{cfg: c, llm: m}, nil
}
