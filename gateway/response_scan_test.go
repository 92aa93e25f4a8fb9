package gateway

import (
	"bytes"
	"reflect"
	"testing"
)

// responseCorpus are upstream answers for the fast path and the encoding/json path; the
// first fastResponses must take the fast path.
var responseCorpus = []string{
	`{"id":"c","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"Il fatturato è 21956.62 €."},"finish_reason":"stop"}],"usage":{"prompt_tokens":1}}`,
	`{"choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_0","type":"function","function":{"name":"execute_metric","arguments":"{\"metric\":\"revenue\"}"}}]},"finish_reason":"tool_calls"}]}`,
	`{"choices":[{"message":{"content":"a"}},{"message":{"content":[{"text":"b"},{"text":"c"}],"tool_calls":[null,{"name":"flat","arguments":{"x":1}},{"function":{"arguments":null}}]}}]}`,
	`{"choices":[{"message":{"tool_calls":null,"content":null}}]}`,
	`{"choices":[{"message":{"tool_calls":[]}}]}`,
	`{"choices":[]}`,
	`{"choices":null}`,
	`{"choices":[{"message":{}}],"choices_extra":1,"message":2}`,
	`{"choices":[{"message":{"content":"esc \u00e8 \n \ud83d\ude00","Content":"other key"}}]}`,
	// Handed to encoding/json.
	`{"choices":[{"message":{"tool_calls":[{"ID":"folded","FUNCTION":{"Name":"f"}}]}}]}`,
	`{"choices":[{"message":{"tool_calls":[{"id":"a","type":"function","function":{"name":"f"},"Function":{"name":"g"}}]}}]}`,
	`{"choices":[{"message":{"tool_calls":[{"id":"a","Type":"function"}]}}]}`,
	`{"choices":[{"message":{"content":"a","function_call":{"name":"f"}}}]}`,
	`{"choices":[{"message":{"content":"a","function_call":null}}]}`,
	`{"choices":[{"message":{"content":"a"}}],"choices":[{"message":{"content":"b"}}]}`,
	`{"choices":[{"message":{"content":"a","content":"b"}}]}`,
	`{"choices":[{"message":{"content":"a"},"message":{"content":"b"}}]}`,
	`{"choices":[{"m\u0065ssage":{"content":"a"}}]}`,
	`{"choices":[{"message":{"content":5}}]}`,
	`{"choices":[{"message":{"tool_calls":[1]}}]}`,
	`{"choices":[{"message":{"tool_calls":{}}}]}`,
	`{"choices":[{"message":null}]}`,
	`{"choices":[{}]}`,
	`{"choices":[null]}`,
	`{"choices":{}}`,
	`{}`,
	`null`,
	`not json`,
	`{"choices":[{"message":{"content":"a"}}]}x`,
}

const fastResponses = 9

func TestChatResponseFastPathAgrees(t *testing.T) {
	for i, body := range responseCorpus {
		fast := checkChatResponsePaths(t, []byte(body))
		if i < fastResponses && !fast {
			t.Errorf("corpus %d took the encoding/json path: %s", i, body)
		}
	}
}

func checkChatResponsePaths(t *testing.T, body []byte) bool {
	t.Helper()
	fast, ok := scanChatResponse(bytes.Clone(body))
	slow, err := decodeChatResponseJSON(bytes.Clone(body))
	if !ok {
		return false
	}
	if err != nil {
		t.Fatalf("fast path accepted what encoding/json refuses (%v): %q", err, body)
	}
	if len(fast.choices) != len(slow.choices) {
		t.Fatalf("%q: fast %d choices, json %d", body, len(fast.choices), len(slow.choices))
	}
	for i, f := range fast.choices {
		s := slow.choices[i]
		if f.content != s.content || !reflect.DeepEqual(f.calls, s.calls) || !reflect.DeepEqual(f.rawCalls, s.rawCalls) {
			t.Fatalf("%q choice %d:\nfast %q %+v %q\njson %q %+v %q", body, i, f.content, f.calls, f.rawCalls, s.content, s.calls, s.rawCalls)
		}
	}
	if err := fast.loadRaw(); err != nil {
		t.Fatalf("%q: loadRaw: %v", body, err)
	}
	if !reflect.DeepEqual(fast.raw, slow.raw) {
		t.Fatalf("%q: raw maps differ", body)
	}
	for i, f := range fast.choices {
		if !reflect.DeepEqual(f.raw, slow.choices[i].raw) || !reflect.DeepEqual(f.msg, slow.choices[i].msg) {
			t.Fatalf("%q choice %d: raw maps differ", body, i)
		}
	}
	return true
}

func FuzzChatResponsePaths(f *testing.F) {
	for _, body := range responseCorpus {
		f.Add([]byte(body))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		checkChatResponsePaths(t, body)
	})
}
