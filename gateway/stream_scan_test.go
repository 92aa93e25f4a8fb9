package gateway

import (
	"encoding/json"
	"reflect"
	"regexp"
	"testing"

	"github.com/openai/openai-go/v3"

	"github.com/weirgw/weir/gateway/audit"
)

// TestStreamFastPathAgrees relays the same upstream streams with chunkFast on and off, for
// a gated intent (text released sentence by sentence) and an ungated one, and compares
// the events the client gets.
func TestStreamFastPathAgrees(t *testing.T) {
	const meta = `"id":"chatcmpl-s","object":"chat.completion.chunk","created":1,"model":"scripted-model"`
	ev := func(json string) string { return "data: " + json + "\n\n" }
	text := func(s string) string {
		return ev(`{` + meta + `,"choices":[{"index":0,"delta":{"content":"` + s + `"},"finish_reason":null}]}`)
	}
	finish := ev(`{` + meta + `,"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`)
	streams := map[string][]string{
		"text deltas":    {roleChunk(), text("Il fatturato "), text("è 21956.62 €. "), text("Grazie "), text("a te."), finish},
		"usage chunk":    {text("Ciao. "), ev(`{` + meta + `,"choices":[],"usage":{"prompt_tokens":3}}`), finish},
		"text and usage": {text("Ciao. "), ev(`{` + meta + `,"choices":[{"index":0,"delta":{"content":"Sì."}}],"usage":{"total_tokens":3}}`), finish},
		"two choices": {ev(`{` + meta + `,"choices":[{"index":0,"delta":{"content":"Uno. "}},{"index":1,"delta":{"content":"Due. "}}]}`),
			ev(`{` + meta + `,"choices":[{"index":0,"delta":{},"finish_reason":"stop"},{"index":1,"delta":{},"finish_reason":"stop"}]}`)},
		"text beside an empty delta": {ev(`{` + meta + `,"choices":[{"index":0,"delta":{"content":"Uno. "}},{"index":1,"delta":{}}]}`),
			ev(`{` + meta + `,"choices":[{"index":0,"delta":{},"finish_reason":"stop"},{"index":1,"delta":{},"finish_reason":"stop"}]}`)},
		"null content and null delta": {ev(`{` + meta + `,"choices":[{"index":0,"delta":{"content":null}}]}`),
			ev(`{` + meta + `,"choices":[{"index":0,"delta":null}]}`), text("Ok."), finish},
		"other delta members": {ev(`{` + meta + `,"choices":[{"index":0,"delta":{"content":"Ciao. ","refusal":null}}]}`), finish},
		"escaped key":         {ev(`{` + meta + `,"choices":[{"index":0,"delta":{"c\u006fntent":"Ciao. "}}]}`), finish},
		"duplicate content":   {ev(`{` + meta + `,"choices":[{"index":0,"delta":{"content":"Uno. ","content":"Due. "}}]}`), finish},
		"escaped text":        {text(`Il \"fatturato\"\n\u00e8 21956.62 \u20ac. `), finish},
		"fractional index":    {ev(`{` + meta + `,"choices":[{"index":0.0,"delta":{"content":"Ciao."}}]}`), finish},
		"index null":          {ev(`{` + meta + `,"choices":[{"index":null,"delta":{"content":"Ciao."}}]}`), finish},
		"error member":        {text("Ciao. "), ev(`{"error":{"message":"boom"}}`), finish},
		"null error member":   {ev(`{"error":null,` + meta + `,"choices":[{"index":0,"delta":{"content":"Ciao."}}]}`), finish},
		"number as content":   {ev(`{` + meta + `,"choices":[{"index":0,"delta":{"content":5}}]}`), finish},
		"malformed chunk":     {text("Ciao. "), ev(`{"choices":[`), finish},
		"tool call":           {toolDelta(0, "call_1", "execute_metric", `{"metric":`), toolDelta(0, "", "", `"revenue"}`), finishChunk("tool_calls")},
	}
	conversations := map[string][]openai.ChatCompletionMessageParamUnion{
		"gated, tool call required": {openai.UserMessage(analyticsQ)},
		"gated, tool called":        withToolResult(analyticsQ, `{"metric":"revenue","value":21956.62}`),
		"not gated":                 {openai.UserMessage("Ciao, grazie!")},
	}
	decisionID := regexp.MustCompile(`"decision_id":"[^"]*"`)
	for _, mode := range []string{"error", "rewrite"} {
		e := startGateway(t, gwParams{onViolation: mode})
		for name, parts := range streams {
			for conv, msgs := range conversations {
				run := func(jsonOnly bool) ([]string, audit.Record) {
					chunkJSONOnly.Store(jsonOnly)
					defer chunkJSONOnly.Store(false)
					e.up.set(streamReply(append(parts, sseDone)...))
					evs := rawStream(t, e, msgs)
					for i := range evs {
						evs[i] = decisionID.ReplaceAllString(evs[i], `"decision_id":"-"`)
					}
					rec := e.lastRecord(t)
					return evs, audit.Record{Outcome: rec.Outcome, Content: rec.Content, Violations: rec.Violations, ToolCalls: rec.ToolCalls}
				}
				fast, frec := run(false)
				slow, srec := run(true)
				if !reflect.DeepEqual(fast, slow) || !reflect.DeepEqual(frec, srec) {
					t.Errorf("%s, %s, %s:\nfast %q %+v\njson %q %+v", mode, name, conv, fast, frec, slow, srec)
				}
			}
		}
	}
}

// FuzzScanChunk checks that what scanChunk accepts, encoding/json decodes the way
// chunkJSON reads it, to the same indexes and texts.
func FuzzScanChunk(f *testing.F) {
	for _, s := range []string{
		`{"id":"x","choices":[{"index":0,"delta":{"content":"Ciao \u00e8"},"finish_reason":null}]}`,
		`{"choices":[{"index":1,"delta":{"role":"assistant","content":null}}],"usage":null}`,
		`{"choices":[],"usage":{"total_tokens":3}}`, `{"choices":[{"index":0.5}]}`, `{"error":null}`,
	} {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, data []byte, gated bool) {
		s := &streamer{gated: gated}
		views, ok := s.scanChunk(data, nil)
		if !ok {
			return
		}
		var raw map[string]json.RawMessage
		if json.Unmarshal(data, &raw) != nil || raw == nil || !isNull(raw["error"]) {
			t.Fatalf("scanChunk took a chunk chunkJSON refuses: %q", data)
		}
		var choices []map[string]json.RawMessage
		if c, ok := raw["choices"]; ok && !isNull(c) && json.Unmarshal(c, &choices) != nil {
			t.Fatalf("choices: %q", data)
		}
		if len(choices) != len(views) {
			t.Fatalf("%d views, %d choices: %q", len(views), len(choices), data)
		}
		for i, ch := range choices {
			var index int
			var delta map[string]json.RawMessage
			var text string
			if v, ok := ch["index"]; ok && json.Unmarshal(v, &index) != nil {
				t.Fatalf("index: %q", data)
			}
			if v, ok := ch["delta"]; ok && !isNull(v) && json.Unmarshal(v, &delta) != nil {
				t.Fatalf("delta: %q", data)
			}
			_, calls := delta["tool_calls"]
			if calls || !isNull(delta["function_call"]) || !isNull(ch["finish_reason"]) {
				t.Fatalf("scanChunk took a chunk with calls or a finish: %q", data)
			}
			c, has := delta["content"]
			hasText := has && !isNull(c)
			if hasText && json.Unmarshal(c, &text) != nil {
				t.Fatalf("content: %q", data)
			}
			if v := views[i]; v.index != index || v.hasText != hasText || v.text != text {
				t.Fatalf("choice %d: view %+v, json index %d text %q (%v): %q", i, v, index, text, hasText, data)
			}
		}
		if s.meta == nil {
			t.Fatal("no metadata kept")
		}
	})
}
