package mockllm

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// stream answers with server-sent events the way OpenAI streams: a role delta, text
// deltas, tool-call deltas (a header with id, type and name, then argument fragments that
// carry only their index), a final delta with the finish reason, the usage chunk when the
// client asked for it, and [DONE].
func (h *Handler) stream(w http.ResponseWriter, c *Case, u Usage, withUsage bool) {
	events := streamEvents(c)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	fl, _ := w.(http.Flusher)
	created := time.Now().Unix()
	send := func(delta map[string]any, finish any, usage any) {
		chunk := map[string]any{"id": "chatcmpl-mock", "object": "chat.completion.chunk", "created": created,
			"model": h.script.Model, "choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
		if delta == nil {
			chunk["choices"] = []any{}
		}
		if usage != nil {
			chunk["usage"] = usage
		}
		b, _ := json.Marshal(chunk)
		fmt.Fprintf(w, "data: %s\n\n", b)
		if fl != nil {
			fl.Flush()
		}
	}
	for i, ev := range events {
		if c.Reply.Fail.Close && i == len(events)/2 {
			dropConnection(w)
			return
		}
		send(ev, nil, nil)
	}
	finish := "stop"
	if len(c.Reply.ToolCalls) > 0 {
		finish = "tool_calls"
	}
	send(map[string]any{}, finish, nil)
	if withUsage {
		send(nil, nil, usageJSON(u))
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
	if fl != nil {
		fl.Flush()
	}
}

// streamEvents cuts the reply into deltas.
func streamEvents(c *Case) []map[string]any {
	n := c.Reply.Stream.Chunk
	if n <= 0 {
		n = 8
	}
	events := []map[string]any{{"role": "assistant", "content": ""}}
	for _, part := range cut(c.Reply.Text, n) {
		events = append(events, map[string]any{"content": part})
	}
	frags := make([][]string, len(c.Reply.ToolCalls))
	for i, tc := range c.Reply.ToolCalls {
		frags[i] = cut(tc.args, n)
	}
	argDelta := func(i int, s string) map[string]any {
		return map[string]any{"tool_calls": []any{map[string]any{"index": i, "function": map[string]any{"arguments": s}}}}
	}
	header := func(i int) map[string]any {
		tc := c.Reply.ToolCalls[i]
		return map[string]any{"tool_calls": []any{map[string]any{"index": i, "id": tc.ID, "type": "function",
			"function": map[string]any{"name": tc.Name, "arguments": ""}}}}
	}
	if !c.Reply.Stream.Interleave {
		for i := range c.Reply.ToolCalls {
			events = append(events, header(i))
			for _, f := range frags[i] {
				events = append(events, argDelta(i, f))
			}
		}
		return events
	}
	for i := range c.Reply.ToolCalls {
		events = append(events, header(i))
	}
	for k := 0; ; k++ {
		more := false
		for i := range frags {
			if k < len(frags[i]) {
				events = append(events, argDelta(i, frags[i][k]))
				more = true
			}
		}
		if !more {
			return events
		}
	}
}

// cut splits s into pieces of at most n bytes, never inside a UTF-8 sequence.
func cut(s string, n int) []string {
	var out []string
	for len(s) > 0 {
		k := min(n, len(s))
		for k < len(s) && k > 0 && s[k]&0xC0 == 0x80 {
			k++
		}
		out = append(out, s[:k])
		s = s[k:]
	}
	return out
}
