package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckCalibrate: --calibrate with an extra set prints the full report; a pack that
// declares its sets gets the summary from a plain check; a bad set fails the check with
// its file:line.
func TestCheckCalibrate(t *testing.T) {
	dir := t.TempDir()
	set := filepath.Join(dir, "fresh.jsonl")
	lines := `{"query": "show critical findings in hotels", "intent": "simple"}
{"query": "what trends do you see?", "intent": "complex"}
`
	if err := os.WriteFile(set, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runCLI(t, "", "check", "--rules", miniPack, "--calibrate", "--set", set)
	if code != 0 || !strings.Contains(out, "calibration mini: 2 held questions (fresh 2)") || !strings.Contains(out, "intent (held)") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	code, out, _ = runCLI(t, "", "check", "--rules", miniPack)
	if code != 0 || strings.Contains(out, "calibration") {
		t.Errorf("a pack without sets: no calibration unless asked; exit %d:\n%s", code, out)
	}

	pack := t.TempDir()
	copyDir(t, miniPack, pack)
	decl := "pack:\n  name: mini\n  description: x\n  default: {intent: complex, confidence: 0.5}\n  test_clock: \"2025-06-15\"\n  calibration: {sets: [" + set + "]}\n"
	data, err := os.ReadFile(filepath.Join(pack, "pack.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	rest := string(data)[strings.Index(string(data), "intents:"):]
	if err := os.WriteFile(filepath.Join(pack, "pack.yaml"), []byte(decl+"\n"+rest), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ = runCLI(t, "", "check", "--rules", pack)
	if code != 0 || !strings.Contains(out, "calibration mini: 2 held questions") || strings.Contains(out, "intent (held)") {
		t.Errorf("declared sets: summary only; exit %d:\n%s", code, out)
	}

	if err := os.WriteFile(set, []byte(lines+"{\"query\": \"x\"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ = runCLI(t, "", "check", "--rules", pack)
	if code != 1 || !strings.Contains(out, "fresh.jsonl:3: set_invalid") {
		t.Errorf("bad set: exit %d:\n%s", code, out)
	}
}
