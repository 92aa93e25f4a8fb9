package llm

import (
	"fmt"
	"net/http"
	"net/url"
	"os"
	"time"
)

// Config selects and configures a model. It is decoded from the gateway's YAML config;
// keys never appear in it — APIKeyEnv names the environment variable that holds the key.
type Config struct {
	// Provider is openai (also any OpenAI-compatible server: vLLM, LM Studio, llama.cpp),
	// azure, ollama or anthropic.
	Provider string `yaml:"provider"`
	// BaseURL is the API root, e.g. https://api.openai.com/v1 (the default for openai),
	// http://127.0.0.1:11434 for ollama (the default; /v1 is added), or the Azure resource
	// endpoint https://NAME.openai.azure.com.
	BaseURL string `yaml:"base_url"`
	// Model is the model name (the deployment name for azure).
	Model string `yaml:"model"`
	// APIKeyEnv is the name of the environment variable holding the API key. Required for
	// openai (unless BaseURL points elsewhere), azure and anthropic (see NeedsKey); for a
	// provider that needs none, an unset or empty variable means no key is sent.
	APIKeyEnv string `yaml:"api_key_env"`
	// APIVersion is the Azure API version (default 2024-06-01).
	APIVersion string `yaml:"api_version"`
	// Timeout bounds every call, including reading a whole stream (default 30s).
	Timeout time.Duration `yaml:"timeout"`
	// MaxTokens is the default output budget per call (default 1024).
	MaxTokens int `yaml:"max_tokens"`
	// Temperature is the default sampling temperature (default 0).
	Temperature float64 `yaml:"temperature"`
}

// The providers New accepts.
const (
	ProviderOpenAI    = "openai"
	ProviderAzure     = "azure"
	ProviderOllama    = "ollama"
	ProviderAnthropic = "anthropic"
)

const (
	defaultOpenAIURL = "https://api.openai.com/v1"
	defaultOllamaURL = "http://127.0.0.1:11434"
)

// withDefaults fills defaults and checks the config. It never reads the key itself.
func (c Config) withDefaults() (Config, error) {
	if c.Timeout <= 0 {
		c.Timeout = 30 * time.Second
	}
	if c.MaxTokens <= 0 {
		c.MaxTokens = 1024
	}
	if c.Model == "" {
		return c, fmt.Errorf("llm: model is required")
	}
	switch c.Provider {
	case ProviderOpenAI:
		if c.BaseURL == "" {
			c.BaseURL = defaultOpenAIURL
		}
	case ProviderOllama:
		if c.BaseURL == "" {
			c.BaseURL = defaultOllamaURL
		}
	case ProviderAzure:
		if c.BaseURL == "" {
			return c, fmt.Errorf("llm: azure needs base_url (the resource endpoint)")
		}
		if c.APIVersion == "" {
			c.APIVersion = "2024-06-01"
		}
	case ProviderAnthropic:
	case "":
		return c, fmt.Errorf("llm: provider is required (openai, azure, ollama, anthropic)")
	default:
		return c, fmt.Errorf("llm: unknown provider %q (openai, azure, ollama, anthropic)", c.Provider)
	}
	return c, nil
}

// NeedsKey reports whether the provider needs an API key: OpenAI itself, Azure and
// Anthropic do; Ollama and OpenAI-compatible servers at another base_url (vLLM, LM Studio,
// llama.cpp, mock-llm) do not, and get one only when api_key_env names a set variable.
func (c Config) NeedsKey() bool {
	switch c.Provider {
	case ProviderOllama:
		return false
	case ProviderOpenAI:
		if c.BaseURL == "" {
			return true
		}
		u, err := url.Parse(c.BaseURL)
		return err != nil || u.Hostname() == "api.openai.com"
	}
	return true
}

// apiKey reads the key from the environment variable the config names. A provider that
// needs a key fails here, at load, with the variable's name (never its value).
func (c Config) apiKey() (string, error) {
	key := ""
	if c.APIKeyEnv != "" {
		key = os.Getenv(c.APIKeyEnv)
	}
	switch {
	case key != "":
		return key, nil
	case !c.NeedsKey():
		// Local servers take no key, but langchaingo refuses an empty one and would
		// otherwise read OPENAI_API_KEY from the environment on its own.
		return "unused", nil
	case c.APIKeyEnv == "":
		return "", fmt.Errorf("llm: %s needs api_key_env (the name of the variable holding the key)", c.Provider)
	}
	return "", fmt.Errorf("llm: environment variable %s (api_key_env) is empty or unset", c.APIKeyEnv)
}

// httpClient always has a time limit: langchaingo's default client has none, so a server
// that accepts the connection and never answers would hold a request forever.
func (c Config) httpClient() *http.Client {
	return &http.Client{Timeout: c.Timeout}
}
