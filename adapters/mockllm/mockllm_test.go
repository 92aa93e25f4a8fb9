package mockllm

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

const testScript = `
model: test-model
cases:
  - name: slow
    match: {contains: "slow"}
    reply: {text: "late", delay: 2s}
  - name: unavailable
    match: {contains: "503"}
    reply: {fail: {status: 503, message: "overloaded"}}
  - name: malformed
    match: {contains: "malformed"}
    reply: {fail: {malformed: true}}
  - name: hangup
    match: {contains: "hang up"}
    reply: {text: "you will not see this sentence in full", fail: {close: true}}
  - name: parallel
    match: {regex: '(?i)revenue.*covers', tools: true}
    reply:
      stream: {chunk: 5, interleave: true}
      usage: {prompt_tokens: 42, completion_tokens: 7}
      tool_calls:
        - {id: call_a, name: execute_metric, arguments: {metric: revenue, year: 2024}}
        - {id: call_b, name: execute_metric, arguments: '{"metric": "covers", "year": 2024}'}
  - name: classify
    match: {tools: false}
    reply: {text: '{"intent": "analytics", "confidence": 0.8}', usage: {prompt_tokens: 120, completion_tokens: 12}}
`

func start(t *testing.T) *Server {
	t.Helper()
	s, err := ParseScript([]byte(testScript))
	if err != nil {
		t.Fatal(err)
	}
	srv, err := Start(s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	return srv
}

type choice struct {
	Message struct {
		Content   string     `json:"content"`
		ToolCalls []toolCall `json:"tool_calls"`
	} `json:"message"`
	FinishReason string `json:"finish_reason"`
}

// reply is the part of a chat completion (or of an accumulated stream) the tests read.
type reply struct {
	Model   string   `json:"model"`
	Choices []choice `json:"choices"`
	Usage   struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
}

type toolCall struct {
	Index    int    `json:"index"`
	ID       string `json:"id"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// post sends a chat request the way an OpenAI client does.
func post(ctx context.Context, srv *Server, body map[string]any) (*http.Response, error) {
	b, _ := json.Marshal(body)
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL()+"/chat/completions", bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer test")
	return http.DefaultClient.Do(req)
}

func chat(q string, tools, stream bool) map[string]any {
	body := map[string]any{"model": "m", "messages": []any{
		map[string]any{"role": "system", "content": "classify"}, map[string]any{"role": "user", "content": q}}}
	if tools {
		body["tools"] = []any{map[string]any{"type": "function", "function": map[string]any{"name": "execute_metric", "parameters": map[string]any{"type": "object"}}}}
	}
	if stream {
		body["stream"] = true
		body["stream_options"] = map[string]any{"include_usage": true}
	}
	return body
}

// accumulate reads an SSE stream and assembles it by tool-call index, as the official
// SDKs do; it returns the number of data chunks and whether [DONE] arrived.
func accumulate(t *testing.T, r io.Reader) (reply, int, bool) {
	t.Helper()
	out := reply{Choices: make([]choice, 1)}
	msg := &out.Choices[0].Message
	sc := bufio.NewScanner(r)
	chunks := 0
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		if data == "[DONE]" {
			return out, chunks, true
		}
		chunks++
		var c struct {
			Choices []struct {
				Delta struct {
					Content   string     `json:"content"`
					ToolCalls []toolCall `json:"tool_calls"`
				} `json:"delta"`
				FinishReason *string `json:"finish_reason"`
			} `json:"choices"`
			Usage *struct {
				PromptTokens int `json:"prompt_tokens"`
			} `json:"usage"`
		}
		if err := json.Unmarshal([]byte(data), &c); err != nil {
			t.Fatalf("chunk %q: %v", data, err)
		}
		if c.Usage != nil {
			out.Usage.PromptTokens = c.Usage.PromptTokens
		}
		for _, ch := range c.Choices {
			msg.Content += ch.Delta.Content
			if ch.FinishReason != nil {
				out.Choices[0].FinishReason = *ch.FinishReason
			}
			for _, d := range ch.Delta.ToolCalls {
				for len(msg.ToolCalls) <= d.Index {
					msg.ToolCalls = append(msg.ToolCalls, toolCall{})
				}
				tc := &msg.ToolCalls[d.Index]
				if d.ID != "" {
					tc.ID, tc.Function.Name = d.ID, d.Function.Name
				}
				tc.Function.Arguments += d.Function.Arguments
			}
		}
	}
	return out, chunks, false
}

func TestParseScriptErrors(t *testing.T) {
	tests := []struct{ name, script, want string }{
		{"unknown key", "cases: [{match: {contain: x}}]", "field contain not found"},
		{"bad regex", "cases: [{match: {regex: '('}}]", "regex"},
		{"bad arguments", "cases: [{reply: {tool_calls: [{name: f, arguments: 'not json'}]}}]", "not JSON"},
		{"nameless tool", "cases: [{reply: {tool_calls: [{arguments: {}}]}}]", "no name"},
		{"bad status", "cases: [{reply: {fail: {status: 200}}}]", "not an error status"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseScript([]byte(tc.script))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want %q", err, tc.want)
			}
		})
	}
}

func TestTextReply(t *testing.T) {
	srv := start(t)
	resp, err := post(context.Background(), srv, chat("how many covers?", false, false))
	if err != nil {
		t.Fatal(err)
	}
	var r reply
	err = json.NewDecoder(resp.Body).Decode(&r)
	resp.Body.Close()
	if err != nil || resp.StatusCode != 200 {
		t.Fatal(resp.Status, err)
	}
	if got := r.Choices[0].Message.Content; got != `{"intent": "analytics", "confidence": 0.8}` {
		t.Errorf("content %q", got)
	}
	if r.Model != "test-model" || r.Usage.PromptTokens != 120 || r.Usage.CompletionTokens != 12 || r.Choices[0].FinishReason != "stop" {
		t.Errorf("reply %+v", r)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || reqs[0].Case != "classify" || reqs[0].Path != "/v1/chat/completions" || reqs[0].Header.Get("Authorization") != "Bearer test" {
		t.Errorf("requests %+v", reqs)
	}
	mresp, err := http.Get(srv.URL() + "/models")
	if err != nil {
		t.Fatal(err)
	}
	var models struct{ Data []struct{ ID string } }
	_ = json.NewDecoder(mresp.Body).Decode(&models)
	mresp.Body.Close()
	if len(models.Data) != 1 || models.Data[0].ID != "test-model" {
		t.Errorf("models %+v", models)
	}
}

func TestToolCallsAndStream(t *testing.T) {
	srv := start(t)
	want := []string{`{"metric":"revenue","year":2024}`, `{"metric": "covers", "year": 2024}`}
	resp, err := post(context.Background(), srv, chat("Revenue and covers for 2024", true, false))
	if err != nil {
		t.Fatal(err)
	}
	var r reply
	_ = json.NewDecoder(resp.Body).Decode(&r)
	resp.Body.Close()
	calls := r.Choices[0].Message.ToolCalls
	if len(calls) != 2 || calls[0].Function.Arguments != want[0] || calls[1].Function.Arguments != want[1] || calls[1].ID != "call_b" {
		t.Fatalf("tool calls %+v", calls)
	}
	if r.Choices[0].FinishReason != "tool_calls" {
		t.Errorf("finish %q", r.Choices[0].FinishReason)
	}

	// The same reply streamed, argument deltas interleaved: an index-aware client
	// reassembles both calls.
	resp, err = post(context.Background(), srv, chat("Revenue and covers for 2024", true, true))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Errorf("content type %q", ct)
	}
	r, chunks, done := accumulate(t, resp.Body)
	if !done {
		t.Fatal("stream ended before [DONE]")
	}
	calls = r.Choices[0].Message.ToolCalls
	if len(calls) != 2 || calls[0].Function.Arguments != want[0] || calls[1].Function.Arguments != want[1] || calls[0].ID != "call_a" {
		t.Fatalf("streamed tool calls %+v", calls)
	}
	if chunks < 10 || r.Usage.PromptTokens != 42 || r.Choices[0].FinishReason != "tool_calls" {
		t.Errorf("%d chunks, reply %+v", chunks, r)
	}
}

func TestFailureInjection(t *testing.T) {
	srv := start(t)
	status := func(ctx context.Context, q string) (int, string, error) {
		resp, err := post(ctx, srv, chat(q, false, false))
		if err != nil {
			return 0, "", err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), err
	}
	if code, body, err := status(context.Background(), "503 please"); err != nil || code != 503 || !strings.Contains(body, "overloaded") {
		t.Errorf("503: %d %q %v", code, body, err)
	}
	if code, body, err := status(context.Background(), "malformed please"); err != nil || code != 200 || json.Valid([]byte(body)) {
		t.Errorf("malformed: %d %q %v", code, body, err)
	}
	if _, _, err := status(context.Background(), "hang up please"); err == nil {
		t.Error("closed connection gave a response")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	begin := time.Now()
	if _, _, err := status(ctx, "slow please"); !errors.Is(err, context.DeadlineExceeded) || time.Since(begin) > time.Second {
		t.Errorf("delay: %v after %v", err, time.Since(begin))
	}
	if n := len(srv.Requests()); n != 4 {
		t.Errorf("%d requests recorded", n)
	}
	resp, err := post(context.Background(), srv, map[string]any{"messages": "not a list"})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 400 {
		t.Errorf("invalid body: %s", resp.Status)
	}
}

func TestStreamHangUp(t *testing.T) {
	srv := start(t)
	resp, err := post(context.Background(), srv, chat("hang up mid-stream", false, true))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	r, _, done := accumulate(t, resp.Body)
	text := r.Choices[0].Message.Content
	if done || strings.Contains(text, "in full") {
		t.Fatalf("the stream completed: %q", text)
	}
	if text == "" {
		t.Error("nothing arrived before the hang-up")
	}
}

func TestNoMatch(t *testing.T) {
	s, _ := ParseScript([]byte("cases: [{match: {contains: never}}]"))
	if c := s.find("hello", false, false); c != nil {
		t.Fatalf("matched %s", c.Name)
	}
	yes := true
	s = &Script{Cases: []Case{{Name: "tools", Match: Match{Tools: &yes}}, {Name: "any"}}}
	if err := s.compile(); err != nil {
		t.Fatal(err)
	}
	if c := s.find("x", false, false); c.Name != "any" {
		t.Errorf("got %s", c.Name)
	}
	if c := s.find("x", true, false); c.Name != "tools" {
		t.Errorf("got %s", c.Name)
	}
	s = &Script{Cases: []Case{{Name: "second turn", Match: Match{ToolResult: &yes}}, {Name: "first turn"}}}
	if err := s.compile(); err != nil {
		t.Fatal(err)
	}
	if c := s.find("x", true, true); c.Name != "second turn" {
		t.Errorf("got %s", c.Name)
	}
	if c := s.find("x", true, false); c.Name != "first turn" {
		t.Errorf("got %s", c.Name)
	}
}
