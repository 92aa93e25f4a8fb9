package openai

import (
	"reflect"
	"slices"
	"testing"

	"github.com/weirgw/weir/gateway/chat"
	"github.com/weirgw/weir/gateway/internal/clientview"
)

// FuzzCompletion: whatever DecodeCompletion accepts, EncodeCompletion writes so that both
// client families read exactly the decoded texts and calls.
func FuzzCompletion(f *testing.F) {
	for _, s := range []string{
		`{"id":"x","choices":[{"index":0,"message":{"role":"assistant","content":"a","tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{\"a\":1}"}}]},"finish_reason":"stop"}]}`,
		`{"choices":[{"message":{"content":[{"type":"text","text":"x"}],"refusal":"r","reasoning_content":"z"}}],"usage":{"prompt_tokens":1}}`,
		`{"choices":[{"message":{"tool_calls":[{"id":"c","type":"custom","custom":{"name":"g","input":"\u2028"}}]}}]}`,
		`{"choices":[{"index":2,"message":{}},{"index":1,"message":{"content":"\ud83d\ude00"}}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		c, err := DecodeCompletion(body)
		if err != nil {
			return
		}
		out := EncodeCompletion(c, c.Answer.Choices)
		exact, fold, err := clientview.ReadCompletion(out)
		if err != nil {
			t.Fatalf("%s does not read: %v", out, err)
		}
		if d := clientview.Diff(exact, fold); d != "" {
			t.Fatalf("the client families disagree on %s:\n%s", out, d)
		}
		if d := clientview.Diff(exact, viewOf(c.Answer.Choices)); d != "" {
			t.Fatalf("the clients read other than what was decoded from %q:\n%s", body, d)
		}
	})
}

// viewOf is what a client should read of the choices.
func viewOf(choices []chat.Choice) clientview.View {
	var v clientview.View
	for _, c := range choices {
		cc := clientview.Choice{Index: c.Index, Content: c.Texts.Get(chat.Content), Refusal: c.Texts.Get(chat.Refusal),
			Reasoning: c.Texts.Get(chat.Reasoning), FinishReason: c.Finish}
		for _, call := range c.Calls {
			vc := clientview.Call{ID: call.ID, Type: call.Type, Name: call.Name, Arguments: call.Arguments}
			if call.Type == "custom" {
				vc.Arguments, vc.Input = "", call.Arguments
			}
			cc.Calls = append(cc.Calls, vc)
		}
		v.Choices = append(v.Choices, cc)
	}
	slices.SortFunc(v.Choices, func(a, b clientview.Choice) int { return a.Index - b.Index })
	return v
}

// FuzzLaterChunk: DecodeLaterChunk, the reading of a stream's later chunks that keeps no
// metadata, accepts and refuses exactly what DecodeChunk does, with the same error, and
// reads the same chunk but for the metadata; a chunk decoded before into the same memory
// leaves nothing behind.
func FuzzLaterChunk(f *testing.F) {
	for _, s := range []string{
		`{"id":"s","object":"chat.completion.chunk","created":1,"model":"m","system_fingerprint":"fp","service_tier":"default","choices":[{"index":0,"delta":{"content":"a"},"finish_reason":null}]}`,
		`{"id":"s","object":"chat.completion.chunk","created":1,"model":"m","obfuscation":"xyz","choices":[{"index":1,"delta":{"role":"assistant","refusal":"no","tool_calls":[{"index":0,"id":"c","type":"function","function":{"name":"f","arguments":"{\"a"}}]},"finish_reason":null}]}`,
		`{"id":"s","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":850,"completion_tokens":60,"total_tokens":910,"completion_tokens_details":{"reasoning_tokens":2}}}`,
		`{"id":"other","created":2,"model":"n","choices":[{"delta":{"reasoning_content":"r","content":[{"type":"text","text":"x"}]},"finish_reason":"stop"}]}`,
		`{"id":null,"created":null,"model":null,"system_fingerprint":null,"choices":null}`,
		`{"id":{},"created":1.5,"model":["m"],"system_fingerprint":true,"service_tier":7,"choices":[]}`,
		`{"created":1e400,"id":"\u0073","model":"\ud83d\ude00","choices":[]}`,
		`{"id":"a","id":"b","choices":[]}`,
		`{"id":"a","ID":"b","choices":[]}`,
		`{"Model":"m","choices":[]}`,
		`{"systemfingerprint":"x","choices":[]}`,
		`{"system-fingerprint":"x","choices":[]}`,
		`{"Object":"chat.completion.chunk","choices":[]}`,
		`{"object":"a","object":"b","choices":[]}`,
		`{"model":"\ud800","choices":[]}`,
		`{"model":"m"` + "\xff" + `,"choices":[]}`,
		`{"error":{"message":"overloaded"}}`,
		`{"error":null,"choices":[]}`,
		`{"choices":[{"delta":{"Content":"x"}}]}`,
		`{"choices":[{"delta":{"content":"x","content":"y"}}]}`,
		`{"choices":[{"delta":{"tool_calls":[{"index":0,"type":"mcp"}]}}]}`,
		`{"choices":[{"delta":{"function_call":{"name":"f"}}}]}`,
		`{"choices":[{"index":0,"delta":{}},{"index":0,"delta":{}}]}`,
		`{"choices":"x"}`,
		`[]`,
		``,
	} {
		f.Add([]byte(s))
	}
	before := []byte(`{"id":"p","created":9,"model":"p","choices":[{"index":3,"delta":{"role":"assistant","content":"old","tool_calls":[{"index":0,"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]},"finish_reason":"stop"}],"usage":{"total_tokens":5},"error":{}}`)
	f.Fuzz(func(t *testing.T, data []byte) {
		var later Chunk
		if err := DecodeLaterChunk(&later, before); err != nil {
			t.Fatal(err)
		}
		lerr := DecodeLaterChunk(&later, data)
		full, ferr := DecodeChunk(data)
		if (lerr == nil) != (ferr == nil) || lerr != nil && lerr.Error() != ferr.Error() {
			t.Fatalf("%q: DecodeLaterChunk's error %v, DecodeChunk's %v", data, lerr, ferr)
		}
		if ferr != nil {
			return
		}
		if later.meta.members != nil || later.meta.buf != nil {
			t.Fatalf("%q: DecodeLaterChunk kept metadata %v", data, later.meta)
		}
		full.meta = metadata{}
		if len(later.Deltas) == 0 && len(full.Deltas) == 0 {
			later.Deltas, full.Deltas = nil, nil
		}
		if !reflect.DeepEqual(later, *full) {
			t.Fatalf("%q: DecodeLaterChunk read %+v, DecodeChunk %+v", data, later, *full)
		}
	})
}
