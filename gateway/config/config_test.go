package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const valid = `listen: 127.0.0.1:0
admin_listen: 127.0.0.1:0
rules: rules
policies: ./policies
upstreams:
  - name: llm
    base_url: ${LLM_URL:-http://127.0.0.1:8081/v1}
    api_key: ${LLM_KEY:-}
    timeout: 2s
    max_conns: ${CONNS:-64}
routes:
  - name: chat
    upstream: llm
    intent_modes: {strategy: monitor}
    auth: none
  - name: data
    surface: data
    path: /api
    upstream: llm
    param: q
    auth: none
audit:
  path: audit.jsonl
  include_content: true
`

func env(m map[string]string) lookupFunc {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func TestParseValid(t *testing.T) {
	cfg, err := parse("weir.yaml", "/etc/weir/weir.yaml", []byte(valid), env(map[string]string{"LLM_KEY": "sk-secret", "CONNS": "8"}))
	if err != nil {
		t.Fatal(err)
	}
	u := cfg.Upstreams[0]
	if u.BaseURL != "http://127.0.0.1:8081/v1" || u.APIKey != "sk-secret" || u.MaxConns != 8 {
		t.Errorf("upstream = %+v", u)
	}
	if u.Timeout.Std() != 2*time.Second || u.ConnectTimeout.Std() != DefaultConnectTimeout {
		t.Errorf("timeouts = %v %v", u.Timeout, u.ConnectTimeout)
	}
	r := cfg.Routes[0]
	if r.Surface != SurfaceOpenAI || r.Path != "/v1" || r.Mode != ModeEnforce || r.OnViolation != OnViolationError {
		t.Errorf("route defaults = %+v", r)
	}
	if r.ModeFor("strategy") != ModeMonitor || r.ModeFor("analytics") != ModeEnforce {
		t.Errorf("ModeFor wrong")
	}
	if cfg.Rules != "/etc/weir/rules" || cfg.Policies != "/etc/weir/policies" || cfg.Audit.Path != "/etc/weir/audit.jsonl" {
		t.Errorf("paths = %q %q %q", cfg.Rules, cfg.Policies, cfg.Audit.Path)
	}
	if cfg.Audit.OnError != OnErrorFailClosed || cfg.Limits.MaxBodyBytes != DefaultMaxBodyBytes {
		t.Errorf("defaults = %+v %+v", cfg.Audit, cfg.Limits)
	}
	if d := cfg.Dump(); strings.Contains(d, "sk-secret") || !strings.Contains(d, "[redacted]") {
		t.Errorf("Dump leaks the key:\n%s", d)
	}
}

func TestParseErrors(t *testing.T) {
	base := func(routes string) string {
		return "rules: r\npolicies: p\nupstreams:\n  - {name: llm, base_url: 'http://x/v1'}\nroutes:\n" + routes
	}
	tests := []struct {
		name string
		src  string
		env  map[string]string
		want []string // substrings of the error, in order
	}{
		{"yaml syntax", "rules: [\n", nil, []string{"weir.yaml:", "config_yaml_invalid"}},
		{"empty", "", nil, []string{"config_invalid: empty config"}},
		{"unknown top key", "rules: r\npolicies: p\nlisten_addr: x\n", nil, []string{"weir.yaml:3: config_unknown_key: unknown key \"listen_addr\""}},
		{"unknown nested key", base("  - {name: a, upstream: llm, moed: monitor}\n"), nil, []string{"weir.yaml:6: config_unknown_key: unknown key \"moed\" in routes[0]"}},
		{"all unknown keys at once", "rules: r\nfoo: 1\nbar: 2\n", nil, []string{":2: config_unknown_key", ":3: config_unknown_key"}},
		{"wrong type", "rules: r\npolicies: p\nlimits: {max_body_bytes: lots}\n", nil, []string{"weir.yaml:3: config_type_error"}},
		{"bad duration", "rules: r\npolicies: p\nupstreams:\n  - {name: u, base_url: 'http://x', timeout: soon}\n", nil, []string{"weir.yaml:4: config_type_error", "not a duration"}},
		{"env unset", "rules: ${RULES_DIR}\n", nil, []string{"weir.yaml:1: config_env_invalid: environment variable RULES_DIR is not set"}},
		{"env unterminated", "rules: ${RULES\n", nil, []string{"config_env_invalid: unterminated"}},
		{"env bad name", "rules: ${1X}\n", nil, []string{"config_env_invalid: invalid variable name"}},
		{"expanded value withheld", "rules: r\npolicies: p\nlimits: {max_body_bytes: '${SECRET}'}\n", map[string]string{"SECRET": "hunter2"}, []string{"weir.yaml:3: config_type_error", "value withheld"}},
		{"rules missing", "policies: p\nroutes: []\n", nil, []string{"rules: the rule pack directory is required"}},
		{"no routes", "rules: r\npolicies: p\n", nil, []string{"at least one route"}},
		{"bad listen", "listen: nonsense\nrules: r\npolicies: p\n" + base("  - {name: a, upstream: llm, auth: none}\n")[len("rules: r\npolicies: p\n"):], nil, []string{"weir.yaml:1: config_invalid: listen: \"nonsense\" is not host:port"}},
		{"unknown upstream", base("  - {name: a, upstream: nope, auth: none}\n"), nil, []string{"weir.yaml:6: config_invalid: route \"a\": unknown upstream \"nope\""}},
		{"bad surface", base("  - {name: a, upstream: llm, surface: grpc, path: /x}\n"), nil, []string{"surface must be openai, data or query"}},
		{"bad mode", base("  - {name: a, upstream: llm, mode: block}\n"), nil, []string{"mode must be enforce or monitor"}},
		{"bad intent mode", base("  - {name: a, upstream: llm, intent_modes: {x: off}}\n"), nil, []string{"intent_modes.x must be enforce or monitor"}},
		{"bad on_violation", base("  - {name: a, upstream: llm, on_violation: drop}\n"), nil, []string{"on_violation must be error or rewrite"}},
		{"data without param", base("  - {name: a, upstream: llm, surface: data, path: /api}\n"), nil, []string{"a data route needs param"}},
		{"data without path", base("  - {name: a, upstream: llm, surface: data, param: q}\n"), nil, []string{"path must start with /"}},
		{"duplicate route", base("  - {name: a, upstream: llm}\n  - {name: a, upstream: llm, path: /v2}\n"), nil, []string{"weir.yaml:7: config_invalid: route \"a\" is defined twice"}},
		{"duplicate path", base("  - {name: a, upstream: llm}\n  - {name: b, upstream: llm}\n"), nil, []string{"path \"/v1\" is served by another route"}},
		{"duplicate upstream", "rules: r\npolicies: p\nupstreams:\n  - {name: u, base_url: 'http://x'}\n  - {name: u, base_url: 'http://x'}\nroutes:\n  - {name: a, upstream: u}\n", nil, []string{"weir.yaml:5: config_invalid: upstream \"u\" is defined twice"}},
		{"upstream without name", "rules: r\npolicies: p\nupstreams:\n  - {base_url: 'http://x'}\nroutes:\n  - {name: a, upstream: u}\n", nil, []string{"upstreams[0].name is required"}},
		{"bad base_url", "rules: r\npolicies: p\nupstreams:\n  - {name: u, base_url: 'ftp://x'}\nroutes:\n  - {name: a, upstream: u}\n", nil, []string{"weir.yaml:4: config_invalid: upstream \"u\": base_url must be an absolute http or https URL"}},
		{"missing base_url", "rules: r\npolicies: p\nupstreams:\n  - {name: u}\nroutes:\n  - {name: a, upstream: u}\n", nil, []string{"base_url is required"}},
		{"negative limit", base("  - {name: a, upstream: llm, auth: none}\n") + "limits: {max_body_bytes: -1}\n", nil, []string{"limits must not be negative"}},
		{"bad audit on_error", base("  - {name: a, upstream: llm, auth: none}\n") + "audit: {on_error: ignore}\n", nil, []string{"audit.on_error must be fail_closed or log"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parse("weir.yaml", "/x/weir.yaml", []byte(tc.src), env(tc.env))
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			rest := msg
			for _, w := range tc.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("error %q does not contain %q (in order)", msg, w)
				}
				rest = rest[i+len(w):]
			}
			for _, v := range tc.env {
				if strings.Contains(msg, v) {
					t.Errorf("error %q leaks an expanded value", msg)
				}
			}
		})
	}
}

func TestExpand(t *testing.T) {
	e := env(map[string]string{"A": "1", "EMPTY": ""})
	tests := []struct{ in, want string }{
		{"${A}", "1"},
		{"x${A}y${A}", "x1y1"},
		{"${B:-def}", "def"},
		{"${EMPTY:-def}", "def"},
		{"${EMPTY}", ""},
		{"$$HOME", "$HOME"},
		{"$A", "$A"},
		{"cost $", "cost $"},
		{"${B:-http://h:1/v1}", "http://h:1/v1"},
	}
	for _, tc := range tests {
		got, _, msg := expand(tc.in, e)
		if msg != "" || got != tc.want {
			t.Errorf("expand(%q) = %q, %q; want %q", tc.in, got, msg, tc.want)
		}
	}
}

func TestLoadFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "weir.yaml")
	if err := os.WriteFile(p, []byte(valid), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.File != p || cfg.Rules != filepath.Join(dir, "rules") {
		t.Errorf("File %q Rules %q", cfg.File, cfg.Rules)
	}
	if _, err := Load(filepath.Join(dir, "missing.yaml")); err == nil || !strings.Contains(err.Error(), CodeRead) {
		t.Errorf("missing file: %v", err)
	}
}
