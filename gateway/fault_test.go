package gateway

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/weirgw/weir/gateway/audit"
)

// The fault tests drive a real gateway over real sockets into a failing upstream, a
// failing audit sink, a reload storm and an early shutdown. Each fault must end in a clear,
// correctly coded error or in correct service; the audit trail holds exactly one record per
// request; and no goroutine outlives the test (checkLeaks).

// rawUpstream is an upstream scripted at the socket level: an HTTP server library would
// refuse to hang up mid-body or to stall. serve gets each request (its body read) and
// writes whatever bytes the fault calls for; the connection is closed when it returns.
type rawUpstream struct {
	ln       net.Listener
	url      string
	mu       sync.Mutex
	serve    func(c net.Conn, r *http.Request, body []byte)
	conns    map[net.Conn]bool
	wg       sync.WaitGroup
	requests atomic.Int64
}

func startRawUpstream(t *testing.T) *rawUpstream {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	u := &rawUpstream{ln: ln, url: "http://" + ln.Addr().String() + "/v1", conns: map[net.Conn]bool{}}
	u.wg.Add(1)
	go u.accept()
	t.Cleanup(u.close)
	return u
}

func (u *rawUpstream) set(serve func(c net.Conn, r *http.Request, body []byte)) {
	u.mu.Lock()
	u.serve = serve
	u.mu.Unlock()
}

func (u *rawUpstream) accept() {
	defer u.wg.Done()
	for {
		c, err := u.ln.Accept()
		if err != nil {
			return
		}
		u.mu.Lock()
		u.conns[c] = true
		serve := u.serve
		u.wg.Add(1)
		u.mu.Unlock()
		go func() {
			defer u.wg.Done()
			defer func() {
				c.Close()
				u.mu.Lock()
				delete(u.conns, c)
				u.mu.Unlock()
			}()
			r, err := http.ReadRequest(bufio.NewReader(c))
			if err != nil {
				return
			}
			body, _ := io.ReadAll(r.Body)
			u.requests.Add(1)
			serve(c, r, body)
		}()
	}
}

// close stops accepting, hangs up every connection and waits for the handlers.
func (u *rawUpstream) close() {
	u.ln.Close()
	u.mu.Lock()
	for c := range u.conns {
		c.Close()
	}
	u.mu.Unlock()
	u.wg.Wait()
}

// httpAnswer is a complete HTTP/1.1 response that closes the connection.
func httpAnswer(status int, ctype, body string) string {
	return fmt.Sprintf("HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s",
		status, http.StatusText(status), ctype, len(body), body)
}

// sseHead starts a chunked event stream; sseChunk frames one part of it.
const sseHead = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"

func sseChunk(s string) string { return fmt.Sprintf("%x\r\n%s\r\n", len(s), s) }

func isStream(body []byte) bool { return bytes.Contains(body, []byte(`"stream":true`)) }

// closedURL is a base URL on which nothing listens: connections are refused.
func closedURL(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return "http://" + addr + "/v1"
}

// startConfigGateway runs a gateway on config text (the analytics pack and bundle are
// ${ROOT}/examples/analytics), auditing to audit.jsonl next to it or to sink.
func startConfigGateway(t *testing.T, cfg string, sink io.Writer) *testEnv {
	t.Helper()
	dir := t.TempDir()
	root, _ := filepath.Abs("..")
	path := filepath.Join(dir, "weir.yaml")
	if err := os.WriteFile(path, []byte(strings.ReplaceAll(cfg, "${ROOT}", root)), 0o600); err != nil {
		t.Fatal(err)
	}
	g := serve(t, Options{ConfigPath: path, Logger: discardLogger(), AuditSink: sink})
	return &testEnv{g: g, config: path}
}

// faultConfig serves an openai route and a data route in front of upstream llm, and the
// same two in front of upstream dead, where nothing listens.
const faultConfig = `listen: 127.0.0.1:0
admin_listen: 127.0.0.1:0
rules: ${ROOT}/examples/analytics/rules
policies: ${ROOT}/examples/analytics/policies
upstreams:
  - {name: llm, base_url: '%s', timeout: 400ms, connect_timeout: 1s}
  - {name: dead, base_url: '%s', timeout: 400ms, connect_timeout: 1s}
routes:
  - {name: chat, surface: openai, path: /v1, upstream: llm, auth: none}
  - {name: data, surface: data, path: /data, upstream: llm, param: q, auth: none}
  - {name: dead-chat, surface: openai, path: /dead/v1, upstream: dead, auth: none}
  - {name: dead-data, surface: data, path: /dead/data, upstream: dead, param: q, auth: none}
audit: {path: audit.jsonl, on_error: fail_closed}
`

// reply is what a client got: the status, the error code of the body or of the stream's
// error event, the decision id, and the SSE events of a stream.
type clientReply struct {
	status     int
	code       string
	decisionID string
	events     []string
	body       []byte
}

// send posts one request of kind chat, stream or data; it is safe in any goroutine.
func send(addr, prefix, kind, question string) (clientReply, error) {
	if kind == "data" {
		return do(addr, "GET", prefix+"/data/report?q="+urlQuery(question), nil)
	}
	body := map[string]any{"model": "m", "messages": []any{map[string]any{"role": "user", "content": question}}}
	if kind == "stream" {
		body["stream"] = true
	}
	b, _ := json.Marshal(body)
	return do(addr, "POST", prefix+"/v1/chat/completions", b)
}

// do sends one request and reads the reply, parsing an event stream.
func do(addr, method, uri string, body []byte) (clientReply, error) {
	req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(resp)
	req.SetRequestURI("http://" + addr + uri)
	req.Header.SetMethod(method)
	if body != nil {
		req.Header.SetContentType("application/json")
		req.SetBody(body)
	}
	if err := fasthttp.DoTimeout(req, resp, 20*time.Second); err != nil {
		return clientReply{}, err
	}
	return readReply(resp.StatusCode(), string(resp.Header.ContentType()), string(resp.Header.Peek("X-Weir-Decision-Id")), resp.Body())
}

// readReply reads a reply: the code of an OpenAI error body, or the events of an event
// stream and the code of its error event.
func readReply(status int, ctype, decisionID string, body []byte) (clientReply, error) {
	r := clientReply{status: status, decisionID: decisionID, body: append([]byte(nil), body...)}
	if strings.HasPrefix(ctype, "text/event-stream") {
		var p sseParser
		evs, err := p.feed(r.body)
		last, err2 := p.end()
		if err != nil || err2 != nil {
			return r, fmt.Errorf("unparsable stream %q", r.body)
		}
		for _, ev := range append(evs, last...) {
			r.events = append(r.events, string(ev.data))
			var eb errorBody
			if json.Unmarshal(ev.data, &eb) == nil && eb.Error.Code != "" {
				r.code = eb.Error.Code
			}
		}
		return r, nil
	}
	var eb errorBody
	if json.Unmarshal(r.body, &eb) == nil {
		r.code = eb.Error.Code
	}
	return r, nil
}

func urlQuery(s string) string {
	var a fasthttp.Args
	a.Set("q", s)
	return strings.TrimPrefix(a.String(), "q=")
}

// trail reads the audit file and checks its chain; it is safe while the gateway runs.
func trail(t *testing.T, path string) []audit.Record {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return decodeTrail(t, b)
}

func decodeTrail(t *testing.T, b []byte) []audit.Record {
	t.Helper()
	if n, brk, err := audit.Verify(bytes.NewReader(b)); brk != nil || err != nil {
		t.Fatalf("audit chain: %d records, %+v, %v", n, brk, err)
	}
	var out []audit.Record
	for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		var r audit.Record
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

// TestFaultUpstream drives each upstream fault through the three ways a request reaches
// an upstream (a chat completion, a streamed one, a data route) and pins what the client
// gets and what the audit trail records.
func TestFaultUpstream(t *testing.T) {
	checkLeaks(t)
	up := startRawUpstream(t)
	e := startConfigGateway(t, fmt.Sprintf(faultConfig, up.url, closedURL(t)), nil)
	auditPath := e.g.Snapshot().Config.Audit.Path
	const question = "Ciao, grazie!"

	type want struct {
		status  int    // what the client got
		code    string // error.code of the body, or of the stream's error event
		outcome string // of the audit record
	}
	tests := []struct {
		name   string
		prefix string // /dead: the routes whose upstream refuses connections
		serve  func(c net.Conn, r *http.Request, body []byte)
		chat   want
		stream want
		data   want
	}{
		{name: "refuses connections", prefix: "/dead",
			chat:   want{502, "upstream_unavailable", audit.OutcomeError},
			stream: want{502, "upstream_unavailable", audit.OutcomeError},
			data:   want{502, "upstream_unavailable", audit.OutcomeError}},
		{name: "hangs up without answering",
			serve:  func(net.Conn, *http.Request, []byte) {},
			chat:   want{502, "upstream_unavailable", audit.OutcomeError},
			stream: want{502, "upstream_unavailable", audit.OutcomeError},
			data:   want{502, "upstream_unavailable", audit.OutcomeError}},
		{name: "answers slower than its timeout",
			serve: func(c net.Conn, _ *http.Request, _ []byte) {
				io.Copy(io.Discard, c) // until the gateway gives up and hangs up
			},
			chat:   want{504, "upstream_timeout", audit.OutcomeError},
			stream: want{504, "upstream_timeout", audit.OutcomeError},
			data:   want{504, "upstream_timeout", audit.OutcomeError}},
		{name: "closes mid-body",
			serve: func(c net.Conn, _ *http.Request, body []byte) {
				if isStream(body) {
					io.WriteString(c, sseHead+sseChunk(roleChunk())+sseChunk(textChunk("Ciao")))
					return
				}
				io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n{\"id\":\"chatcmpl-1\",")
			},
			chat:   want{502, "upstream_unavailable", audit.OutcomeError},
			stream: want{200, "upstream_error", audit.OutcomeError}, // the error event ends the stream
			data:   want{502, "upstream_unavailable", audit.OutcomeError}},
		{name: "answers malformed JSON",
			serve: func(c net.Conn, _ *http.Request, body []byte) {
				if isStream(body) {
					io.WriteString(c, sseHead+sseChunk(roleChunk())+sseChunk("data: {\"choices\": [\n\n")+sseChunk(sseDone)+"0\r\n\r\n")
					return
				}
				io.WriteString(c, httpAnswer(200, "application/json", `{"id":"chatcmpl-1","choices":[{"index":0,"message":`))
			},
			chat:   want{502, "upstream_invalid_response", audit.OutcomeError},
			stream: want{200, "upstream_invalid_response", audit.OutcomeError},
			// A data route is a proxy: it never reads the answer, so a broken one passes.
			data: want{200, "", audit.OutcomeAllowed}},
		{name: "answers 500",
			serve: func(c net.Conn, _ *http.Request, _ []byte) {
				io.WriteString(c, httpAnswer(500, "application/json", `{"error":{"message":"the model crashed","type":"server_error","code":"model_crashed"}}`))
			},
			// The upstream's status, type and code reach the client in Weir's own error body,
			// with the decision id; its message does not (text Weir does not judge).
			chat:   want{500, "model_crashed", audit.OutcomeError},
			stream: want{500, "model_crashed", audit.OutcomeError},
			data:   want{500, "model_crashed", audit.OutcomeError}},
	}
	for _, tc := range tests {
		for _, kind := range []string{"chat", "stream", "data"} {
			w := map[string]want{"chat": tc.chat, "stream": tc.stream, "data": tc.data}[kind]
			t.Run(tc.name+"/"+kind, func(t *testing.T) {
				up.set(tc.serve)
				before, attempts := len(trail(t, auditPath)), up.requests.Load()
				r, err := send(e.g.Addr(), tc.prefix, kind, question)
				if err != nil {
					t.Fatal(err)
				}
				if r.status != w.status || r.code != w.code || r.decisionID == "" {
					t.Fatalf("got %d %q (decision %q), want %d %q; body %s", r.status, r.code, r.decisionID, w.status, w.code, r.body)
				}
				if w.code != "" && kind != "stream" && !bytes.Contains(r.body, []byte(`"decision_id":"`+r.decisionID+`"`)) {
					t.Errorf("the error body lacks the decision id: %s", r.body)
				}
				if kind == "stream" && r.status == 200 && (len(r.events) == 0 || r.events[len(r.events)-1] != "[DONE]") {
					t.Errorf("the stream does not end with [DONE]: %q", r.events)
				}
				// A POST is repeated only when a kept-alive connection turned out closed
				// before the upstream read it: never more than once.
				if n := up.requests.Load() - attempts; tc.prefix == "" && (n < 1 || n > 2) {
					t.Errorf("the upstream saw the request %d times", n)
				}
				rs := trail(t, auditPath)
				if len(rs) != before+1 {
					t.Fatalf("%d audit records for one request", len(rs)-before)
				}
				rec := rs[len(rs)-1]
				if rec.DecisionID != r.decisionID || rec.Outcome != w.outcome || rec.Status != w.status {
					t.Errorf("record %s outcome %q status %d, want %s %q %d", rec.DecisionID, rec.Outcome, rec.Status, r.decisionID, w.outcome, w.status)
				}
			})
		}
	}
	m := adminGet(t, e.g.AdminAddr(), "/metrics")
	for _, s := range []string{`weir_upstream_errors_total{kind="down",upstream="dead"} 3`, `weir_upstream_errors_total{kind="timeout",upstream="llm"} 3`} {
		if !strings.Contains(m, s) {
			t.Errorf("/metrics lacks %s", s)
		}
	}
}

// TestFaultClientGoneBeforeAnswer: a client that hangs up while the gateway waits for a
// slow upstream cannot cancel that call (fasthttp does not watch the connection), but
// the decision is still recorded and nothing is left running.
func TestFaultClientGoneBeforeAnswer(t *testing.T) {
	checkLeaks(t)
	e := startGateway(t, gwParams{})
	release := make(chan struct{})
	e.up.set(func(rc *fasthttp.RequestCtx, _ map[string]any) {
		<-release
		writeCompletion(rc, "Ciao!", nil)
	})
	conn := postRaw(t, e.g.Addr(), `{"model":"m","messages":[{"role":"user","content":"Ciao, grazie!"}]}`)
	waitFor(t, func() bool { _, _, calls := e.up.last(); return calls == 1 })
	conn.Close()
	close(release)
	waitFor(t, func() bool { return len(e.records(t)) == 1 })
	if rec := e.lastRecord(t); rec.Outcome != audit.OutcomeAllowed || rec.Status != 200 {
		t.Errorf("record = %+v", rec)
	}
}

// TestFaultFallbackUnreachable: an LLM classifier that refuses connections costs no
// request: every question gets the pack's default intent, and after breaker_failures
// failures the breaker stops asking.
func TestFaultFallbackUnreachable(t *testing.T) {
	checkLeaks(t)
	e := &testEnv{up: startUpstream(t)}
	e.up.set(reply("Ciao!"))
	p := gwParams{upstreamURL: e.up.url}
	p.dir = t.TempDir()
	path := writeConfig(t, p)
	appendFile(t, path, fmt.Sprintf(`fallback:
  llm: {provider: openai, base_url: '%s', model: m, api_key_env: WEIR_TEST_FALLBACK_KEY_UNSET}
  timeout: 300ms
  breaker_failures: 2
`, closedURL(t)))
	g, err := New(ctx, Options{ConfigPath: path, Logger: discardLogger()})
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Shutdown(ctx) })
	e.g = g
	for i := range 4 {
		r, err := send(g.Addr(), "", "chat", lowQuestion)
		if err != nil || r.status != 200 {
			t.Fatalf("request %d: %+v %v", i, r, err)
		}
	}
	rs := trail(t, g.Snapshot().Config.Audit.Path)
	if len(rs) != 4 {
		t.Fatalf("%d records for 4 requests", len(rs))
	}
	for _, r := range rs {
		if r.Source != "default" || r.Intent != "strategy" || r.Outcome != audit.OutcomeAllowed {
			t.Errorf("record: source %q intent %q outcome %q", r.Source, r.Intent, r.Outcome)
		}
	}
	m := adminGet(t, g.AdminAddr(), "/metrics")
	if !strings.Contains(m, "weir_fallback_breaker_opened_total 1\n") || !strings.Contains(m, "weir_fallback_calls_total 2\n") {
		t.Errorf("the breaker did not open after 2 failures:\n%s", grepLines(m, "weir_fallback_"))
	}
}

func grepLines(s, prefix string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, prefix) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// flakyDisk fails every third write, like a disk that fills and drains.
type flakyDisk struct {
	mu     sync.Mutex
	n      int
	failed int
	buf    bytes.Buffer
}

func (d *flakyDisk) Write(p []byte) (int, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.n++; d.n%3 == 0 {
		d.failed++
		return 0, errors.New("no space left on device")
	}
	return d.buf.Write(p)
}

// TestFaultAuditSinkFlaky: with on_error fail_closed, a request whose record could not be
// written is refused (503, or the stream's error event) and every answered request has its
// record; the chain over the records written stays intact.
func TestFaultAuditSinkFlaky(t *testing.T) {
	checkLeaks(t)
	disk := &flakyDisk{}
	e := startGateway(t, gwParams{auditSink: disk})
	e.up.set(func(rc *fasthttp.RequestCtx, req map[string]any) {
		if req["stream"] == true {
			streamReply(roleChunk(), textChunk("Ciao!"), finishChunk("stop"), sseDone)(rc, req)
			return
		}
		writeCompletion(rc, "Ciao!", nil)
	})
	var served, refused atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			kind := []string{"chat", "stream"}[i%2]
			r, err := send(e.g.Addr(), "", kind, "Ciao, grazie!")
			switch {
			case err != nil:
				errs <- err
			case r.code == "audit_unavailable" && (r.status == 503 || kind == "stream"):
				refused.Add(1)
			case r.status == 200 && r.code == "":
				served.Add(1)
			default:
				errs <- fmt.Errorf("%s: %d %q %s", kind, r.status, r.code, r.body)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	disk.mu.Lock()
	defer disk.mu.Unlock()
	rs := decodeTrail(t, disk.buf.Bytes())
	if int64(len(rs)) != served.Load() || int64(disk.failed) != refused.Load() || refused.Load() == 0 {
		t.Errorf("%d records and %d failed writes for %d served and %d refused requests", len(rs), disk.failed, served.Load(), refused.Load())
	}
}

// TestFaultShutdownMidStream: a shutdown whose grace period ends while a stream is still
// relayed ends that stream with a shutting_down error event, records it before the audit
// trail closes, closes the upstream connection (cancelling the generation) and leaves
// nothing running.
func TestFaultShutdownMidStream(t *testing.T) {
	checkLeaks(t)
	up := startUpstream(t)
	gone := make(chan bool, 1)
	up.set(streamScript([]string{roleChunk(), textChunk("Ciao ")}, false, gone))
	g, auditPath := startUnmanaged(t, gwParams{upstreamURL: up.url})
	conn := postRaw(t, g.Addr(), `{"model":"m","stream":true,"messages":[{"role":"user","content":"Ciao, grazie!"}]}`)
	br := bufio.NewReader(conn)
	if line, err := br.ReadString('\n'); err != nil || !strings.Contains(line, "200") {
		t.Fatalf("status line %q, %v", line, err)
	}
	sctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	if err := g.Shutdown(sctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Shutdown = %v, want the grace period exceeded", err)
	}
	select {
	case <-gone:
	case <-time.After(5 * time.Second):
		t.Fatal("the upstream stream was not closed at shutdown")
	}
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	var rest []byte
	for !bytes.Contains(rest, []byte("data: [DONE]")) {
		line, err := br.ReadBytes('\n')
		if rest = append(rest, line...); err != nil {
			break
		}
	}
	if !bytes.Contains(rest, []byte(`"code":"shutting_down"`)) || !bytes.Contains(rest, []byte("data: [DONE]")) {
		t.Errorf("the client did not get the shutting_down event and [DONE]: %q", rest)
	}
	rs := trail(t, auditPath)
	if len(rs) != 1 || rs[0].Error != "shutting_down" || rs[0].Outcome != audit.OutcomeError {
		t.Fatalf("records of the stream cut by the shutdown: %+v", rs)
	}
}
