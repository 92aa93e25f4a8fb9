package openai

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/weirgw/weir/gateway/chat"
	"github.com/weirgw/weir/gateway/internal/clientview"
)

func TestDecodeRequest(t *testing.T) {
	tests := []struct {
		name, body string
		question   string
		tools      []string
		choice     chat.ToolChoice
		endUser    string
		code       string // refused with this code
		msg        string
	}{
		{name: "plain", body: `{"model":"m","messages":[{"role":"system","content":"s"},{"role":"user","content":"Ciao"}],"user":"u1"}`,
			question: "Ciao", endUser: "u1"},
		{name: "text parts only", body: `{"messages":[{"role":"user","content":[{"type":"text","text":"a"},{"type":"image_url","image_url":{"url":"u"}},{"type":"text","text":"b"}]}]}`,
			question: "a\nb"},
		{name: "tools and a named choice", body: `{"messages":[{"role":"user","content":"q"}],"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object"}}},{"type":"custom","custom":{"name":"g"}}],"tool_choice":{"type":"function","function":{"name":"f"}}}`,
			question: "q", tools: []string{"f", "g"}, choice: chat.ToolChoice{Mode: "named", Name: "f"}},
		{name: "no messages", body: `{"model":"m"}`, code: CodeInvalid, msg: "messages is required"},
		{name: "not an object", body: `[1]`, code: CodeInvalid, msg: "not a JSON object"},
		{name: "empty", body: ` `, code: CodeInvalidJSON, msg: "empty"},
		{name: "case twin", body: `{"messages":[{"role":"user","content":"a","Content":"b"}]}`, code: CodeAmbiguous, msg: "differs only in case"},
		{name: "lone case variant", body: `{"Messages":[{"role":"user","content":"a"}]}`, code: CodeInvalid, msg: `"Messages" differs only in case`},
		{name: "loose variant", body: `{"messages":[{"role":"user","content":"a"}],"toolchoice":"none"}`, code: CodeInvalid, msg: `"toolchoice" differs only in case from "tool_choice"`},
		{name: "unknown parameter", body: `{"messages":[{"role":"user","content":"a"}],"plugins":[]}`, code: CodeUnsupported, msg: `"plugins"`},
		{name: "unknown message key", body: `{"messages":[{"role":"user","content":"a","text":"b"}]}`, code: CodeUnsupported, msg: `messages[0].text`},
		{name: "function role", body: `{"messages":[{"role":"function","content":"a"}]}`, code: CodeUnsupported, msg: "role"},
		{name: "functions", body: `{"messages":[{"role":"user","content":"a"}],"functions":[{"name":"f"}]}`, code: CodeUnsupported, msg: "deprecated"},
		{name: "tool without a name", body: `{"messages":[{"role":"user","content":"a"}],"tools":[{"type":"function","function":{}}]}`, code: CodeInvalid, msg: "name is required"},
		{name: "a tool's definition of the other type", body: `{"messages":[{"role":"user","content":"a"}],"tools":[{"type":"function","custom":{"name":"f"}}]}`, code: CodeInvalid, msg: `has no "custom"`},
		{name: "ambiguous history arguments", body: `{"messages":[{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{\"a\":1,\"a\":2}"}}]}]}`, code: CodeInvalid, msg: "ambiguous"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := DecodeRequest([]byte(tc.body))
			var ce *Error
			if tc.code != "" {
				if !errors.As(err, &ce) || ce.Code != tc.code || !strings.Contains(ce.Message, tc.msg) {
					t.Fatalf("err = %v, want %s containing %q", err, tc.code, tc.msg)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, tool := range r.Chat.Tools {
				names = append(names, tool.Name)
			}
			if r.Chat.Question != tc.question || !slices.Equal(names, tc.tools) || r.Chat.ToolChoice != tc.choice || r.Chat.EndUser != tc.endUser {
				t.Errorf("got %+v", r.Chat)
			}
		})
	}
}

// TestEncodeRequestNarrows: the forwarded request offers only the kept tools, and both
// client families read the same request as Weir encoded it.
func TestEncodeRequestNarrows(t *testing.T) {
	keep := func(name string) bool { return name == "ok" }
	tests := []struct {
		name, body string
		tools      []string
		choice     string
		dropped    []string // keys that must not be forwarded
	}{
		{name: "some kept", body: `{"messages":[{"role":"user","content":"q"}],"tools":[{"type":"function","function":{"name":"ok"}},{"type":"function","function":{"name":"no"}}],"tool_choice":"required","temperature":0}`,
			tools: []string{"ok"}, choice: "required"},
		{name: "none kept", body: `{"messages":[{"role":"user","content":"q"}],"tools":[{"type":"function","function":{"name":"no"}}],"tool_choice":"auto","parallel_tool_calls":true}`,
			dropped: []string{"tools", "tool_choice", "parallel_tool_calls"}},
		{name: "forced removed tool", body: `{"messages":[{"role":"user","content":"q"}],"tools":[{"type":"function","function":{"name":"ok"}},{"type":"function","function":{"name":"no"}}],"tool_choice":{"type":"function","function":{"name":"no"}}}`,
			tools: []string{"ok"}, dropped: []string{"tool_choice"}},
		{name: "allowed_tools filtered", body: `{"messages":[{"role":"user","content":"q"}],"tools":[{"type":"function","function":{"name":"ok"}},{"type":"function","function":{"name":"no"}}],"tool_choice":{"type":"allowed_tools","allowed_tools":{"mode":"auto","tools":[{"type":"function","function":{"name":"no"}},{"type":"function","function":{"name":"ok"}}]}}}`,
			tools: []string{"ok"}, choice: "allowed:ok"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := DecodeRequest([]byte(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			out := r.Encode(keep)
			exact, fold, err := clientview.ReadRequest(out)
			if err != nil {
				t.Fatalf("%s: %v", out, err)
			}
			if d := clientview.DiffRequest(exact, fold); d != "" {
				t.Fatalf("the client families read %s differently:\n%s", out, d)
			}
			if !slices.Equal(exact.Tools, tc.tools) {
				t.Errorf("tools %v, want %v in %s", exact.Tools, tc.tools, out)
			}
			var doc map[string]json.RawMessage
			_ = json.Unmarshal(out, &doc)
			for _, k := range tc.dropped {
				if _, ok := doc[k]; ok {
					t.Errorf("%s forwarded in %s", k, out)
				}
			}
			if tc.choice == "allowed:ok" && !strings.Contains(string(doc["tool_choice"]), `"ok"`) || strings.Contains(string(doc["tool_choice"]), `"no"`) {
				t.Errorf("tool_choice = %s", doc["tool_choice"])
			}
		})
	}
}

func TestDecodeCompletion(t *testing.T) {
	tests := []struct {
		name, body string
		want       []chat.Choice
		code       string
	}{
		{name: "text and calls", body: `{"id":"x","choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"assistant","content":"a","refusal":null,"tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{ \"b\" : 1 }"}}]}}]}`,
			want: []chat.Choice{{Index: 0, Role: "assistant", Finish: "tool_calls", Texts: texts(chat.Content, "a"), Calls: []chat.Call{{ID: "c", Type: "function", Name: "f", Arguments: `{"b":1}`}}}}},
		{name: "custom call and reasoning", body: `{"choices":[{"message":{"content":null,"reasoning_content":"r","tool_calls":[{"id":"c","type":"custom","custom":{"name":"g","input":"free text"}}]}}]}`,
			want: []chat.Choice{{Role: "assistant", Texts: texts(chat.Reasoning, "r"), Calls: []chat.Call{{ID: "c", Type: "custom", Name: "g", Arguments: "free text"}}}}},
		{name: "arguments that are not JSON", body: `{"choices":[{"message":{"tool_calls":[{"id":"c","function":{"name":"f","arguments":"{metric: x"}}]}}]}`,
			want: []chat.Choice{{Role: "assistant", Calls: []chat.Call{{ID: "c", Type: "function", Name: "f", Arguments: "{metric: x"}}}}},
		{name: "no choices", body: `{"id":"x"}`, code: CodeInvalidAnswer},
		{name: "legacy function_call", body: `{"choices":[{"message":{"function_call":{"name":"f"}}}]}`, code: CodeInvalidAnswer},
		{name: "case variant", body: `{"choices":[{"message":{"Tool_calls":[]}}]}`, code: CodeInvalidAnswer},
		{name: "duplicate", body: `{"choices":[{"message":{"content":"a","content":"b"}}]}`, code: CodeAmbiguousAnswr},
		{name: "unknown call type", body: `{"choices":[{"message":{"tool_calls":[{"type":"x","x":{}}]}}]}`, code: CodeInvalidAnswer},
		{name: "image part", body: `{"choices":[{"message":{"content":[{"type":"image_url"}]}}]}`, code: CodeInvalidAnswer},
		{name: "one index twice", body: `{"choices":[{"index":0,"message":{}},{"index":0,"message":{}}]}`, code: CodeAmbiguousAnswr},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := DecodeCompletion([]byte(tc.body))
			var ce *Error
			if tc.code != "" {
				if !errors.As(err, &ce) || ce.Code != tc.code {
					t.Fatalf("err = %v, want %s", err, tc.code)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(c.Answer.Choices, tc.want) {
				t.Errorf("got %+v\nwant %+v", c.Answer.Choices, tc.want)
			}
		})
	}
}

func texts(f chat.Field, s string) chat.Texts {
	var t chat.Texts
	t.Set(f, s)
	return t
}

// TestEncodeCompletionAgrees: what EncodeCompletion writes, both client families read as the
// choices it was given, and unknown members and logprobs are gone.
func TestEncodeCompletionAgrees(t *testing.T) {
	body := `{"id":"x","object":"chat.completion","created":7,"model":"m","x_extra":"dropped","usage":{"prompt_tokens":1,"note":"dropped","completion_tokens_details":{"reasoning_tokens":2}},` +
		`"choices":[{"index":0,"finish_reason":"stop","logprobs":{"content":[]},"message":{"role":"assistant","content":"a","annotations":[],"tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]}}]}`
	c, err := DecodeCompletion([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	out := EncodeCompletion(c, c.Answer.Choices)
	for _, gone := range []string{"x_extra", "dropped", "logprobs", "annotations"} {
		if strings.Contains(string(out), gone) {
			t.Errorf("%s forwarded: %s", gone, out)
		}
	}
	exact, fold, err := clientview.ReadCompletion(out)
	if err != nil {
		t.Fatal(err)
	}
	if d := clientview.Diff(exact, fold); d != "" {
		t.Fatal(d)
	}
	if got := exact.Choices[0]; got.Content != "a" || len(got.Calls) != 1 || got.Calls[0].Name != "f" || got.FinishReason != "stop" {
		t.Errorf("client reads %+v from %s", got, out)
	}
	if !strings.Contains(string(out), `"usage":{"prompt_tokens":1,"completion_tokens_details":{"reasoning_tokens":2}}`) {
		t.Errorf("usage = %s", out)
	}
}

// TestMetadataEncoded: the metadata is written back as read, id first, whatever its
// length (values past the shared buffer's first room), ill-typed members dropped.
func TestMetadataEncoded(t *testing.T) {
	long := strings.Repeat("x", 150)
	body := `{"model":"m-` + long + `","created":7,"id":"id-` + long + `","service_tier":null,"system_fingerprint":"fp\u2028` + long + `","choices":[{"message":{"content":"a"}}]}`
	c, err := DecodeCompletion([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":"id-` + long + `","object":"chat.completion","model":"m-` + long + `","created":7,"service_tier":null,"system_fingerprint":"fp\u2028` + long + `","choices":`
	if out := EncodeCompletion(c, c.Answer.Choices); !strings.HasPrefix(string(out), want) {
		t.Errorf("answer = %s\nwant it to begin with %s", out, want)
	}
	c, err = DecodeCompletion([]byte(`{"id":{},"created":1.5,"model":["m"],"system_fingerprint":true,"service_tier":"default","choices":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	if out := string(EncodeCompletion(c, nil)); out != `{"object":"chat.completion","service_tier":"default","choices":[]}` {
		t.Errorf("answer = %s", out)
	}
}

func TestDecodeChunk(t *testing.T) {
	c, err := DecodeChunk([]byte(`{"id":"s","object":"chat.completion.chunk","created":1,"model":"m","obfuscation":"xyz","choices":[{"index":1,"delta":{"role":"assistant","refusal":"no","tool_calls":[{"index":0,"id":"c","type":"function","function":{"name":"f","arguments":"{\"a"}}]},"finish_reason":null}]}`))
	if err != nil {
		t.Fatal(err)
	}
	d := c.Deltas[0]
	if d.Choice != 1 || d.Role != "assistant" || d.Texts.Get(chat.Refusal) != "no" || len(d.Calls) != 1 || d.Calls[0].Arguments != `{"a` {
		t.Errorf("delta = %+v", d)
	}
	enc := NewStreamEncoder(c)
	out := enc.Delta(nil, 1, "", &d.Texts, []chat.Call{{ID: "c", Type: "function", Name: "f", Arguments: "{}"}}, 0, "stop")
	if strings.Contains(string(out), "obfuscation") || !strings.Contains(string(out), `"id":"s","object":"chat.completion.chunk","created":1,"model":"m"`) {
		t.Errorf("chunk = %s", out)
	}
	for _, bad := range []string{
		`{"choices":[{"delta":{"Content":"x"}}]}`,
		`{"choices":[{"delta":{"content":"x","content":"y"}}]}`,
		`{"choices":[{"delta":{"tool_calls":[{"index":0,"type":"mcp"}]}}]}`,
		`{"choices":[{"delta":{"function_call":{"name":"f"}}}]}`,
		`{"choices":[{"index":0,"delta":{}},{"index":0,"delta":{}}]}`,
	} {
		if _, err := DecodeChunk([]byte(bad)); err == nil {
			t.Errorf("%s decoded", bad)
		}
	}
}

func TestCompleteCall(t *testing.T) {
	for _, tc := range []struct {
		in   chat.Call
		want string
		ok   bool
	}{
		{chat.Call{Name: "f", Arguments: `{ "a" : [1, 2] }`}, `{"a":[1,2]}`, true},
		{chat.Call{Name: "f", Arguments: `{"a":1,"a":2}`}, "", false},
		{chat.Call{Name: "f", Arguments: `{"A":1,"a":2}`}, "", false},
		{chat.Call{Name: "", Arguments: `{}`}, "", false},
		{chat.Call{Type: "mcp", Name: "f"}, "", false},
		{chat.Call{Type: "custom", Name: "g", Arguments: "{not json"}, "{not json", true},
	} {
		c, err := CompleteCall(tc.in, "call")
		if (err == nil) != tc.ok || (tc.ok && c.Arguments != tc.want) {
			t.Errorf("CompleteCall(%+v) = %+v, %v", tc.in, c, err)
		}
	}
}

func TestModelsAndErrors(t *testing.T) {
	out, err := EncodeModels([]byte(`{"object":"list","data":[{"id":"m1","object":"model","created":1,"owned_by":"o","description":"dropped"}],"extra":1}`))
	if err != nil || string(out) != `{"object":"list","data":[{"id":"m1","object":"model","created":1,"owned_by":"o"}]}` {
		t.Errorf("models = %s, %v", out, err)
	}
	ue := DecodeUpstreamError([]byte(`{"error":{"message":"secret sk-123 echoed","type":"rate_limit_error","code":"rate limit!","param":null}}`))
	if ue.Type != "rate_limit_error" || ue.Code != "" || ue.Param != "" {
		t.Errorf("upstream error = %+v", ue)
	}
	if got := string(EncodeError("m", "t", "c", "", "D")); got != `{"error":{"message":"m","type":"t","code":"c","decision_id":"D"}}` {
		t.Errorf("error = %s", got)
	}
}
