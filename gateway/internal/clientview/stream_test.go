package clientview

import (
	"reflect"
	"strings"
	"testing"
)

// sse builds a stream body from data payloads, one event each.
func sse(data ...string) string {
	var b strings.Builder
	for _, d := range data {
		b.WriteString("data: " + d + "\n\n")
	}
	return b.String()
}

// TestReadStream assembles streams as the SDKs do and shows where the readers differ.
func TestReadStream(t *testing.T) {
	cases := []struct {
		name        string
		body        string
		exact, fold View
	}{
		{
			name: "content and tool calls assembled; comments, CRLF and multi-line data",
			body: ": keep-alive\r\n\r\n" +
				"data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Hel\"}}]}\r\n\r\n" +
				"data: {\"choices\":[{\"index\":0,\r\ndata: \"delta\":{\"content\":\"lo\"}}]}\n\n" +
				sse(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","type":"function","function":{"name":"f","arguments":"{\"x\""}}]}}]}`,
					`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"b","type":"function","function":{"name":"g","arguments":""}}]}}]}`,
					`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":":1}"}}]}}]}`,
					`{"choices":[{"index":1,"delta":{"reasoning_content":"think","refusal":"No"}}]}`,
					`{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"},{"index":1,"delta":{},"finish_reason":"stop"}]}`,
					`{"choices":[],"usage":{"total_tokens":3}}`,
					`[DONE]`),
			exact: View{Choices: []Choice{
				{Index: 0, Content: "Hello", FinishReason: "tool_calls", Calls: []Call{
					{ID: "a", Type: "function", Name: "f", Arguments: `{"x":1}`},
					{ID: "b", Type: "function", Name: "g"}}},
				{Index: 1, Refusal: "No", Reasoning: "think", FinishReason: "stop"}}},
		},
		{
			name: "a Content delta: only the Go reader shows it",
			body: sse(`{"choices":[{"index":0,"delta":{"content":"safe "}}]}`,
				`{"choices":[{"index":0,"delta":{"Content":"evil"}}]}`, `[DONE]`),
			exact: View{Choices: []Choice{{Content: "safe "}}},
			fold:  View{Choices: []Choice{{Content: "safe evil"}}},
		},
		{
			name: "a duplicate arguments key: both read the last",
			body: sse(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","type":"function",`+
				`"function":{"name":"f","arguments":"{}","arguments":"{\"rm\":true}"}}]}}]}`, `[DONE]`),
			exact: View{Choices: []Choice{{Calls: []Call{{ID: "a", Type: "function", Name: "f", Arguments: `{"rm":true}`}}}}},
		},
		{
			name: "a folded index: the Go reader moves the fragment",
			body: sse(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","type":"function","function":{"name":"f"}}]}}]}`,
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"Index":1,"function":{"arguments":"x"}}]}}]}`),
			exact: View{Choices: []Choice{{Calls: []Call{{ID: "a", Type: "function", Name: "f", Arguments: "x"}}}}},
			fold: View{Choices: []Choice{{Calls: []Call{{ID: "a", Type: "function", Name: "f"}, {Arguments: "x"}}}},
				Notes: nil},
		},
		{
			name: "an error event stops both readers",
			body: sse(`{"choices":[{"index":0,"delta":{"content":"a"}}]}`,
				`{"error":{"message":"upstream failed","type":"server_error"}}`,
				`{"choices":[{"index":0,"delta":{"content":"b"}}]}`),
			exact: View{Choices: []Choice{{Content: "a"}}, Error: "upstream failed"},
		},
		{
			name: "an Error key: only the Go reader stops",
			body: sse(`{"choices":[{"index":0,"delta":{"content":"a"}}]}`,
				`{"Error":{"message":"stop here"}}`,
				`{"choices":[{"index":0,"delta":{"content":"b"}}]}`),
			exact: View{Choices: []Choice{{Content: "ab"}}},
			fold:  View{Choices: []Choice{{Content: "a"}}, Error: "stop here"},
		},
		{
			name:  "a null error is no error",
			body:  sse(`{"choices":[{"index":0,"delta":{"content":"a"}}],"error":null}`, `[DONE]`),
			exact: View{Choices: []Choice{{Content: "a"}}},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.fold.Choices == nil && tc.fold.Error == "" {
				tc.fold = tc.exact
			}
			exact, fold, err := ReadStream([]byte(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			if d := Diff(exact, tc.exact); d != "" {
				t.Errorf("exact reader, got != want:\n%s", d)
			}
			if d := Diff(fold, tc.fold); d != "" {
				t.Errorf("fold reader, got != want:\n%s", d)
			}
			if agree := reflect.DeepEqual(tc.exact, tc.fold); agree != (Diff(exact, fold) == "") {
				t.Errorf("Diff(exact, fold) = %q, want the readers to agree: %v", Diff(exact, fold), agree)
			}
		})
	}
}

// TestStreamNotes checks the notes on constructs the SDKs assemble differently.
func TestStreamNotes(t *testing.T) {
	cases := []struct{ name, body, note string }{
		{"id repeated", sse(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"f"}}]}}]}`,
			`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a"}]}}]}`),
			`choice 0 call 0: id in two fragments ("a", then "a")`},
		{"name repeated", sse(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"name":"rea"}}]}}]}`,
			`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"name":"d"}}]}}]}`),
			`choice 0 call 0: function.name in two fragments ("rea", then "d")`},
		{"fragment without index", sse(`{"choices":[{"index":0,"delta":{"tool_calls":[{"id":"a"}]}}]}`),
			`choice 0: a tool call fragment without an index (openai-python refuses it), read as index 0`},
		{"gap in tool call indexes", sse(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"a"}]}}]}`),
			`choice 0: no fragment for tool call index 0`},
		{"content after finish", sse(`{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`,
			`{"choices":[{"index":0,"delta":{"content":"late"}}]}`),
			`choice 0: data after its finish_reason (openai-go clears a finish_reason no later chunk repeats)`},
		{"events after DONE", sse(`{"choices":[]}`, `[DONE]`, `{"choices":[{"index":0,"delta":{"content":"x"}}]}`),
			`1 events after [DONE], ignored`},
		{"no blank line at the end", "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"x\"}}]}\n",
			`the last event has no blank line after it; dropped`},
		{"empty error object", sse(`{"error":{}}`),
			`error member "{}" is an error to openai-node, none to openai-python`},
		{"named event", "event: ping\ndata: {}\n\n", `event 0 named "ping", skipped`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			exact, fold, err := ReadStream([]byte(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range []View{exact, fold} {
				if len(v.Notes) != 1 || v.Notes[0] != tc.note {
					t.Errorf("notes %q, want %q", v.Notes, tc.note)
				}
			}
		})
	}
}

// TestReadStreamErrors checks that data a client cannot decode is an error.
func TestReadStreamErrors(t *testing.T) {
	for _, body := range []string{sse(`{"choices":`), sse(`"text"`), sse(`{"choices":[{"index":"0"}]}`)} {
		if _, _, err := ReadStream([]byte(body)); err == nil {
			t.Errorf("ReadStream(%q): no error", body)
		}
	}
}

// TestSplitSSE checks the event framing.
func TestSplitSSE(t *testing.T) {
	body := "retry: 10\r\n:comment\rdata:a\rdata:  b\r\n\r\nevent: x\ndata\n\n\n\ndata: c\n\nid: 1\n\n"
	events, notes := splitSSE([]byte(body))
	want := []event{{data: "a\n b"}, {name: "x", data: ""}, {data: "c"}}
	if !reflect.DeepEqual(events, want) || notes != nil {
		t.Errorf("got %q %q, want %q", events, notes, want)
	}
}
