package config

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fuzzSecret is the value of every environment variable the fuzzed configs may expand.
const fuzzSecret = "sk-fuzz-SECRET-7f3a"

// FuzzParse feeds arbitrary bytes to the config loader: it must return a config or a
// non-empty ErrorList whose entries carry a code and the file name, never panic; no error
// may show an expanded value; and a config that loads is one the gateway can serve (routes
// with a known surface, an upstream and a path, positive limits).
func FuzzParse(f *testing.F) {
	examples, _ := filepath.Glob("../../examples/*/weir.yaml")
	for _, p := range examples {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	for _, s := range []string{
		"rules: r\npolicies: p\nupstreams:\n  - {name: llm, base_url: '${URL:-http://127.0.0.1:8081/v1}', api_key: '${KEY}', timeout: 2s, max_conns: ${CONNS:-8}}\n" +
			"routes:\n  - {name: chat, upstream: llm, intent_modes: {strategy: monitor}}\n  - {name: d, surface: data, path: /api, upstream: llm, param: q}\n" +
			"limits: {max_body_bytes: 1024, max_header_bytes: 2048}\naudit: {path: a.jsonl, include_content: true, on_error: log}\n",
		"listen: ${KEY}\nadmin_listen: '${KEY}:1'\nrules: r\npolicies: p\nupstreams:\n  - {name: u, base_url: '${KEY}'}\nroutes:\n  - {name: a, upstream: u, mode: '${KEY}', path: '${KEY}'}\n",
		"rules: r\npolicies: p\nupstreams:\n  - {name: u, base_url: 'http://x'}\nroutes:\n  - {name: a, upstream: u}\n" +
			"fallback:\n  llm: {provider: openai, base_url: 'http://127.0.0.1:1/v1', model: m, api_key_env: KEY}\n  timeout: ${KEY}\n",
		"a: &x {b: ${KEY}}\nrules: *x\n",
		"rules: [\n",
		"limits: {max_body_bytes: '${KEY}'}\n",
		"\xff\xfe: ${",
		"rules: r\npolicies: p\nroutes: [{name: a, upstream: u}, {name: a, upstream: u}]\nupstreams: [{name: u, base_url: 'http://x', timeout: -1s}]\n",
	} {
		f.Add([]byte(s))
	}
	env := func(string) (string, bool) { return fuzzSecret, true }
	f.Fuzz(func(t *testing.T, src []byte) {
		cfg, err := parse("weir.yaml", "/etc/weir/weir.yaml", src, env)
		if err != nil {
			var list ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("want a non-empty ErrorList, got %T %v", err, err)
			}
			for _, e := range list {
				if e.Code == "" || e.File != "weir.yaml" {
					t.Fatalf("error without code or file: %+v", e)
				}
			}
			if !bytes.Contains(src, []byte(fuzzSecret)) && strings.Contains(err.Error(), fuzzSecret) {
				t.Fatalf("an error shows an expanded value: %v", err)
			}
			return
		}
		if len(cfg.Routes) == 0 || cfg.Limits.MaxBodyBytes <= 0 || cfg.Limits.MaxHeaderBytes <= 0 {
			t.Fatalf("a config that loads cannot serve: %+v", cfg)
		}
		ups := map[string]bool{}
		for _, u := range cfg.Upstreams {
			ups[u.Name] = true
		}
		for _, r := range cfg.Routes {
			if !ups[r.Upstream] || !strings.HasPrefix(r.Path, "/") || !validMode(r.Mode) {
				t.Fatalf("route %+v loads but cannot serve", r)
			}
		}
		_ = cfg.Dump()
	})
}
