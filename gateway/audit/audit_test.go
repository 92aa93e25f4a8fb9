package audit

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func record(i int) *Record {
	return &Record{
		Time:       time.Date(2026, 1, 1, 0, 0, i, 0, time.UTC),
		DecisionID: fmt.Sprintf("d%d", i), Surface: "openai", Route: "chat",
		Intent: "analytics", Confidence: 0.9, Source: "rules", Rules: []string{"r1"},
		ToolCalls:  []ToolCall{{Name: "filter_data", Allowed: i%2 == 0, Reason: "x"}},
		Violations: []Violation{}, Outcome: OutcomeAllowed, Status: 200,
		LatencyUS: map[string]int64{"classify": 12, "admit": 30},
	}
}

func writeTrail(t *testing.T, n int) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "audit.jsonl")
	w, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= n; i++ {
		if err := w.Write(record(i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return p
}

func lines(t *testing.T, p string) []string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return strings.SplitAfter(strings.TrimSuffix(string(b), "\n"), "\n")
}

func verifyString(t *testing.T, s string) (int, *Break) {
	t.Helper()
	n, brk, err := Verify(strings.NewReader(s))
	if err != nil {
		t.Fatal(err)
	}
	return n, brk
}

func TestVerifyIntact(t *testing.T) {
	p := writeTrail(t, 5)
	n, brk := verifyString(t, strings.Join(lines(t, p), ""))
	if n != 5 || brk != nil {
		t.Fatalf("Verify = %d, %v", n, brk)
	}
	if n, brk := verifyString(t, ""); n != 0 || brk != nil {
		t.Fatalf("empty trail: %d %v", n, brk)
	}
}

func TestVerifyDetects(t *testing.T) {
	tests := []struct {
		name     string
		edit     func(ls []string) []string
		wantLine int
		wantSeq  uint64
		reason   string
	}{
		{"tampered field", func(ls []string) []string {
			ls[2] = strings.Replace(ls[2], `"outcome":"allowed"`, `"outcome":"blocked"`, 1)
			return ls
		}, 3, 3, "record altered"},
		{"tampered number", func(ls []string) []string {
			ls[1] = strings.Replace(ls[1], `"confidence":0.9`, `"confidence":0.1`, 1)
			return ls
		}, 2, 2, "record altered"},
		{"deleted middle line", func(ls []string) []string {
			return append(ls[:2:2], ls[3:]...)
		}, 3, 4, "expected seq 3 after seq 2"},
		{"deleted first line", func(ls []string) []string { return ls[1:] }, 1, 2, "records 1..1 are missing"},
		{"reordered", func(ls []string) []string {
			ls[1], ls[2] = ls[2], ls[1]
			return ls
		}, 2, 3, "missing or out of order"},
		{"truncated last line", func(ls []string) []string {
			ls[4] = ls[4][:len(ls[4])/2]
			return ls
		}, 5, 0, "truncated record"},
		{"not json", func(ls []string) []string {
			ls[0] = "hello\n"
			return ls
		}, 1, 0, "not a JSON record"},
		{"replaced record with valid hash", func(ls []string) []string {
			r := record(99)
			line, _ := seal(r, 3, "forged")
			ls[2] = string(line)
			return ls
		}, 3, 3, "chain broken"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ls := tc.edit(lines(t, writeTrail(t, 5)))
			n, brk := verifyString(t, strings.Join(ls, ""))
			if brk == nil {
				t.Fatalf("no break found, %d records", n)
			}
			if brk.Line != tc.wantLine || brk.Seq != tc.wantSeq || !strings.Contains(brk.Reason, tc.reason) {
				t.Fatalf("break = %v; want line %d seq %d %q", brk, tc.wantLine, tc.wantSeq, tc.reason)
			}
			if n != tc.wantLine-1 {
				t.Errorf("intact records = %d, want %d", n, tc.wantLine-1)
			}
		})
	}
}

func TestResumeAfterRestart(t *testing.T) {
	p := writeTrail(t, 3)
	w, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	r := record(4)
	if err := w.Write(r); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if r.Seq != 4 {
		t.Errorf("resumed seq = %d, want 4", r.Seq)
	}
	f, _ := os.Open(p)
	defer f.Close()
	if n, brk, err := Verify(f); n != 4 || brk != nil || err != nil {
		t.Fatalf("Verify after resume = %d, %v, %v", n, brk, err)
	}
}

func TestResumeAfterTruncatedLine(t *testing.T) {
	p := writeTrail(t, 3)
	b, _ := os.ReadFile(p)
	os.WriteFile(p, b[:len(b)-20], 0o600) // crash in the middle of record 3
	w, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	r := record(4)
	if err := w.Write(r); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if r.Seq != 3 {
		t.Errorf("seq after a cut record = %d, want 3 (continuing from record 2)", r.Seq)
	}
	f, _ := os.Open(p)
	defer f.Close()
	_, brk, _ := Verify(f)
	if brk == nil || brk.Line != 3 {
		t.Fatalf("the cut line must be reported: %v", brk)
	}
}

func TestResumeLargeFile(t *testing.T) {
	// Records larger than the first 64 KiB read-back chunk.
	p := filepath.Join(t.TempDir(), "a.jsonl")
	w, _ := Open(p)
	for i := 1; i <= 3; i++ {
		r := record(i)
		r.Content = &Content{Answer: strings.Repeat("x", 100<<10)}
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	w, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	r := record(4)
	w.Write(r)
	w.Close()
	f, _ := os.Open(p)
	defer f.Close()
	if n, brk, _ := Verify(f); n != 4 || brk != nil {
		t.Fatalf("Verify = %d %v", n, brk)
	}
}

func TestConcurrentWriters(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				if err := w.Write(record(i)); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	if n, brk, _ := Verify(&buf); n != 400 || brk != nil {
		t.Fatalf("Verify = %d %v", n, brk)
	}
}

type failing struct{}

func (failing) Write([]byte) (int, error) { return 0, fmt.Errorf("disk full") }

func TestWriteErrorReturned(t *testing.T) {
	w := NewWriter(failing{})
	if err := w.Write(record(1)); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("err = %v", err)
	}
	var buf bytes.Buffer
	w.w = &buf
	r := record(2)
	if err := w.Write(r); err != nil || r.Seq != 1 {
		t.Fatalf("chain advanced on a failed write: seq %d, err %v", r.Seq, err)
	}
}

func TestSummary(t *testing.T) {
	p := writeTrail(t, 6)
	f, _ := os.Open(p)
	defer f.Close()
	s, err := Summarize(f, time.Date(2026, 1, 1, 0, 0, 3, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	if s.Records != 4 || s.Tools["filter_data"] != 4 || s.BlockedTools["filter_data"] != 2 || s.Intents["analytics"] != 4 {
		t.Fatalf("summary = %+v", s)
	}
	var out bytes.Buffer
	s.WriteText(&out, 10)
	for _, want := range []string{"4 records", "outcome", "allowed", "top blocked tools", "filter_data"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("summary text lacks %q:\n%s", want, out.String())
		}
	}
}

func BenchmarkWrite(b *testing.B) {
	w := NewWriter(io.Discard)
	b.ReportAllocs()
	for b.Loop() {
		if err := w.Write(record(1)); err != nil {
			b.Fatal(err)
		}
	}
}
