package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const clinicalConfig = "../../examples/clinical/weir.yaml"

func TestDocsSearch(t *testing.T) {
	code, out, errOut := runCLI(t, "", "docs", "search", "--config", clinicalConfig, "Within how many hours must an SAE be reported?")
	if code != 0 {
		t.Fatalf("code %d: %s", code, errOut)
	}
	for _, want := range []string{"pdf (tool search_protocol)", "1. protocol.pdf p. 6", "8.7 Reporting of serious adverse events",
		"Without a model, the answer quotes:\nFrom protocol.pdf p. 6:", "within 24 hours"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	code, out, _ = runCLI(t, "", "docs", "search", "--config", clinicalConfig, "--json", "--limit", "2", "primary endpoint")
	var res struct {
		Source   string `json:"source"`
		Passages []struct {
			File string `json:"file"`
			Page int    `json:"page"`
		} `json:"passages"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != 0 || res.Source != "pdf" || len(res.Passages) != 2 || res.Passages[0].File != "docs/protocol.pdf" {
		t.Errorf("json: %d %v %s", code, err, out)
	}
}

func TestDocsIndex(t *testing.T) {
	code, out, errOut := runCLI(t, "", "docs", "index", "--config", clinicalConfig)
	if code != 0 || !strings.Contains(out, "docs/protocol.pdf (pdf, 8 pages)") || !strings.Contains(out, "docs/sap.md (markdown)") {
		t.Errorf("%d %s %s", code, out, errOut)
	}
}

func TestDocsErrors(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "weir.yaml")
	os.WriteFile(cfg, []byte("rules: r\npolicies: p\nroutes:\n  - {name: q, surface: query, auth: none}\ndocuments:\n  - {name: d, paths: [missing.pdf]}\n"), 0o644)
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"docs"}, 2, "usage: weir docs index"},
		{[]string{"docs", "search", "--config", cfg}, 2, "usage"},
		{[]string{"docs", "search", "--config", cfg, "--source", "nope", "q"}, 2, `no document source "nope"`},
		{[]string{"docs", "search", "--config", cfg, "q"}, 1, filepath.Join(dir, "missing.pdf") + ": no such file"},
		{[]string{"docs", "frob"}, 2, `unknown subcommand "frob"`},
	}
	for _, tc := range tests {
		code, _, errOut := runCLI(t, "", tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: %d %q, want %d and %q", tc.args, code, errOut, tc.code, tc.want)
		}
	}
}
