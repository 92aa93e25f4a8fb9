// Package llm is Weir's seam to language models: the only package that imports
// langchaingo. The rest of Weir sees Model, Message and Response; New builds a Model from
// a Config (openai and OpenAI-compatible servers, azure, ollama, anthropic).
//
// Workarounds for langchaingo v0.1.14, each with a test against the scripted server in
// adapters/mockllm over a real socket (see workaround_test.go):
//   - its HTTP client has no timeout: we always pass one with Config.Timeout;
//   - its Ollama client drops tools: ollama goes through the OpenAI client at BaseURL/v1;
//   - streaming assembles the arguments of parallel tool calls wrongly (it ignores the
//     delta index): a streamed call that offers tools is made without streaming and its
//     text is delivered in one chunk;
//   - it sends max_completion_tokens, which many OpenAI-compatible servers ignore: every
//     provider but OpenAI itself gets max_tokens;
//   - it reads OPENAI_API_KEY and OPENAI_BASE_URL from the environment on its own: we
//     always pass the key and the URL the config names.
package llm

import (
	"context"
	"fmt"
)

// Role is a message's author.
type Role string

// The roles of a conversation.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// Message is one turn of a conversation.
type Message struct {
	Role    Role
	Content string
	// ToolCalls are the calls an assistant message proposed.
	ToolCalls []ToolCall
	// ToolCallID and Name identify the call a tool message answers.
	ToolCallID string
	Name       string
}

// Tool is a function the model may call; Parameters is a JSON schema.
type Tool struct {
	Name        string
	Description string
	Parameters  map[string]any
}

// ToolCall is a call the model proposes; Arguments is a JSON string as the model wrote it.
type ToolCall struct {
	ID        string
	Name      string
	Arguments string
}

// Options tune one call; zero values take the Config's defaults.
type Options struct {
	MaxTokens int
	// Temperature overrides Config.Temperature when set.
	Temperature *float64
	// JSON asks for a JSON object as output where the provider supports it (OpenAI-style
	// response_format); elsewhere the prompt must ask for it.
	JSON  bool
	Tools []Tool
	// OnText, when set, streams the answer's text as it arrives.
	OnText func(chunk string) error
}

// Usage is the token usage the provider reported.
type Usage struct {
	PromptTokens     int
	CompletionTokens int
}

// Response is the model's answer.
type Response struct {
	Text      string
	ToolCalls []ToolCall
	Usage     Usage
	Model     string
	// FinishReason is the provider's reason for stopping (stop, length, tool_calls, ...).
	FinishReason string
}

// Model is a configured model.
type Model interface {
	Generate(ctx context.Context, msgs []Message, opts Options) (Response, error)
	// Name returns the configured model name, for results and metrics.
	Name() string
}

// New builds the model cfg describes. It reads the API key from the environment variable
// cfg.APIKeyEnv names and fails if a provider that needs one finds it empty.
func New(cfg Config) (Model, error) {
	c, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	key, err := c.apiKey()
	if err != nil {
		return nil, err
	}
	switch c.Provider {
	case ProviderAnthropic:
		return newAnthropic(c, key)
	case ProviderOpenAI, ProviderAzure, ProviderOllama:
		return newOpenAI(c, key)
	}
	return nil, fmt.Errorf("llm: unknown provider %q", c.Provider)
}
