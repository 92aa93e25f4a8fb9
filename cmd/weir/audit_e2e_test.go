package main

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/weirgw/weir/gateway/audit"
)

// serveTrail runs `weir serve` with rotation, checkpoints every 3 records and content
// recorded, sends n chat requests with odd prompts (the upstream is down: each is an
// error decision with its record), stops it, and returns the trail's files, the
// checkpoint file and the public key.
func serveTrail(t *testing.T, n int) (files []string, cpFile, pubFile string) {
	t.Helper()
	dir := t.TempDir()
	if code := run([]string{"audit", "keygen", "--out", filepath.Join(dir, "k")}, nil, &bytes.Buffer{}, &bytes.Buffer{}); code != 0 {
		t.Fatal("keygen failed")
	}
	examples, _ := filepath.Abs("../../examples/analytics")
	listen, admin := freeAddr(t), freeAddr(t)
	cfg := fmt.Sprintf(`listen: %s
admin_listen: %s
rules: %s/rules
policies: %s/policies
upstreams: [{name: llm, base_url: "http://127.0.0.1:1/v1", connect_timeout: 1s}]
routes: [{name: chat, surface: openai, path: /v1, upstream: llm, auth: none}]
audit:
  path: audit.jsonl
  include_content: true
  rotate: {max_bytes: 4000}
  checkpoint: {path: cp.jsonl, every: 3, key_file: k.key}
`, listen, admin, examples, examples)
	cfgPath := filepath.Join(dir, "weir.yaml")
	os.WriteFile(cfgPath, []byte(cfg), 0o600)
	var stderr lockedBuffer
	done := make(chan int, 1)
	go func() {
		done <- run([]string{"serve", "--config", cfgPath, "--grace", "2s"}, nil, &bytes.Buffer{}, &stderr)
	}()
	waitReady(t, admin, done, &stderr)
	for i := range n {
		body := fmt.Sprintf(`{"model":"m","messages":[{"role":"user","content":"Qual è il fatturato %d? <b>&amp;</b> 😀 \u2028 \"q\""}]}`, i)
		resp, err := http.Post("http://"+listen+"/v1/chat/completions", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	syscall.Kill(os.Getpid(), syscall.SIGTERM)
	if code := <-done; code != 0 {
		t.Fatalf("serve exited with %d: %s", code, stderr.String())
	}
	files, err := audit.Files(filepath.Join(dir, "audit.jsonl"))
	if err != nil || len(files) < 2 {
		t.Fatalf("trail files %v %v: want rotated files", files, err)
	}
	return files, filepath.Join(dir, "cp.jsonl"), filepath.Join(dir, "k.pub")
}

func waitReady(t *testing.T, admin string, done chan int, stderr *lockedBuffer) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if resp, err := http.Get("http://" + admin + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return
			}
		}
		select {
		case code := <-done:
			t.Fatalf("serve exited with %d: %s", code, stderr.String())
		default:
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("not ready: %s", stderr.String())
}

func verifyCmd(files []string, extra ...string) (int, string) {
	var out bytes.Buffer
	code := run(append(append([]string{"audit", "verify"}, files...), extra...), nil, &out, &out)
	return code, out.String()
}

// TestServeTrailVerifies is issue 14's "done when": the README's Python verifies a trail
// written by weir serve; changing any byte of any record, or removing records at the end,
// makes weir audit verify fail naming the first bad seq.
func TestServeTrailVerifies(t *testing.T) {
	const n = 8
	files, cpFile, pubFile := serveTrail(t, n)
	cp := []string{"--checkpoints", cpFile, "--pubkey", pubFile}
	if code, out := verifyCmd(files, cp...); code != 0 || !strings.Contains(out, fmt.Sprintf("%d records in %d file(s), chain intact; format jcs", n, len(files))) {
		t.Fatalf("verify: %d %s", code, out)
	}
	if code, out := verifyCmd(files); code != 0 || !strings.Contains(out, "cannot be detected") {
		t.Fatalf("verify without checkpoints: %d %s", code, out)
	}
	runReadmeVerifier(t, files)

	all := readAll(t, files)
	for seq := 1; seq <= n; seq++ {
		t.Run(fmt.Sprintf("byte changed in seq %d", seq), func(t *testing.T) {
			lines := splitLines(all)
			lines[seq-1] = strings.Replace(lines[seq-1], "fatturato", "fatturatO", 1)
			code, out := verifyCmd(writeLines(t, lines), cp...)
			if code != 1 || !strings.Contains(out, fmt.Sprintf("(seq %d): record altered", seq)) {
				t.Fatalf("%d %s", code, out)
			}
		})
	}
	for _, cut := range []int{1, 2, 5} {
		t.Run(fmt.Sprintf("last %d removed", cut), func(t *testing.T) {
			lines := splitLines(all)
			trimmed := writeLines(t, lines[:n-cut])
			code, out := verifyCmd(trimmed, cp...)
			want := fmt.Sprintf("(seq %d): the trail ends at seq %d", n-cut+1, n-cut)
			if code != 1 || !strings.Contains(out, want) {
				t.Fatalf("%d %s; want %q", code, out, want)
			}
			if code, _ := verifyCmd(trimmed); code != 0 {
				t.Fatal("without checkpoints a cut tail is undetectable, and verify says so")
			}
		})
	}
}

func runReadmeVerifier(t *testing.T, files []string) {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Log("python3 is not installed: the README's verifier is not run")
		return
	}
	readme, _ := os.ReadFile("../../README.md")
	var code string
	for _, block := range strings.Split(string(readme), "```python\n")[1:] {
		if c, _, _ := strings.Cut(block, "```"); strings.Contains(c, "def jcs(") {
			code = c
		}
	}
	script := filepath.Join(t.TempDir(), "verify.py")
	os.WriteFile(script, []byte(code), 0o600)
	out, err := exec.Command(py, append([]string{script}, files...)...).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "records, chain intact") {
		t.Fatalf("the README's Python verifier: %v\n%s", err, out)
	}
}

func readAll(t *testing.T, files []string) string {
	var b strings.Builder
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(data)
	}
	return b.String()
}

// splitLines splits a trail into its lines, newlines kept.
func splitLines(s string) []string {
	lines := strings.SplitAfter(s, "\n")
	return lines[:len(lines)-1]
}

func writeLines(t *testing.T, lines []string) []string {
	p := filepath.Join(t.TempDir(), "trail.jsonl")
	os.WriteFile(p, []byte(strings.Join(lines, "")), 0o600)
	return []string{p}
}
