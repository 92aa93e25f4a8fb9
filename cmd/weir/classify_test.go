package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const miniPack = "../../rules/testdata/mini"

func runCLI(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

// TestClassifyJSONL pins the stable line format: one output line per input line, in order,
// with exactly these keys; bad lines get an error line instead of being skipped.
func TestClassifyJSONL(t *testing.T) {
	in := `{"query": "show critical findings in hotels from 2024", "id": 7}
{"query": "good morning"}

not json
{"question": "no query field"}
{"query": "why do the trends keep rising?"}
`
	code, out, _ := runCLI(t, in, "classify", "--rules", miniPack, "--jsonl")
	if code != 1 {
		t.Errorf("exit code with bad lines: want 1, got %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 5 {
		t.Fatalf("want 5 output lines (blank input lines are not inputs), got %d:\n%s", len(lines), out)
	}
	wantIntent := []string{"simple", "complex", "", "", "complex"}
	wantSource := []string{"rules", "default", "", "", "rules"}
	for i, line := range lines {
		var got map[string]any
		if err := json.Unmarshal([]byte(line), &got); err != nil {
			t.Fatalf("line %d is not JSON: %v", i+1, err)
		}
		if wantIntent[i] == "" {
			if got["error"] == nil {
				t.Errorf("line %d: want an error, got %s", i+1, line)
			}
			continue
		}
		for _, k := range []string{"query", "intent", "confidence", "source", "rules", "filters"} {
			if _, ok := got[k]; !ok {
				t.Errorf("line %d lacks %q: %s", i+1, k, line)
			}
		}
		if got["intent"] != wantIntent[i] || got["source"] != wantSource[i] {
			t.Errorf("line %d: want %s/%s, got %s", i+1, wantIntent[i], wantSource[i], line)
		}
		if _, extra := got["id"]; extra {
			t.Errorf("line %d: input fields must not leak into the output: %s", i+1, line)
		}
	}
	if !strings.Contains(lines[0], `"filters":{"projectType":"Hotel","severity":["Critical"],"year":2024}`) {
		t.Errorf("filters: %s", lines[0])
	}
}

func TestClassifyHuman(t *testing.T) {
	code, out, _ := runCLI(t, "", "classify", "--rules", miniPack, "--clock", "2025-06-15", "--explain", "list", "urgent", "findings", "from", "last", "year")
	if code != 0 || !strings.Contains(out, "intent      simple") || !strings.Contains(out, `year = 2024  ← "last year"`) {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	code, out, _ = runCLI(t, "", "classify", "--rules", miniPack, "--json", "why?")
	var res map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil || res["reason"] == nil {
		t.Fatalf("--json: exit %d:\n%s", code, out)
	}
}

func TestClassifyUsageErrors(t *testing.T) {
	for _, args := range [][]string{{"classify"}, {"classify", "--rules", miniPack}, {"classify", "--bogus"}} {
		if code, _, _ := runCLI(t, "", args...); code != 2 {
			t.Errorf("%v: want exit 2, got %d", args, code)
		}
	}
	if code, _, _ := runCLI(t, "", "nosuchcommand"); code != 2 {
		t.Errorf("unknown command: want exit 2")
	}
	code, _, errOut := runCLI(t, "", "classify", "--rules", "/nonexistent", "hi")
	if code != 1 || !strings.Contains(errOut, "pack_unreadable") {
		t.Errorf("missing pack: exit %d, %s", code, errOut)
	}
}

func TestCheckRules(t *testing.T) {
	code, out, _ := runCLI(t, "", "check", "--rules", miniPack)
	if code != 0 || !strings.Contains(out, "8 tests: 8 passed, 0 failed") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	// A broken pack: exit 1 and file:line messages.
	dir := t.TempDir()
	copyDir(t, miniPack, dir)
	broken := "rules:\n  - id: extra\n    intent: nosuch\n    pattern: '(('\n"
	if err := os.WriteFile(filepath.Join(dir, "zz.yaml"), []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ = runCLI(t, "", "check", "--rules", dir)
	for _, want := range []string{"zz.yaml:3: rule_unknown_intent", "zz.yaml:4: rule_regex_invalid"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	if code != 1 {
		t.Errorf("broken pack: want exit 1, got %d", code)
	}
	// A failing inline test: exit 1 with the test's file:line.
	dir = t.TempDir()
	copyDir(t, miniPack, dir)
	failing := "tests:\n  - query: show critical findings\n    intent: complex\n"
	if err := os.WriteFile(filepath.Join(dir, "zz.yaml"), []byte(failing), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ = runCLI(t, "", "check", "--rules", dir)
	if code != 1 || !strings.Contains(out, "zz.yaml:2: test_failed") {
		t.Errorf("failing test: exit %d:\n%s", code, out)
	}
}

func copyDir(t *testing.T, from, to string) {
	t.Helper()
	entries, err := os.ReadDir(from)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(to, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestClassifyToolsAndRationale: seed 001's QueryClassification — the intent's primary and
// fallback tools and a rationale — in --json, --jsonl and the human form.
func TestClassifyToolsAndRationale(t *testing.T) {
	const pack = "../../examples/codesearch/rules"
	q := "How does UserModel handle password hashing?"
	code, out, _ := runCLI(t, "", "classify", "--rules", pack, "--json", q)
	var res struct {
		Intent        string   `json:"intent"`
		PrimaryTool   string   `json:"primary_tool"`
		FallbackTools []string `json:"fallback_tools"`
		Rationale     string   `json:"rationale"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	if res.Intent != "hybrid" || res.PrimaryTool != "lsp_goto_definition" || len(res.FallbackTools) == 0 || !strings.Contains(res.Rationale, "component") {
		t.Errorf("--json: %+v", res)
	}
	code, out, _ = runCLI(t, `{"query": "Find authenticate()"}`+"\n", "classify", "--rules", pack, "--jsonl")
	if code != 0 || !strings.Contains(out, `"primary_tool":"grep_search","fallback_tools":["lsp_workspace_symbols","lsp_find_references"],"rationale":"`) {
		t.Errorf("--jsonl: exit %d: %s", code, out)
	}
	code, out, _ = runCLI(t, "", "classify", "--rules", pack, q)
	if code != 0 || !strings.Contains(out, "tools       lsp_goto_definition (fallback: ") || !strings.Contains(out, "rationale   ") {
		t.Errorf("human: exit %d:\n%s", code, out)
	}
}
