package policies

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoad(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name string
		dir  string
		want []string // substrings of the error, each "file:line: code" or a code; empty: loads
	}{
		{"good", "../examples/analytics/policies", nil},
		{"parse errors of every file, with file:line", "testdata/parse_error", []string{
			"testdata/parse_error/other.rego:5:1: rego_parse_error", "testdata/parse_error/policy.rego:6: rego_parse_error",
		}},
		{"compile error", "testdata/compile_error", []string{"testdata/compile_error/policy.rego:5:2: rego_compile_error: undefined function undefined_helper"}},
		{"data invalid, every problem", "testdata/data_invalid", []string{
			"data.yaml:4:24: data_invalid: intents.analytics.require_tool_call must be true or false",
			"data.yaml:5:5: data_invalid: unknown key intents.analytics.block_numbers",
			"data.yaml:7:23: data_invalid: limits.max_argument_bytes must be a positive integer",
			"data.yaml:8:1: data_invalid: key \"request\" is reserved",
			"data.yaml:11:14: data_invalid: grounding.names.revenue must be a list of strings",
			"data.yaml:12:3: data_invalid: unknown key grounding.synonyms (known: names)",
		}},
		{"library off without the decisions", "testdata/library_off_missing", []string{
			"rego_compile_error: no rule defines data.weir.tools.decision", "no rule defines data.weir.response.decision",
		}},
		{"missing directory", "testdata/nope", []string{"bundle_read_error"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := Load(ctx, tc.dir)
			if tc.want == nil {
				if err != nil {
					t.Fatalf("Load: %v", err)
				}
				if len(b.Revision()) != 16 {
					t.Errorf("Revision() = %q, want 16 hex digits", b.Revision())
				}
				return
			}
			if err == nil {
				t.Fatal("Load succeeded, want an error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q:\n%v", w, err)
				}
			}
			if len(Errors(err)) < len(tc.want) {
				t.Errorf("got %d errors, want all %d reported together", len(Errors(err)), len(tc.want))
			}
		})
	}
}

func TestLoadEmptyAndDataOnly(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	if _, err := Load(ctx, dir); Code(err) != CodeBundleEmpty {
		t.Fatalf("empty dir: got %v, want %s", err, CodeBundleEmpty)
	}
	write(t, dir, "data.json", `{"intents": {"a": {"allowed_tools": ["t"]}}, "limits": {"max_argument_bytes": 10}}`)
	b, err := Load(ctx, dir)
	if err != nil {
		t.Fatalf("data.json only: %v", err)
	}
	if b.MaxArgumentBytes() != 10 || len(b.Intents()["a"].AllowedTools) != 1 {
		t.Errorf("data.json not read: limit %d, intents %v", b.MaxArgumentBytes(), b.Intents())
	}
	write(t, dir, "data.yaml", "intents: {}\n")
	if _, err := Load(ctx, dir); Code(err) != CodeDataInvalid {
		t.Errorf("two data files: got %v, want %s", err, CodeDataInvalid)
	}
}

func TestRevisionIsContentHash(t *testing.T) {
	ctx := context.Background()
	a, b := t.TempDir(), t.TempDir()
	for _, d := range []string{a, b} {
		write(t, d, "data.yaml", "intents: {x: {}}\n")
	}
	ba, err1 := Load(ctx, a)
	bb, err2 := Load(ctx, b)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	if ba.Revision() != bb.Revision() {
		t.Errorf("same content, different revisions: %s %s", ba.Revision(), bb.Revision())
	}
	write(t, b, "data.yaml", "intents: {y: {}}\n")
	if bc, _ := Load(ctx, b); bc.Revision() == ba.Revision() {
		t.Error("changed content, same revision")
	}
}

func write(t *testing.T, dir, name, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
