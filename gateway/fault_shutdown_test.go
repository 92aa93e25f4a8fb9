package gateway

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/weirgw/weir/gateway/audit"
)

// TestFaultShutdownPlainPending: the shutdown's grace period ends while a plain (not
// streamed) answer is still awaited from an upstream that says nothing. The upstream call
// must not outlive the shutdown: its connection is closed, the client gets 503
// shutting_down, and the request's audit record is written before the trail closes — not
// lost to a trail already closed when the upstream's own timeout (here 30 s) would end it.
// The same holds for an upstream a reload replaced (its config changed): the new one is
// armed for the shutdown too.
func TestFaultShutdownPlainPending(t *testing.T) {
	for _, reload := range []bool{false, true} {
		t.Run(map[bool]string{false: "first snapshot", true: "after a reload replaced the upstream"}[reload], func(t *testing.T) {
			testShutdownPlainPending(t, reload)
		})
	}
}

func testShutdownPlainPending(t *testing.T, reload bool) {
	checkLeaks(t)
	up := startRawUpstream(t)
	hungUp := make(chan struct{})
	up.set(func(c net.Conn, _ *http.Request, _ []byte) {
		io.Copy(io.Discard, c) // silent until Weir hangs up
		close(hungUp)
	})
	g, auditPath := startUnmanaged(t, gwParams{upstreamURL: up.url, timeout: "30s"})
	if reload {
		old := g.Snapshot().upstreams["llm"]
		writeConfig(t, gwParams{dir: filepath.Dir(g.opts.ConfigPath), upstreamURL: up.url, timeout: "31s"})
		if err := g.Reload(ctx); err != nil {
			t.Fatal(err)
		}
		if g.Snapshot().upstreams["llm"] == old {
			t.Fatal("the reload kept the upstream; the test needs a new one")
		}
	}
	conn := postRaw(t, g.Addr(), `{"model":"m","messages":[{"role":"user","content":"Ciao, grazie!"}]}`)
	waitFor(t, func() bool { return up.requests.Load() == 1 })

	sctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- g.Shutdown(sctx) }()
	select {
	case err := <-done:
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Shutdown = %v, want the grace period exceeded", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Shutdown waited for the upstream's own timeout")
	}
	select {
	case <-hungUp:
	case <-time.After(5 * time.Second):
		t.Fatal("the upstream connection was not closed at shutdown")
	}
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("the client got no answer: %v", err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(got), `"code":"shutting_down"`) {
		t.Errorf("answer %d %s, want 503 shutting_down", resp.StatusCode, got)
	}
	rs := trail(t, auditPath)
	if len(rs) != 1 || rs[0].Error != "shutting_down" || rs[0].Outcome != audit.OutcomeError {
		t.Fatalf("records of the request cut by the shutdown: %+v", rs)
	}
}

// startUnmanaged starts a gateway the test shuts down itself, and returns it with the
// path of its audit trail.
func startUnmanaged(t *testing.T, p gwParams) (*Gateway, string) {
	t.Helper()
	g, err := New(ctx, Options{ConfigPath: writeConfig(t, p), Logger: discardLogger()})
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Start(); err != nil {
		t.Fatal(err)
	}
	return g, g.Snapshot().Config.Audit.Path
}

// postRaw sends a chat request on a connection of its own, closed when the test ends.
func postRaw(t *testing.T, addr, body string) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	fmt.Fprintf(conn, "POST /v1/chat/completions HTTP/1.1\r\nHost: weir\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
	return conn
}
