package fallback

import (
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/weirgw/weir/adapters/llm"
)

// TestConfigSectionDecodes shows the YAML a gateway config embeds (see README.md).
func TestConfigSectionDecodes(t *testing.T) {
	var section struct {
		LLM     llm.Config `yaml:"llm"`
		Options `yaml:",inline"`
	}
	src := `
llm: {provider: ollama, base_url: "http://127.0.0.1:11434", model: llama3.2, timeout: 5s}
timeout: 1500ms
cache_size: 256
breaker_failures: 3
breaker_cooldown: 1m
`
	if err := yaml.Unmarshal([]byte(src), &section); err != nil {
		t.Fatal(err)
	}
	if section.LLM.Provider != "ollama" || section.LLM.Timeout != 5*time.Second || section.Timeout != 1500*time.Millisecond ||
		section.CacheSize != 256 || section.BreakerFailures != 3 || section.BreakerCooldown != time.Minute {
		t.Fatalf("decoded %+v", section)
	}
	if _, err := FromConfig(section.LLM, section.Options); err != nil {
		t.Fatal(err)
	}
}
