package mockllm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Request is what the server received, for tests to assert on.
type Request struct {
	Path   string
	Header http.Header
	Body   map[string]any // the decoded JSON body (nil for GET)
	Case   string         // the case that answered, "" when none matched
}

// Handler serves a script. It is safe for concurrent use.
type Handler struct {
	script *Script
	mu     sync.Mutex
	log    []Request
}

// NewHandler returns a handler for s, compiling it if it was built in Go.
func NewHandler(s *Script) (*Handler, error) {
	if err := s.compile(); err != nil {
		return nil, err
	}
	return &Handler{script: s}, nil
}

// Requests returns a copy of every request received so far, in order.
func (h *Handler) Requests() []Request {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]Request(nil), h.log...)
}

func (h *Handler) record(r Request) {
	h.mu.Lock()
	h.log = append(h.log, r)
	h.mu.Unlock()
}

// ServeHTTP answers POST …/chat/completions (so /v1, bare and Azure-style deployment
// paths all work) and GET …/models.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/models"):
		h.record(Request{Path: r.URL.Path, Header: r.Header.Clone()})
		writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": []any{
			map[string]any{"id": h.script.Model, "object": "model", "created": 0, "owned_by": "weir-mock"},
		}})
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/chat/completions"):
		h.chat(w, r)
	default:
		writeError(w, http.StatusNotFound, "mock-llm serves POST /v1/chat/completions and GET /v1/models")
	}
}

// chatRequest is the part of an OpenAI chat request the mock reads.
type chatRequest struct {
	Messages []struct {
		Role    string `json:"role"`
		Content any    `json:"content"`
	} `json:"messages"`
	Tools         []any `json:"tools"`
	Stream        bool  `json:"stream"`
	StreamOptions *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
}

func (h *Handler) chat(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 8<<20))
	var req chatRequest
	var raw map[string]any
	if err == nil {
		err = json.Unmarshal(body, &req)
	}
	if err == nil {
		err = json.Unmarshal(body, &raw)
	}
	rec := Request{Path: r.URL.Path, Header: r.Header.Clone(), Body: raw}
	if err != nil {
		h.record(rec)
		writeError(w, http.StatusBadRequest, "invalid JSON body: "+err.Error())
		return
	}
	afterTool := len(req.Messages) > 0 && req.Messages[len(req.Messages)-1].Role == "tool"
	c := h.script.find(lastUser(req), len(req.Tools) > 0, afterTool)
	if c == nil {
		h.record(rec)
		writeError(w, http.StatusBadRequest, "mock-llm: no script case matches this request")
		return
	}
	rec.Case = c.Name
	h.record(rec)
	if !sleep(r.Context(), c.Reply.Delay) {
		return
	}
	f := c.Reply.Fail
	switch {
	case f.Status != 0:
		msg := f.Message
		if msg == "" {
			msg = http.StatusText(f.Status)
		}
		writeError(w, f.Status, msg)
	case f.Close && !req.Stream:
		dropConnection(w)
	case f.Malformed:
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"id": "chatcmpl-mock", "choices": [{"message": {"content": "trunc`)
	case req.Stream:
		h.stream(w, c, usage(c, req), req.StreamOptions != nil && req.StreamOptions.IncludeUsage)
	default:
		writeJSON(w, http.StatusOK, completion(h.script.Model, c, usage(c, req)))
	}
}

// lastUser returns the text of the last user message (text parts joined).
func lastUser(req chatRequest) string {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		m := req.Messages[i]
		if m.Role != "user" {
			continue
		}
		switch c := m.Content.(type) {
		case string:
			return c
		case []any:
			var parts []string
			for _, p := range c {
				if pm, ok := p.(map[string]any); ok {
					if t, ok := pm["text"].(string); ok {
						parts = append(parts, t)
					}
				}
			}
			return strings.Join(parts, "\n")
		}
		return ""
	}
	return ""
}

func usage(c *Case, req chatRequest) Usage {
	u := c.Reply.Usage
	if u.PromptTokens == 0 {
		n := 0
		for _, m := range req.Messages {
			if s, ok := m.Content.(string); ok {
				n += len(s)
			}
		}
		u.PromptTokens = n/4 + 1
	}
	if u.CompletionTokens == 0 {
		n := len(c.Reply.Text)
		for _, tc := range c.Reply.ToolCalls {
			n += len(tc.Name) + len(tc.args)
		}
		u.CompletionTokens = n/4 + 1
	}
	return u
}

func usageJSON(u Usage) map[string]any {
	return map[string]any{"prompt_tokens": u.PromptTokens, "completion_tokens": u.CompletionTokens,
		"total_tokens": u.PromptTokens + u.CompletionTokens}
}

func completion(model string, c *Case, u Usage) map[string]any {
	msg := map[string]any{"role": "assistant", "content": c.Reply.Text}
	finish := "stop"
	if len(c.Reply.ToolCalls) > 0 {
		calls := make([]any, len(c.Reply.ToolCalls))
		for i, tc := range c.Reply.ToolCalls {
			calls[i] = map[string]any{"id": tc.ID, "type": "function",
				"function": map[string]any{"name": tc.Name, "arguments": tc.args}}
		}
		msg["tool_calls"] = calls
		if c.Reply.Text == "" {
			msg["content"] = nil
		}
		finish = "tool_calls"
	}
	return map[string]any{
		"id": "chatcmpl-mock", "object": "chat.completion", "created": time.Now().Unix(), "model": model,
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
		"usage":   usageJSON(u),
	}
}

func sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]any{"error": map[string]any{
		"message": msg, "type": "mock_error", "code": fmt.Sprint(status)}})
}

// dropConnection closes the TCP connection without a complete HTTP response.
func dropConnection(w http.ResponseWriter) {
	if hj, ok := w.(http.Hijacker); ok {
		if conn, _, err := hj.Hijack(); err == nil {
			_ = conn.Close()
			return
		}
	}
	panic(http.ErrAbortHandler)
}

// Server is a running mock on a real socket.
type Server struct {
	*Handler
	srv *http.Server
	ln  net.Listener
}

// Start serves s on a free port of 127.0.0.1, for tests.
func Start(s *Script) (*Server, error) { return Listen(s, "127.0.0.1:0") }

// Listen serves s on addr.
func Listen(s *Script, addr string) (*Server, error) {
	h, err := NewHandler(s)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("mockllm: %w", err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return &Server{Handler: h, srv: srv, ln: ln}, nil
}

// Addr returns the listening address (host:port).
func (s *Server) Addr() string { return s.ln.Addr().String() }

// URL returns the OpenAI-style base URL, ending in /v1.
func (s *Server) URL() string { return "http://" + s.Addr() + "/v1" }

// Close stops the server and drops open connections.
func (s *Server) Close() error {
	if err := s.srv.Close(); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
