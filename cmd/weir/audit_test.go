package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/weirgw/weir/gateway/audit"
)

func writeAuditTrail(t *testing.T, n int) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "audit.jsonl")
	w, err := audit.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		r := &audit.Record{Time: time.Now(), DecisionID: "d", Surface: "openai", Route: "chat", Intent: "analytics",
			Outcome: audit.OutcomeBlocked, Violations: []audit.Violation{{Code: "tool_not_allowed"}},
			ToolCalls: []audit.ToolCall{{Name: "filter_data"}}}
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	return p
}

func TestAuditVerifyCommand(t *testing.T) {
	p := writeAuditTrail(t, 3)
	var out, errb bytes.Buffer
	if code := run([]string{"audit", "verify", p}, nil, &out, &errb); code != 0 || !strings.HasPrefix(out.String(), "3 records in 1 file(s), chain intact; format jcs") {
		t.Fatalf("intact: code %d out %q err %q", code, out.String(), errb.String())
	}
	b, _ := os.ReadFile(p)
	ls := strings.SplitAfter(string(b), "\n")
	os.WriteFile(p, []byte(ls[0]+ls[2]), 0o600)
	out.Reset()
	if code := run([]string{"audit", "verify", p}, nil, &out, &errb); code != 1 || !strings.Contains(out.String(), "line 2 (seq 3)") {
		t.Fatalf("broken: code %d out %q", code, out.String())
	}
	if code := run([]string{"audit", "verify"}, nil, &out, &errb); code != 2 {
		t.Fatalf("usage: code %d", code)
	}
}

func TestAuditSummaryCommand(t *testing.T) {
	p := writeAuditTrail(t, 2)
	var out, errb bytes.Buffer
	if code := run([]string{"audit", "summary", p, "--since", "1h"}, nil, &out, &errb); code != 0 {
		t.Fatalf("code %d: %s", code, errb.String())
	}
	for _, want := range []string{"2 records", "blocked", "tool_not_allowed", "filter_data"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, out.String())
		}
	}
	// Rotated files are summarised together, in the order given, flags anywhere.
	q := writeAuditTrail(t, 3)
	out.Reset()
	if code := run([]string{"audit", "summary", "--since", "1h", p, q, "--top", "2"}, nil, &out, &errb); code != 0 || !strings.Contains(out.String(), "5 records") {
		t.Errorf("two files: code %d\n%s%s", code, out.String(), errb.String())
	}
}

func TestAuditKeygenAndUsage(t *testing.T) {
	dir := t.TempDir()
	prefix := filepath.Join(dir, "k")
	var out, errb bytes.Buffer
	if code := run([]string{"audit", "keygen", "--out", prefix}, nil, &out, &errb); code != 0 {
		t.Fatalf("keygen: %d %s", code, errb.String())
	}
	if st, err := os.Stat(prefix + ".key"); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("private key: %v %v", st, err)
	}
	if _, err := audit.LoadPublicKey(prefix + ".pub"); err != nil {
		t.Fatal(err)
	}
	p := writeAuditTrail(t, 2)
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"keygen never overwrites", []string{"audit", "keygen", "--out", prefix}, 1, "file exists"},
		{"verify without files", []string{"audit", "verify"}, 2, "usage"},
		{"checkpoints without pubkey", []string{"audit", "verify", p, "--checkpoints", p}, 2, "usage"},
		{"pubkey that is a private key", []string{"audit", "verify", p, "--checkpoints", p, "--pubkey", prefix + ".key"}, 1, `k.key: a PEM "PRIVATE KEY" block, want "PUBLIC KEY"`},
		{"checkpoint file that is a trail", []string{"audit", "verify", p, "--checkpoints", p, "--pubkey", prefix + ".pub"}, 1, "audit.jsonl:1: not a checkpoint"},
		{"missing file", []string{"audit", "verify", filepath.Join(dir, "none.jsonl")}, 1, "none.jsonl: no such file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			if code := run(tc.args, nil, &out, &out); code != tc.code || !strings.Contains(out.String(), tc.want) {
				t.Fatalf("code %d %q; want %d %q", code, out.String(), tc.code, tc.want)
			}
		})
	}
}

func TestAuditReplayCommand(t *testing.T) {
	p := writeAuditTrail(t, 2)
	ex := "../../examples/analytics"
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"rules and policies", []string{"audit", "replay", p, "--rules", ex + "/rules", "--policies", ex + "/policies"}, 0, "2 exchanges replayed"},
		{"config, json", []string{"audit", "replay", "--config", ex + "/weir.yaml", p, "--json"}, 0, `"records": 2`},
		{"no candidate", []string{"audit", "replay", p}, 2, "usage"},
		{"both", []string{"audit", "replay", p, "--config", ex + "/weir.yaml", "--rules", "r", "--policies", "p"}, 2, "usage"},
		{"bad rules", []string{"audit", "replay", p, "--rules", "/nonexistent", "--policies", ex + "/policies"}, 1, "weir audit replay: rules:"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			if code := run(tc.args, nil, &out, &out); code != tc.code || !strings.Contains(out.String(), tc.want) {
				t.Fatalf("code %d %q; want %d %q", code, out.String(), tc.code, tc.want)
			}
		})
	}
}

// TestAuditVerifyLegacy: a trail written before the RFC 8785 chain still verifies, and
// verify says which format each part uses once the new writer continues it.
func TestAuditVerifyLegacy(t *testing.T) {
	b, err := os.ReadFile("../../gateway/audit/testdata/legacy.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "audit.jsonl")
	os.WriteFile(p, b, 0o600)
	var out bytes.Buffer
	if code := run([]string{"audit", "verify", p}, nil, &out, &out); code != 0 || !strings.Contains(out.String(), "chain intact; format legacy\n") {
		t.Fatalf("legacy: %d %s", code, out.String())
	}
	w, err := audit.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(&audit.Record{Time: time.Now(), DecisionID: "new", Surface: "openai", Route: "chat", Outcome: audit.OutcomeAllowed}); err != nil {
		t.Fatal(err)
	}
	w.Close()
	out.Reset()
	if code := run([]string{"audit", "verify", p}, nil, &out, &out); code != 0 || !strings.Contains(out.String(), "format legacy (seq 1..3), then jcs (seq 4..4)") {
		t.Fatalf("continued: %d %s", code, out.String())
	}
}
