package gateway

import (
	"bufio"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/valyala/fasthttp"

	"github.com/weirgw/weir/gateway/audit"
)

// streamChat drives a streaming request with the official client and its accumulator;
// deltas are the content deltas the client received, in order.
func streamChat(e *testEnv, p openai.ChatCompletionNewParams) (openai.ChatCompletionAccumulator, []string, error) {
	s := e.client.Chat.Completions.NewStreaming(ctx, p)
	defer s.Close()
	var acc openai.ChatCompletionAccumulator
	var deltas []string
	for s.Next() {
		c := s.Current()
		acc.AddChunk(c)
		if len(c.Choices) > 0 && c.Choices[0].Delta.Content != "" {
			deltas = append(deltas, c.Choices[0].Delta.Content)
		}
	}
	return acc, deltas, s.Err()
}

func content(acc openai.ChatCompletionAccumulator) string {
	if len(acc.Choices) == 0 {
		return ""
	}
	return acc.Choices[0].Message.Content
}

// rawStream posts a stream: true request and returns the SSE events the client got.
func rawStream(t *testing.T, e *testEnv, msgs []openai.ChatCompletionMessageParamUnion) []string {
	t.Helper()
	p := params(msgs...)
	body, _ := json.Marshal(p)
	var m map[string]any
	_ = json.Unmarshal(body, &m)
	m["stream"] = true
	body, _ = json.Marshal(m)
	status, resp, _ := e.post(t, "/v1/chat/completions", body)
	if status != 200 {
		t.Fatalf("status %d: %s", status, resp)
	}
	evs, err := parseAll(t, resp)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(evs))
	for i, ev := range evs {
		out[i] = string(ev.data)
	}
	return out
}

// wantErrorEnd checks that a stream ends with an error event of code, then [DONE].
func wantErrorEnd(t *testing.T, evs []string, code, typ string) {
	t.Helper()
	if len(evs) < 2 || evs[len(evs)-1] != "[DONE]" {
		t.Fatalf("the stream does not end with [DONE]: %q", evs)
	}
	var b errorBody
	if err := json.Unmarshal([]byte(evs[len(evs)-2]), &b); err != nil || b.Error.Code != code || b.Error.Type != typ || b.Error.DecisionID == "" {
		t.Fatalf("last event before [DONE] = %s, want an error %s/%s with a decision id", evs[len(evs)-2], typ, code)
	}
}

func TestStreamPlainPassthrough(t *testing.T) {
	e := startGateway(t, gwParams{})
	e.up.set(streamReply(roleChunk(), textChunk("Ciao"), textChunk("! Come "), textChunk("posso aiutarti?"), finishChunk("stop"), sseDone))
	acc, deltas, err := streamChat(e, params(openai.UserMessage("Ciao, grazie!")))
	if err != nil {
		t.Fatal(err)
	}
	if content(acc) != "Ciao! Come posso aiutarti?" || len(deltas) != 3 {
		t.Errorf("content = %q in %q: deltas must flow as they arrive", content(acc), deltas)
	}
	req, _, _ := e.up.last()
	if req["stream"] != true {
		t.Errorf("upstream request stream = %v", req["stream"])
	}
	rec := e.lastRecord(t)
	if rec.Outcome != audit.OutcomeAllowed || rec.Intent != "conversational" || rec.Content.Answer != "Ciao! Come posso aiutarti?" {
		t.Errorf("record = %+v", rec)
	}
	if _, ok := rec.LatencyUS["stream"]; !ok {
		t.Errorf("latency_us lacks stream: %v", rec.LatencyUS)
	}
}

func TestStreamGroundedSentences(t *testing.T) {
	grounded := withToolResult("Qual è il fatturato totale?", `{"metric":"revenue","value":21956.62}`)
	parts := []string{roleChunk(), textChunk("Il fatturato"), textChunk(" totale è 21."), textChunk("956,62 €. Ottimo"),
		textChunk(" risultato!\nIl margine è 31"), textChunk("%."), finishChunk("stop"), sseDone}
	t.Run("error", func(t *testing.T) {
		e := startGateway(t, gwParams{})
		e.up.set(streamReply(parts...))
		acc, deltas, err := streamChat(e, params(grounded...))
		if err == nil || !strings.Contains(err.Error(), "ungrounded_number") {
			t.Fatalf("err = %v, want the stream ended with ungrounded_number", err)
		}
		want := []string{"Il fatturato totale è 21.956,62 €. ", "Ottimo risultato!\n"}
		if strings.Join(deltas, "|") != strings.Join(want, "|") {
			t.Errorf("deltas = %q, want whole sentences %q", deltas, want)
		}
		if content(acc) != strings.Join(want, "") {
			t.Errorf("content = %q", content(acc))
		}
		if rec := e.lastRecord(t); rec.Outcome != audit.OutcomeBlocked || rec.Error != "ungrounded_number" {
			t.Errorf("record = %+v", rec)
		}
		wantErrorEnd(t, rawStream(t, e, grounded), "ungrounded_number", "policy_violation")
	})
	t.Run("rewrite", func(t *testing.T) {
		e := startGateway(t, gwParams{onViolation: "rewrite"})
		e.up.set(streamReply(parts...))
		acc, _, err := streamChat(e, params(grounded...))
		if err != nil {
			t.Fatal(err)
		}
		want := "Il fatturato totale è 21.956,62 €. Ottimo risultato!\nIl margine è " + UnverifiedMarker + "."
		if content(acc) != want {
			t.Errorf("content = %q, want %q", content(acc), want)
		}
		if rec := e.lastRecord(t); rec.Outcome != audit.OutcomeModified {
			t.Errorf("record = %+v", rec)
		}
	})
	t.Run("monitor", func(t *testing.T) {
		e := startGateway(t, gwParams{mode: "monitor"})
		e.up.set(streamReply(parts...))
		acc, _, err := streamChat(e, params(grounded...))
		if err != nil {
			t.Fatal(err)
		}
		if content(acc) != "Il fatturato totale è 21.956,62 €. Ottimo risultato!\nIl margine è 31%." {
			t.Errorf("monitor must forward unchanged: %q", content(acc))
		}
		if rec := e.lastRecord(t); rec.Outcome != audit.OutcomeMonitored {
			t.Errorf("record = %+v", rec)
		}
	})
}

func TestStreamToolCalls(t *testing.T) {
	ask := []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Qual è il fatturato totale?")}
	blocked := []string{roleChunk(), toolDelta(0, "call_0", "filter_data", `{"li`), toolDelta(0, "", "", `mit":10}`), finishChunk("tool_calls"), sseDone}
	t.Run("interleaved parallel calls", func(t *testing.T) {
		e := startGateway(t, gwParams{})
		e.up.set(streamReply(roleChunk(), textChunk("Calcolo."), toolDelta(0, "call_a", "execute_metric", `{"met`),
			toolDelta(1, "call_b", "execute_metric", `{"metric"`), toolDelta(0, "", "", `ric":"revenue"}`),
			toolDelta(1, "", "", `:"orders"}`), finishChunk("tool_calls"), sseDone))
		acc, _, err := streamChat(e, params(ask...))
		if err != nil {
			t.Fatal(err)
		}
		calls := acc.Choices[0].Message.ToolCalls
		if len(calls) != 2 || calls[0].ID != "call_a" || calls[0].Function.Arguments != `{"metric":"revenue"}` ||
			calls[1].ID != "call_b" || calls[1].Function.Arguments != `{"metric":"orders"}` {
			t.Fatalf("tool calls = %+v", calls)
		}
		if content(acc) != "Calcolo." || acc.Choices[0].FinishReason != "tool_calls" {
			t.Errorf("choice = %+v", acc.Choices[0])
		}
		if rec := e.lastRecord(t); rec.Outcome != audit.OutcomeAllowed || len(rec.ToolCalls) != 2 {
			t.Errorf("record = %+v", rec)
		}
	})
	t.Run("blocked, error", func(t *testing.T) {
		e := startGateway(t, gwParams{})
		e.up.set(streamReply(blocked...))
		acc, _, err := streamChat(e, params(ask...))
		if err == nil || !strings.Contains(err.Error(), "tool_not_allowed") {
			t.Fatalf("err = %v", err)
		}
		if len(acc.Choices) > 0 && len(acc.Choices[0].Message.ToolCalls) > 0 {
			t.Errorf("a blocked call reached the client: %+v", acc.Choices[0].Message.ToolCalls)
		}
		evs := rawStream(t, e, ask)
		wantErrorEnd(t, evs, "tool_not_allowed", "policy_violation")
		for _, ev := range evs {
			if strings.Contains(ev, "filter_data") && !strings.Contains(ev, `"error"`) {
				t.Errorf("event leaks the blocked call: %s", ev)
			}
		}
		if rec := e.lastRecord(t); rec.Outcome != audit.OutcomeBlocked || len(rec.ToolCalls) != 1 || rec.ToolCalls[0].Allowed {
			t.Errorf("record = %+v", rec)
		}
	})
	t.Run("blocked, rewrite", func(t *testing.T) {
		e := startGateway(t, gwParams{onViolation: "rewrite"})
		e.up.set(streamReply(roleChunk(), toolDelta(0, "call_0", "execute_metric", `{"metric":"revenue"}`),
			toolDelta(1, "call_1", "filter_data", `{}`), finishChunk("tool_calls"), sseDone))
		acc, _, err := streamChat(e, params(ask...))
		if err != nil {
			t.Fatal(err)
		}
		m := acc.Choices[0].Message
		if len(m.ToolCalls) != 1 || m.ToolCalls[0].Function.Name != "execute_metric" || !strings.Contains(m.Content, "blocked tool call filter_data") {
			t.Errorf("message = %+v", m)
		}
		if rec := e.lastRecord(t); rec.Outcome != audit.OutcomeModified {
			t.Errorf("record = %+v", rec)
		}
	})
	t.Run("all blocked, rewrite", func(t *testing.T) {
		e := startGateway(t, gwParams{onViolation: "rewrite"})
		e.up.set(streamReply(blocked...))
		acc, _, err := streamChat(e, params(ask...))
		if err != nil {
			t.Fatal(err)
		}
		if c := acc.Choices[0]; len(c.Message.ToolCalls) != 0 || c.FinishReason != "stop" || !strings.Contains(c.Message.Content, "filter_data") {
			t.Errorf("choice = %+v", c)
		}
	})
	t.Run("monitor", func(t *testing.T) {
		e := startGateway(t, gwParams{mode: "monitor"})
		e.up.set(streamReply(blocked...))
		acc, _, err := streamChat(e, params(ask...))
		if err != nil {
			t.Fatal(err)
		}
		if calls := acc.Choices[0].Message.ToolCalls; len(calls) != 1 || calls[0].Function.Arguments != `{"limit":10}` {
			t.Errorf("monitor must forward the call: %+v", calls)
		}
		if rec := e.lastRecord(t); rec.Outcome != audit.OutcomeMonitored {
			t.Errorf("record = %+v", rec)
		}
	})
	t.Run("text without a tool call, error", func(t *testing.T) {
		e := startGateway(t, gwParams{})
		e.up.set(streamReply(roleChunk(), textChunk("Il fatturato è ottimo. "), textChunk("Davvero."), finishChunk("stop"), sseDone))
		_, deltas, err := streamChat(e, params(ask...))
		if err == nil || !strings.Contains(err.Error(), "tool_call_required") || len(deltas) != 0 {
			t.Fatalf("err = %v, deltas = %q: text must be held until a tool call is known", err, deltas)
		}
	})
}

func TestStreamUpstreamFailures(t *testing.T) {
	msgs := []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Ciao, grazie!")}
	t.Run("dies mid-stream", func(t *testing.T) {
		e := startGateway(t, gwParams{})
		e.up.set(streamScript([]string{roleChunk(), textChunk("Ciao")}, true, nil))
		evs := rawStream(t, e, msgs)
		wantErrorEnd(t, evs, "upstream_error", "upstream_error")
		if rec := e.lastRecord(t); rec.Outcome != audit.OutcomeError || rec.Error != "upstream_error" {
			t.Errorf("record = %+v", rec)
		}
	})
	t.Run("malformed chunk", func(t *testing.T) {
		e := startGateway(t, gwParams{})
		e.up.set(streamReply(roleChunk(), "data: {\"choices\": [\n\n", sseDone))
		wantErrorEnd(t, rawStream(t, e, msgs), "upstream_invalid_response", "upstream_error")
	})
	t.Run("missing [DONE], CRLF and comments", func(t *testing.T) {
		e := startGateway(t, gwParams{})
		crlf := strings.ReplaceAll(textChunk("Ciao!"), "\n", "\r\n")
		e.up.set(streamReply(": keep-alive\n\n", roleChunk(), crlf[:9], crlf[9:], finishChunk("stop")))
		acc, _, err := streamChat(e, params(msgs...))
		if err != nil || content(acc) != "Ciao!" {
			t.Fatalf("content = %q, %v", content(acc), err)
		}
	})
	t.Run("error status passes through", func(t *testing.T) {
		e := startGateway(t, gwParams{})
		e.up.set(func(rc *fasthttp.RequestCtx, _ map[string]any) {
			rc.SetStatusCode(429)
			rc.SetContentType("application/json")
			rc.SetBodyString(`{"error":{"message":"slow down","type":"rate_limit","code":"rate_limited"}}`)
		})
		_, _, err := streamChat(e, params(msgs...))
		apiError(t, err, 429, "rate_limited")
	})
}

func TestStreamClientDisconnectCancelsUpstream(t *testing.T) {
	e := startGateway(t, gwParams{})
	gone := make(chan bool, 1)
	e.up.set(streamScript([]string{roleChunk(), textChunk("Ciao ")}, false, gone))
	cctx, cancel := context.WithCancel(ctx)
	s := e.client.Chat.Completions.NewStreaming(cctx, params(openai.UserMessage("Ciao, grazie!")))
	if !s.Next() {
		t.Fatalf("no first chunk: %v", s.Err())
	}
	cancel()
	s.Close()
	select {
	case <-gone:
	case <-time.After(5 * time.Second):
		t.Fatal("the upstream connection was not closed after the client left")
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		if rs := e.records(t); len(rs) > 0 && rs[len(rs)-1].Error == "client_closed" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no audit record for the abandoned stream")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestStreamIdleTimeout: the upstream timeout bounds silence, not the stream's length.
func TestStreamIdleTimeout(t *testing.T) {
	msgs := []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Ciao, grazie!")}
	paced := func(pause time.Duration, parts ...string) func(*fasthttp.RequestCtx, map[string]any) {
		return func(rc *fasthttp.RequestCtx, _ map[string]any) {
			rc.SetContentType("text/event-stream")
			rc.SetBodyStreamWriter(func(w *bufio.Writer) {
				for _, p := range parts {
					w.WriteString(p)
					if w.Flush() != nil {
						return
					}
					time.Sleep(pause)
				}
			})
		}
	}
	t.Run("long but lively stream", func(t *testing.T) {
		// 18 gaps of 100 ms: the stream lasts twice the timeout, each gap an eighth of it
		// (a loaded machine's scheduling delays stay well inside it).
		e := startGateway(t, gwParams{timeout: "800ms"})
		parts := []string{roleChunk()}
		for i := 0; i < 16; i++ {
			parts = append(parts, textChunk("ciao "))
		}
		e.up.set(paced(100*time.Millisecond, append(parts, finishChunk("stop"), sseDone)...))
		acc, _, err := streamChat(e, params(msgs...))
		if err != nil || content(acc) != strings.Repeat("ciao ", 16) {
			t.Fatalf("content = %q, %v", content(acc), err)
		}
	})
	t.Run("silent upstream", func(t *testing.T) {
		e := startGateway(t, gwParams{timeout: "300ms"})
		e.up.set(paced(time.Second, roleChunk(), textChunk("ciao"), finishChunk("stop"), sseDone))
		wantErrorEnd(t, rawStream(t, e, msgs), "upstream_error", "upstream_error")
	})
}

func TestStreamAuditFailClosed(t *testing.T) {
	e := startGateway(t, gwParams{auditSink: brokenDisk{}})
	e.up.set(streamReply(roleChunk(), textChunk("Ciao!"), finishChunk("stop"), sseDone))
	wantErrorEnd(t, rawStream(t, e, []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Ciao, grazie!")}),
		"audit_unavailable", "server_error")
	if m := adminGet(t, e.g.AdminAddr(), "/metrics"); !strings.Contains(m, `weir_stream_ends_total{end="error",route="chat"} 1`) {
		t.Errorf("stream end not counted:\n%s", m)
	}
}
