package gateway

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/valyala/fasthttp"

	"github.com/weirgw/weir/gateway/audit"
)

// upstreamScript is a scripted OpenAI-compatible upstream on loopback.
type upstreamScript struct {
	mu      sync.Mutex
	reply   func(rc *fasthttp.RequestCtx, req map[string]any)
	lastReq map[string]any
	rawReq  []byte // the last request's body as the upstream received it
	header  string // the last request's header block
	auth    string
	calls   int
	url     string
}

func startUpstream(t testing.TB) *upstreamScript {
	t.Helper()
	u := &upstreamScript{}
	u.reply = func(rc *fasthttp.RequestCtx, _ map[string]any) { writeCompletion(rc, "Ciao!", nil) }
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &fasthttp.Server{Handler: u.handle}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Shutdown() })
	u.url = "http://" + ln.Addr().String() + "/v1"
	return u
}

func (u *upstreamScript) handle(rc *fasthttp.RequestCtx) {
	if string(rc.Path()) == "/v1/models" {
		rc.SetContentType("application/json")
		rc.SetBodyString(`{"object":"list","data":[{"id":"scripted-model","object":"model","created":1,"owned_by":"test"}]}`)
		return
	}
	var req map[string]any
	_ = json.Unmarshal(rc.PostBody(), &req)
	u.mu.Lock()
	u.lastReq, u.auth = req, string(rc.Request.Header.Peek("Authorization"))
	u.rawReq, u.header = append([]byte(nil), rc.PostBody()...), rc.Request.Header.String()
	u.calls++
	reply := u.reply
	u.mu.Unlock()
	reply(rc, req)
}

func (u *upstreamScript) set(reply func(rc *fasthttp.RequestCtx, req map[string]any)) {
	u.mu.Lock()
	u.reply = reply
	u.mu.Unlock()
}

func (u *upstreamScript) last() (map[string]any, string, int) {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.lastReq, u.auth, u.calls
}

// call is a tool call the scripted model proposes.
type call struct{ name, args string }

func writeCompletion(rc *fasthttp.RequestCtx, content string, calls []call) {
	msg := map[string]any{"role": "assistant", "content": content}
	finish := "stop"
	if len(calls) > 0 {
		tcs := []map[string]any{}
		for i, c := range calls {
			tcs = append(tcs, map[string]any{"id": fmt.Sprintf("call_%d", i), "type": "function",
				"function": map[string]any{"name": c.name, "arguments": c.args}})
		}
		msg["tool_calls"] = tcs
		finish = "tool_calls"
		if content == "" {
			msg["content"] = nil
		}
	}
	b, _ := json.Marshal(map[string]any{
		"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "scripted-model",
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
		"usage":   map[string]any{"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
	})
	rc.Response.Header.Set("X-Upstream", "scripted")
	rc.SetContentType("application/json")
	rc.SetBody(b)
}

func reply(content string, calls ...call) func(*fasthttp.RequestCtx, map[string]any) {
	return func(rc *fasthttp.RequestCtx, _ map[string]any) { writeCompletion(rc, content, calls) }
}

// gwParams fill the config template.
type gwParams struct {
	upstreamURL, mode, onViolation, policies, rules, timeout string
	auditOnError                                             string
	routeAuth                                                string // the route's auth; default none
	limitLines                                               string // more lines of the limits section, indented
	extra                                                    string // YAML appended to the config (auth:, tenants:)
	auditSink                                                io.Writer
	maxBody                                                  int
	dir                                                      string
}

func writeConfig(t testing.TB, p gwParams) string {
	t.Helper()
	if p.dir == "" {
		p.dir = t.TempDir()
	}
	def := func(s *string, v string) {
		if *s == "" {
			*s = v
		}
	}
	root, _ := filepath.Abs("..")
	def(&p.mode, "enforce")
	def(&p.onViolation, "error")
	def(&p.rules, filepath.Join(root, "examples/analytics/rules"))
	def(&p.policies, filepath.Join(root, "examples/analytics/policies"))
	def(&p.timeout, "5s")
	def(&p.auditOnError, "fail_closed")
	def(&p.routeAuth, "none")
	if p.maxBody == 0 {
		p.maxBody = 1 << 20
	}
	cfg := fmt.Sprintf(`listen: 127.0.0.1:0
admin_listen: 127.0.0.1:0
rules: %s
policies: %s
upstreams:
  - name: llm
    base_url: %s
    api_key: ${WEIR_TEST_UPSTREAM_KEY:-upstream-key}
    timeout: %s
    connect_timeout: 1s
routes:
  - name: chat
    surface: openai
    path: /v1
    upstream: llm
    mode: %s
    on_violation: %s
    auth: %s
limits:
  max_body_bytes: %d
%saudit: {path: audit.jsonl, include_content: true, on_error: %s}
%s`, p.rules, p.policies, p.upstreamURL, p.timeout, p.mode, p.onViolation, p.routeAuth, p.maxBody, p.limitLines, p.auditOnError, p.extra)
	path := filepath.Join(p.dir, "weir.yaml")
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// stagesThrough returns the stages of pipeline up to and including the one named name.
func stagesThrough(name string) []stage {
	for i, s := range pipeline {
		if s.name == name {
			return pipeline[:i+1]
		}
	}
	panic("gateway: no stage " + name)
}

// syncBuffer is a log sink tests can read while the gateway writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

type testEnv struct {
	g      *Gateway
	up     *upstreamScript
	client openai.Client
	logs   *syncBuffer
	config string
}

func startGateway(t testing.TB, p gwParams) *testEnv {
	t.Helper()
	e := &testEnv{up: startUpstream(t), logs: &syncBuffer{}}
	if p.upstreamURL == "" {
		p.upstreamURL = e.up.url
	}
	e.config = writeConfig(t, p)
	logger := slog.New(slog.NewJSONHandler(e.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	g := serve(t, Options{ConfigPath: e.config, Logger: logger, AuditSink: p.auditSink})
	e.g = g
	e.client = openai.NewClient(
		option.WithBaseURL("http://"+g.Addr()+"/v1/"),
		option.WithHTTPClient(&http.Client{Transport: diffTransport{t, e}}),
		option.WithAPIKey("client-key"),
		option.WithMaxRetries(0),
		option.WithRequestTimeout(10*time.Second),
	)
	return e
}

// serve builds a gateway from opts, starts it on its configured (test: loopback, port 0)
// listeners and shuts it down when the test ends.
func serve(t testing.TB, opts Options) *Gateway {
	t.Helper()
	g, err := New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		g.Shutdown(ctx)
	})
	return g
}

// records reads the audit trail and checks its chain.
func (e *testEnv) records(t *testing.T) []audit.Record {
	t.Helper()
	path := e.g.Snapshot().Config.Audit.Path
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if n, brk, err := audit.Verify(bytes.NewReader(b)); brk != nil || err != nil {
		t.Fatalf("audit chain: %d records, %v, %v", n, brk, err)
	}
	var out []audit.Record
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if line == "" {
			continue
		}
		var r audit.Record
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

func (e *testEnv) lastRecord(t *testing.T) audit.Record {
	t.Helper()
	rs := e.records(t)
	if len(rs) == 0 {
		t.Fatal("no audit record")
	}
	return rs[len(rs)-1]
}

// post sends a request to the env's gateway with rawPost and runs the differential check
// (differential_test.go) on a successful chat answer.
func (e *testEnv) post(t *testing.T, path string, body []byte) (int, []byte, *fasthttp.ResponseHeader) {
	t.Helper()
	status, resp, h := rawPost(t, e.g.Addr(), path, body)
	if status == 200 && strings.HasSuffix(path, "/chat/completions") {
		e.checkForwarded(t, resp, strings.HasPrefix(string(h.ContentType()), "text/event-stream"), string(h.Peek("X-Weir-Decision-Id")))
	}
	return status, resp, h
}

// rawPost sends a request with net/http-free fasthttp, for bodies the official client
// cannot produce (malformed JSON, oversized).
func rawPost(t *testing.T, addr, path string, body []byte) (int, []byte, *fasthttp.ResponseHeader) {
	t.Helper()
	req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	req.SetRequestURI("http://" + addr + path)
	req.Header.SetMethod("POST")
	req.Header.SetContentType("application/json")
	req.SetBody(body)
	if err := fasthttp.DoTimeout(req, resp, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	h := &fasthttp.ResponseHeader{}
	resp.Header.CopyTo(h)
	return resp.StatusCode(), append([]byte(nil), resp.Body()...), h
}

func discardLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// Stream replies of the scripted upstream: SSE bodies written part by part, flushed after
// each part, so the gateway sees the chunk boundaries the test chose.

// sseData is one SSE event carrying v as JSON.
func sseData(v any) string {
	b, _ := json.Marshal(v)
	return "data: " + string(b) + "\n\n"
}

// chunkOf is a chat.completion.chunk with one choice's delta and finish reason.
func chunkOf(delta map[string]any, finish any) string {
	return sseData(map[string]any{
		"id": "chatcmpl-s", "object": "chat.completion.chunk", "created": 1, "model": "scripted-model",
		"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}},
	})
}

func textChunk(s string) string { return chunkOf(map[string]any{"content": s}, nil) }

func roleChunk() string { return chunkOf(map[string]any{"role": "assistant", "content": ""}, nil) }

func finishChunk(reason string) string { return chunkOf(map[string]any{}, reason) }

// toolDelta is a tool-call fragment; id and name are sent only when not empty.
func toolDelta(index int, id, name, args string) string {
	tc := map[string]any{"index": index, "function": map[string]any{"arguments": args}}
	if id != "" {
		tc["id"], tc["type"] = id, "function"
		tc["function"].(map[string]any)["name"] = name
	}
	return chunkOf(map[string]any{"tool_calls": []any{tc}}, nil)
}

const sseDone = "data: [DONE]\n\n"

// streamReply answers with parts, written and flushed one at a time.
func streamReply(parts ...string) func(*fasthttp.RequestCtx, map[string]any) {
	return streamScript(parts, false, nil)
}

// streamScript writes parts; with die it then closes the connection mid-body (the chunked
// body never ends); gone, when not nil, receives true when a write failed because the
// gateway closed the connection (the part list is repeated until then).
func streamScript(parts []string, die bool, gone chan<- bool) func(*fasthttp.RequestCtx, map[string]any) {
	return func(rc *fasthttp.RequestCtx, _ map[string]any) {
		conn := rc.Conn()
		rc.SetContentType("text/event-stream")
		rc.Response.Header.Set("X-Upstream", "scripted")
		rc.SetBodyStreamWriter(func(w *bufio.Writer) {
			for i := 0; ; i++ {
				for _, p := range parts {
					w.WriteString(p)
					if err := w.Flush(); err != nil && gone != nil {
						gone <- true
						return
					}
					time.Sleep(2 * time.Millisecond)
				}
				if gone == nil || i > 2000 {
					break
				}
			}
			if die {
				time.Sleep(50 * time.Millisecond) // let the server write what was flushed
				conn.Close()
			}
		})
	}
}

// errorBody is the OpenAI error format the gateway answers with, as a client decodes it.
type errorBody struct {
	Error struct {
		Message    string `json:"message"`
		Type       string `json:"type"`
		Code       string `json:"code"`
		Param      string `json:"param"`
		DecisionID string `json:"decision_id"`
	} `json:"error"`
}
