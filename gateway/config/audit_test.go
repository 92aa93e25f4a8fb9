package config

import (
	"strings"
	"testing"
	"time"
)

const auditBase = "rules: r\npolicies: p\nupstreams:\n  - {name: llm, base_url: 'http://x/v1'}\nroutes:\n  - {name: a, upstream: llm, auth: none}\n"

func TestAuditSections(t *testing.T) {
	src := auditBase + `audit:
  path: trail/audit.jsonl
  rotate: {max_bytes: 1000000, max_age: 24h}
  checkpoint: {path: cp.jsonl, key_file: keys/audit.key}
  http: {url: "https://collector/audit", headers: {Authorization: "Bearer ${T}"}}
  ui: {token: "${WEIR_ADMIN_TOKEN}"}
`
	cfg, err := parse("weir.yaml", "/etc/weir/weir.yaml", []byte(src), env(map[string]string{"T": "secret-token", "WEIR_ADMIN_TOKEN": "0123456789abcdef"}))
	if err != nil {
		t.Fatal(err)
	}
	a := cfg.Audit
	if a.Rotate.MaxBytes != 1000000 || a.Rotate.MaxAge.Std() != 24*time.Hour {
		t.Errorf("rotate = %+v", a.Rotate)
	}
	cp := a.Checkpoint
	if cp.Path != "/etc/weir/cp.jsonl" || cp.KeyFile != "/etc/weir/keys/audit.key" || cp.Every != DefaultCheckpointEvery || cp.Interval.Std() != DefaultCheckpointInterval {
		t.Errorf("checkpoint = %+v", cp)
	}
	h := a.HTTP
	if h.OnError != OnErrorSpool || h.Spool != "/etc/weir/trail/audit.jsonl.spool" || h.Headers["Authorization"] != "Bearer secret-token" {
		t.Errorf("http = %+v", h)
	}
	if a.UI.Token != "0123456789abcdef" {
		t.Errorf("ui token = %q", a.UI.Token)
	}
	if d := cfg.Dump(); strings.Contains(d, "secret-token") || strings.Contains(d, "0123456789abcdef") {
		t.Errorf("Dump leaks a token:\n%s", d)
	}
}

func TestAuditErrors(t *testing.T) {
	tests := []struct{ name, audit, want string }{
		{"on_error", "audit: {on_error: ignore}\n", "weir.yaml:7: config_invalid: audit.on_error must be fail_closed or log"},
		{"checkpoint without key", "audit:\n  checkpoint: {path: cp}\n", "weir.yaml:8: config_invalid: audit.checkpoint.key_file is required"},
		{"checkpoint without path", "audit:\n  checkpoint: {key_file: k}\n", "weir.yaml:8: config_invalid: audit.checkpoint.path is required"},
		{"negative every", "audit:\n  checkpoint: {path: c, key_file: k, every: -1}\n", "audit.checkpoint.every must not be negative"},
		{"bad interval", "audit:\n  checkpoint: {path: c, key_file: k, interval: often}\n", "weir.yaml:8: config_type_error"},
		{"negative rotate", "audit:\n  rotate: {max_bytes: -5}\n", "weir.yaml:8: config_invalid: audit.rotate.max_bytes must not be negative"},
		{"http url", "audit:\n  path: a.jsonl\n  http: {url: 'ftp://x'}\n", "weir.yaml:9: config_invalid: audit.http.url must be an absolute http or https URL"},
		{"http on_error", "audit:\n  path: a.jsonl\n  http: {url: 'http://x', on_error: drop}\n", "audit.http.on_error must be spool or fail_closed"},
		{"spool with stdout", "audit:\n  http: {url: 'http://x'}\n", "weir.yaml:8: config_invalid: audit.http.spool is required when audit.path is stdout"},
		{"fail_closed sink with log", "audit:\n  on_error: log\n  path: a\n  http: {url: 'http://x', on_error: fail_closed}\n", "it needs audit.on_error: fail_closed"},
		{"short ui token", "audit:\n  ui: {token: short}\n", "weir.yaml:8: config_invalid: audit.ui.token must have at least 16 characters"},
		{"unknown key", "audit:\n  checkpoint: {path: c, key_file: k, evrey: 3}\n", "weir.yaml:8: config_unknown_key: unknown key \"evrey\" in audit.checkpoint"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parse("weir.yaml", "/x/weir.yaml", []byte(auditBase+tc.audit), env(nil))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v\nwant %q", err, tc.want)
			}
		})
	}
}
