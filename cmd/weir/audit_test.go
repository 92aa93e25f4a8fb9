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
	if code := run([]string{"audit", "verify", p}, nil, &out, &errb); code != 0 || out.String() != "3 records, chain intact\n" {
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
}
