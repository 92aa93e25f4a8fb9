package gateway

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

// requestCorpus are chat request bodies for the fast path and the encoding/json path:
// usual requests, then every kind of input the fast path must hand over (escaped or
// duplicate keys, wrong types, odd whitespace, invalid JSON).
var requestCorpus = []string{
	`{"model":"m","messages":[{"role":"user","content":"hi"}]}`,
	` { "model" : "m" , "messages" : [ { "role" : "user" , "content" : "hi" } ] , "stream" : false } `,
	`{"messages":[{"role":"system","content":"Sei l'assistente. Usa gli strumenti: non inventare."},{"role":"user","content":"Qual è il fatturato?"}],` +
		`"tools":[{"type":"function","function":{"name":"execute_metric","description":"x","parameters":{"type":"object","properties":{"year":{"type":"integer","minimum":1,"maximum":1e3}}}}},` +
		`{"type":"function","function":{"name":"filter_data","parameters":{}}}],"tool_choice":"auto","temperature":0}`,
	`{"messages":[{"role":"user","content":"a"}],"tools":[{"type":"function","function":{"name":"filter_data"}}],"tool_choice":{"type":"function","function":{"name":"filter_data"}},"parallel_tool_calls":true}`,
	// Python's json.dumps separators, and an indented body.
	`{"messages": [{"role": "user", "content": "a"}], "model": "m", "tools": [{"type": "function", "function": {"name": "execute_metric"}}, {"type": "function", "function": {"name": "filter_data"}}], "tool_choice": {"type": "function", "function": {"name": "filter_data"}}, "parallel_tool_calls": true}`,
	"{\n  \"tools\": [\n    {\"function\": {\"name\": \"filter_data\"}}\n  ],\n  \"tool_choice\": \"required\",\n  \"messages\": [\n    {\"role\": \"user\", \"content\": \"a\"}\n  ],\n  \"parallel_tool_calls\": false\n}\n",
	`{"messages":[{"role":"user","content":"a"}],"tools":[{"function":{"name":"execute_metric"}},{"function":{"name":"filter_data"}}],"tool_choice":{"type":"function","function":{"name":"filter_data"}}}`,
	`{"tools":[{"name":"filter_data"},{"name":"execute_metric"}],"messages":[{"role":"user","content":"a"}],"parallel_tool_calls":false}`,
	`{"messages":[{"role":"user","content":[{"type":"text","text":"one"},{"type":"image_url","image_url":{"url":"x"}},null,{"text":"two"}]}]}`,
	`{"messages":[{"role":"user","content":[]}]}`,
	`{"messages":[{"role":"user","content":null}]}`,
	`{"messages":[null,{"role":"user","content":"x"}]}`,
	`{"messages":[{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"execute_metric","arguments":"{\"metric\":\"revenue\"}"}}]},` +
		`{"role":"tool","tool_call_id":"c1","name":"execute_metric","content":"{\"value\": 21956.62}"},{"role":"user","content":"e allora?"}]}`,
	`{"messages":[{"role":"assistant","tool_calls":[{"id":"c1","name":"flat","arguments":{"a":1}},null,{"id":"c2","function":null,"arguments":null}]},{"role":"user","content":"x"}]}`,
	`{"messages":[{"role":"assistant","tool_calls":[]},{"role":"user","content":"x"}]}`,
	`{"messages":[{"role":"assistant","tool_calls":null},{"role":"user","content":"x"}]}`,
	`{"messages":[{"role":"user","content":"x","tool_call_id":null,"name":null}],"user":"u-1"}`,
	`{"messages":[{"role":"user","content":"x"}],"user":42}`,
	`{"messages":[{"role":"user","content":"x"}],"user":null,"stream":null}`,
	`{"messages":[{"role":"user","content":"x"}],"stream":true}`,
	`{"messages":[{"role":"user","content":"esc \" \\ \/ \b \f \n \r \t \u00e8 \ud83d\ude00 \ud800"}]}`,
	"{\"messages\":[{\"role\":\"user\",\"content\":\"ok utf8 \u00e8\u2028<&>\"}]}",
	`{"messages":[{"role":"user","content":"x"}],"tools":null}`,
	`{"messages":[{"role":"user","content":"x"}],"tools":[]}`,
	`{"messages":[{"role":"user","content":"x"}],"tools":[1,"s",null,[],{"function":"str","name":"flat"},{"function":{"name":5},"name":"flat2"}]}`,
	`{"messages":[{"role":"user","content":"x"}],"tools":[{"FUNCTION":{"NAME":"execute_metric"}},{"function":{"name":"a"},"function":{"other":1}}]}`,
	`{"messages":[{"role":"user","content":"x"}],"tools":[{"function":{"n\u0061me":"execute_metric"}}]}`,
	`{"messages":[{"role":"user","content":"x"}],"tools":[{"function":{"name":"a"}},{"typ\u0065":"function","function":{"name":"execute_metric"}},{"function":{"name":"b","parameters":{"pr\u006fperties":{}}}}]}`,
	`{"messages":[{"role":"user","content":"x"}],"extra":{"deep":[[[[{"a":[1,2.5,-0.1e-7,true,false,null]}]]]]}}`,
	// Handed to encoding/json: it decides, and it reports the error.
	`{"messages":[{"Role":"user","CONTENT":"folded keys"}]}`,
	"{\"messages\":[{\"role\":\"user\",\"content\":\"bad utf8 \xff\xfe end\"}]}",
	`{"messages":[{"role":"assistant","tool_calls":[{"id":"c","Function":{"name":"x"}}]},{"role":"user","content":"x"}]}`,
	`{"messages":[{"role":"assistant","tool_calls":[{"id":"c","function":{"name":"x","Arguments":"{}"}}]},{"role":"user","content":"x"}]}`,
	`{"messages":[{"role":"user","content":[{"Text":"x"}]}]}`,
	`{"messages":[{"role":"user","content":"x"}],"functions":[{"name":"filter_data"}]}`,
	`{"messages":[{"role":"user","content":"x"}],"function_call":null}`,
	`{"m\u0065ssages":[{"role":"user","content":"escaped key"}]}`,
	`{"messages":[{"role":"user","content":"first"}],"messages":[{"role":"user","content":"second"}]}`,
	`{"messages":[{"role":"user","role":"assistant","content":"dup field"}]}`,
	`{"messages":[{"role":"assistant","tool_calls":[{"id":"a","id":"b"}]},{"role":"user","content":"x"}]}`,
	`{"messages":[{"role":"user","content":"x"}],"stream":"yes"}`,
	`{"messages":[{"role":"user","content":"x"}],"tools":{"a":1}}`,
	`{"messages":[{"role":1,"content":"x"}]}`,
	`{"messages":[{"role":"user","content":{"text":"x"}}]}`,
	`{"messages":[{"role":"user","content":[{"text":5}]}]}`,
	`{"messages":[{"role":"user","content":["s"]}]}`,
	`{"messages":[{"role":"assistant","tool_calls":[{"function":"x"}]},{"role":"user","content":"x"}]}`,
	`{"messages":[{"role":"assistant","tool_calls":["x"]},{"role":"user","content":"x"}]}`,
	`{"messages":[]}`,
	`{"messages":null}`,
	`{"messages":{}}`,
	`{"model":"m"}`,
	`null`,
	`[]`,
	``,
	`{"messages":[{"role":"user","content":"x"}]} trailing`,
	`{"messages":[{"role":"user","content":"x"}],}`,
	`{"messages":[{"role":"user","content":"x",}]}`,
	`{"messages":[{"role":"user","content":"x"}]`,
	`{"messages":[{"role":"user","content":"x"}],"n":01}`,
	`{"messages":[{"role":"user","content":"x"}],"n":1.}`,
	`{"messages":[{"role":"user","content":"x"}],"n":-}`,
	`{"messages":[{"role":"user","content":"x"}],"n":1e}`,
	`{"messages":[{"role":"user","content":"x"}],"n":tru}`,
	`{"messages":[{"role":"user","content":"bad \x escape"}]}`,
	`{"messages":[{"role":"user","content":"bad \u12 escape"}]}`,
	"{\"messages\":[{\"role\":\"user\",\"content\":\"control \x01 char\"}]}",
	"{\"messages\":[{\"role\":\"user\",\"content\":\"x\"}],\"k\xff\":1}",
}

// fastRequests must take the fast path: if they stop doing so, the gateway silently
// loses its speed.
var fastRequests = requestCorpus[:29]

func TestChatRequestFastPathAgrees(t *testing.T) {
	for i, body := range requestCorpus {
		fast := checkChatRequestPaths(t, []byte(body))
		if i < len(fastRequests) && !fast {
			t.Errorf("corpus %d took the encoding/json path: %s", i, body)
		}
	}
}

// checkChatRequestPaths decodes body on both paths and fails the test where they
// disagree; it reports whether the fast path took body.
func checkChatRequestPaths(t *testing.T, body []byte) bool {
	t.Helper()
	fast, ok := scanChatRequest(bytes.Clone(body))
	slow, err := decodeChatRequestJSON(bytes.Clone(body))
	if !ok {
		return false
	}
	if err != nil {
		t.Fatalf("fast path accepted what encoding/json refuses (%v): %q", err, body)
	}
	if !reflect.DeepEqual(fast.Messages, slow.Messages) || !reflect.DeepEqual(fast.Tools, slow.Tools) ||
		fast.Stream != slow.Stream || fast.User != slow.User {
		t.Fatalf("paths disagree on %q:\nfast %+v %q %v %q\njson %+v %q %v %q", body,
			fast.Messages, fast.Tools, fast.Stream, fast.User, slow.Messages, slow.Tools, slow.Stream, slow.User)
	}
	for _, tool := range fast.Tools {
		if a, b := toolName(tool), toolNameJSON(tool); a != b {
			t.Fatalf("toolName(%s) = %q, encoding/json %q", tool, a, b)
		}
	}
	if len(fast.toolNames) != len(fast.Tools) {
		t.Fatalf("%d tool names read with %d tools: %q", len(fast.toolNames), len(fast.Tools), body)
	}
	for i, tool := range fast.Tools {
		if a, b := fast.toolNames[i], toolNameJSON(tool); a != b {
			t.Fatalf("tool %d named %q in the scan, %q by encoding/json: %q", i, a, b, body)
		}
	}
	for _, allowed := range [][]string{nil, {"execute_metric"}, {"filter_data", "flat"}, {"execute_metric", "filter_data", "flat", "flat2", "a"}} {
		f, s := *fast, *slow
		s.raw = cloneRaw(slow.raw)
		rf, rs := f.narrowTools(allowed), s.narrowTools(allowed)
		if !reflect.DeepEqual(rf, rs) {
			t.Fatalf("narrowTools(%v) on %q: fast removed %q, json %q", allowed, body, rf, rs)
		}
		bf, _ := f.encode()
		bs, _ := s.encode()
		if !sameJSON(bf, bs) {
			t.Fatalf("narrowTools(%v) on %q forwards\nfast %s\njson %s", allowed, body, bf, bs)
		}
	}
	return true
}

func cloneRaw(m map[string]json.RawMessage) map[string]json.RawMessage {
	out := make(map[string]json.RawMessage, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// sameJSON reports whether a and b are the same JSON value (encoding/json's view).
func sameJSON(a, b []byte) bool {
	var va, vb any
	if json.Unmarshal(a, &va) != nil || json.Unmarshal(b, &vb) != nil {
		return false
	}
	return reflect.DeepEqual(va, vb)
}

func TestToolNameFastPathAgrees(t *testing.T) {
	for _, raw := range []string{
		`{"type":"function","function":{"name":"a","parameters":{"x":[1,{"name":"inner"}]}}}`,
		`{"name":"flat"}`, `{"function":{"name":""},"name":"flat"}`, `{"function":null,"name":"flat"}`,
		`{"function":{"name":"a"},"function":{"name":"b"}}`, `{"function":{"name":"a"},"function":{"x":1}}`,
		`{"name":"a","name":null}`, `{"Name":"folded"}`, `{"function":{"NAME":"folded"}}`,
		`"auto"`, `null`, `3`, `[]`, `{}`, `{"function":[1],"name":{"a":1}}`, `{"n\u0061me":"escaped"}`,
		`{"name":"\u0065scaped value"}`, "{\"\u212aey\":1,\"name\":\"kelvin\"}",
	} {
		if a, b := toolName(json.RawMessage(raw)), toolNameJSON(json.RawMessage(raw)); a != b {
			t.Errorf("toolName(%s) = %q, encoding/json %q", raw, a, b)
		}
	}
}

func FuzzChatRequestPaths(f *testing.F) {
	for _, body := range requestCorpus {
		f.Add([]byte(body))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		checkChatRequestPaths(t, body)
		for _, word := range []string{"stream", "function_call"} {
			if got, want := hasQuoted(body, word), bytes.Contains(body, []byte(`"`+word+`"`)); got != want {
				t.Fatalf("hasQuoted(%q, %s) = %v, bytes.Contains %v", body, word, got, want)
			}
		}
	})
}

func TestStreamingAgreesWithWantsStream(t *testing.T) {
	bodies := append([]string{
		`{"stream":true,"messages":[]}`, `{"stream":false}`, `{"stream":null}`, `{"stream":"yes"}`,
		`{"stream":true,"stream":false}`, `{"stream":false,"stream":true}`, `{"stream":true,"stream":null}`,
		`{"stream":true,"stream":1}`, `{"stream":1,"stream":true}`, `{"Stream":true,"x":"\"stream\""}`,
		`{"st\u0072eam":true,"x":"\"stream\""}`, `{"stream":true} x`, `{"stream":true`, `["stream"]`, `null`,
		`{"messages":[{"role":"user","content":"\"stream\": true"}]}`,
		`stream"`, `"stream`, `"stream"`, `{"xstream":true,"stream" :true}`, `{"upstream":true}`, `{"streams":1,"stream\"":true}`,
	}, requestCorpus...)
	for _, body := range bodies {
		if got, want := streaming([]byte(body)), wantsStream([]byte(body)); got != want {
			t.Errorf("streaming(%s) = %v, wantsStream %v", body, got, want)
		}
		if got, want := hasQuoted([]byte(body), "stream"), bytes.Contains([]byte(body), []byte(`"stream"`)); got != want {
			t.Errorf("hasQuoted(%s, stream) = %v, bytes.Contains %v", body, got, want)
		}
	}
}
