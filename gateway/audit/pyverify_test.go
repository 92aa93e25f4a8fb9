package audit

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// readmeVerifier returns the Python verifier the README gives reviewers.
func readmeVerifier(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, block := range strings.Split(string(b), "```python\n")[1:] {
		code, _, _ := strings.Cut(block, "```")
		if strings.Contains(code, "def jcs(") {
			return code
		}
	}
	t.Fatal("README.md has no Python verifier block")
	return ""
}

// TestPythonVerifier runs the README's verifier on a trail with the strings and numbers
// JCS implementations disagree on most, over two files, then on tampered copies.
func TestPythonVerifier(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed: the README's verifier cannot be run here")
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "verify.py")
	if err := os.WriteFile(script, []byte(readmeVerifier(t)), 0o600); err != nil {
		t.Fatal(err)
	}
	var a, b bytes.Buffer
	w := NewWriter(&a)
	for i, r := range oddRecords() {
		if i == 4 {
			w.w = &b // the chain continues in the next file, as after a rotation
		}
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	files := []string{filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")}
	os.WriteFile(files[0], a.Bytes(), 0o600)
	os.WriteFile(files[1], b.Bytes(), 0o600)
	out, err := exec.Command(py, append([]string{script}, files...)...).CombinedOutput()
	if err != nil || !strings.Contains(string(out), fmt.Sprintf("%d records, chain intact", len(oddRecords()))) {
		t.Fatalf("python verifier: %v\n%s", err, out)
	}
	tampered := bytes.Replace(b.Bytes(), []byte(`"outcome":"allowed"`), []byte(`"outcome":"blocked"`), 1)
	os.WriteFile(files[1], tampered, 0o600)
	out, err = exec.Command(py, append([]string{script}, files...)...).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "seq 5") {
		t.Fatalf("python verifier accepted a tampered record: %v\n%s", err, out)
	}
}

// oddRecords are records whose canonical form exercises escaping, key order and numbers.
func oddRecords() []*Record {
	var out []*Record
	for i, conf := range []float64{0.9, 1, 1e-7, 1e21, 0.000001, 123456.789, 5e-324, -0.5} {
		r := record(i + 1)
		r.Confidence = conf
		r.Subject = Subject{ID: "<&> \u2028\u2029 è 😀 \x01\t\"\\", Roles: []string{"a/b"}}
		r.LatencyUS["é"], r.LatencyUS["\U0001F600"], r.LatencyUS["\ufb33"] = 1, 2, 3
		r.Content = &Content{Prompt: "quanto è il fatturato? <script>", Choices: []Choice{{Index: 0, Content: "x\x7fy"}}}
		r.ToolCalls[0].Arguments = []byte(`{"b":[1,2.50,1e3,-0.0],"a":"\u00e8","big":12345678901234567890}`)
		out = append(out, r)
	}
	return out
}
