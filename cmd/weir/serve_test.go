package main

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestServeRunsAndStops starts `weir serve` on an example config with the flags that
// override listeners and the audit path, waits until it is ready, and stops it with SIGTERM.
func TestServeRunsAndStops(t *testing.T) {
	listen, admin := freeAddr(t), freeAddr(t)
	auditPath := filepath.Join(t.TempDir(), "audit.jsonl")
	var stderr lockedBuffer
	done := make(chan int, 1)
	go func() {
		done <- run([]string{"serve", "--config", "../../examples/analytics/weir.yaml",
			"--listen", listen, "--admin-listen", admin, "--audit", auditPath, "--grace", "2s"}, nil, &bytes.Buffer{}, &stderr)
	}()
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get("http://" + admin + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				break
			}
		}
		select {
		case code := <-done:
			t.Fatalf("serve exited with %d: %s", code, stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("not ready: %s", stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	resp, err := http.Post("http://"+listen+"/v1/chat/completions", "application/json", strings.NewReader("{"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 400 {
		t.Errorf("malformed request: status %d", resp.StatusCode)
	}
	syscall.Kill(os.Getpid(), syscall.SIGTERM)
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("exit code %d: %s", code, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop on SIGTERM")
	}
	var out bytes.Buffer
	if code := run([]string{"audit", "verify", auditPath}, nil, &out, &out); code != 0 || !strings.HasPrefix(out.String(), "1 records in 1 file(s), chain intact") {
		t.Errorf("audit verify: %d %q", code, out.String())
	}
}

func TestServeUsageAndConfigErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "weir.yaml")
	os.WriteFile(bad, []byte("rules: r\npolicies: p\nlisten_on: x\n"), 0o600)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"serve"}, 2, "usage: weir serve"},
		{[]string{"serve", "--config", bad}, 1, fmt.Sprintf("%s:3: config_unknown_key", bad)},
		{[]string{"serve", "--config", filepath.Join(dir, "missing.yaml")}, 1, "config_read_error"},
	} {
		var stderr bytes.Buffer
		if code := run(tc.args, nil, &bytes.Buffer{}, &stderr); code != tc.code || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("%v: code %d, stderr %q; want %d %q", tc.args, code, stderr.String(), tc.code, tc.want)
		}
	}
}
