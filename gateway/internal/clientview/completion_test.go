package clientview

import (
	"reflect"
	"strings"
	"testing"
)

// TestReadCompletion shows, document by document, what each reader sees: where they
// agree and where a key's case, a duplicate, a null or the Unicode folding of
// encoding/json makes them differ.
func TestReadCompletion(t *testing.T) {
	msg := func(content string) View { return View{Choices: []Choice{{Content: content}}} }
	cases := []struct {
		name        string
		body        string
		exact, fold View
	}{
		{
			name: "canonical completion: both agree",
			body: `{"id":"c1","choices":[{"index":0,"message":{"role":"assistant","content":"Hi","refusal":null,
				"tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":"{\"x\":1}"}},
				{"id":"b","type":"custom","custom":{"name":"g","input":"raw"}}]},"finish_reason":"tool_calls"},
				{"index":1,"message":{"content":null,"refusal":"No."},"finish_reason":"stop"}]}`,
			exact: View{Choices: []Choice{
				{Index: 0, Content: "Hi", FinishReason: "tool_calls", Calls: []Call{
					{ID: "a", Type: "function", Name: "f", Arguments: `{"x":1}`},
					{ID: "b", Type: "custom", Name: "g", Input: "raw"}}},
				{Index: 1, Refusal: "No.", FinishReason: "stop"}}},
		},
		{
			name:  "a duplicate content: both read the last, a first-wins scanner the other",
			body:  `{"choices":[{"message":{"content":"safe","content":"evil"}}]}`,
			exact: msg("evil"),
		},
		{
			name:  "Content alone: only the Go struct reader sees it",
			body:  `{"choices":[{"message":{"role":"assistant","Content":"evil"}}]}`,
			exact: msg(""),
			fold:  msg("evil"),
		},
		{
			name:  "Content beside content: each reader reads another",
			body:  `{"choices":[{"message":{"Content":"evil","content":"safe"}}]}`,
			exact: msg("safe"),
			fold:  msg("safe"),
		},
		{
			name:  "content beside a later CONTENT: the Go reader takes the later",
			body:  `{"choices":[{"message":{"content":"safe","CONTENT":"evil"}}]}`,
			exact: msg("safe"),
			fold:  msg("evil"),
		},
		{
			name: "Tool_calls beside tool_calls",
			body: `{"choices":[{"message":{"tool_calls":[{"id":"a","type":"function","function":{"name":"read","arguments":"{}"}}],
				"Tool_calls":[{"id":"b","type":"function","function":{"name":"delete_all","arguments":"{}"}}]}}]}`,
			exact: View{Choices: []Choice{{Calls: []Call{{ID: "a", Type: "function", Name: "read", Arguments: "{}"}}}}},
			fold:  View{Choices: []Choice{{Calls: []Call{{ID: "b", Type: "function", Name: "delete_all", Arguments: "{}"}}}}},
		},
		{
			name:  "long s (U+017F) folds to s",
			body:  `{"choices":[{"message":{"content":"","refuſal":"hidden","finiſh_reaſon":"x"},"finiſh_reaſon":"stop"}]}`,
			exact: View{Choices: []Choice{{}}},
			fold:  View{Choices: []Choice{{Refusal: "hidden", FinishReason: "stop"}}},
		},
		{
			name:  "an escaped key: both readers decode it, a byte scanner would not",
			body:  `{"choices":[{"message":{"\u0063ontent":"evil"}}]}`,
			exact: msg("evil"),
		},
		{
			name:  "null after a string: Python reads None, encoding/json keeps the string",
			body:  `{"choices":[{"message":{"content":"visible","content":null}}]}`,
			exact: msg(""),
			fold:  msg("visible"),
		},
		{
			name: "a repeated object: replaced for Python, merged into the struct for Go",
			body: `{"choices":[{"message":{"tool_calls":[{"type":"function",
				"function":{"name":"f","arguments":"{\"all\":true}"},"function":{"name":"g"}}]}}]}`,
			exact: View{Choices: []Choice{{Calls: []Call{{Type: "function", Name: "g"}}}}},
			fold:  View{Choices: []Choice{{Calls: []Call{{Type: "function", Name: "g", Arguments: `{"all":true}`}}}}},
		},
		{
			name: "content parts: texts joined, other types listed",
			body: `{"choices":[{"message":{"content":[{"type":"text","text":"a"},{"type":"image_url","image_url":{"url":"x"}},
				{"type":"output_text","text":"b"},{"type":"refusal","refusal":"no"}]}}]}`,
			exact: View{Choices: []Choice{{Content: "a\nb", PartTypes: []string{"image_url", "refusal"}}}},
		},
		{
			name:  "a part's Text: only the Go reader counts it",
			body:  `{"choices":[{"message":{"content":[{"type":"text","Text":"hidden"}]}}]}`,
			exact: View{Choices: []Choice{{}}},
			fold:  View{Choices: []Choice{{Content: "hidden"}}},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.fold.Choices == nil {
				tc.fold = tc.exact
			}
			exact, fold, err := ReadCompletion([]byte(tc.body))
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

// TestReadCompletionErrors checks that a body a client would fail on is an error.
func TestReadCompletionErrors(t *testing.T) {
	for _, body := range []string{`{"choices":`, `[]`, `{"choices":[{"message":{"content":5}}]}`, `{"a":1} x`} {
		t.Run(body, func(t *testing.T) {
			if _, _, err := ReadCompletion([]byte(body)); err == nil {
				t.Errorf("ReadCompletion(%s): no error", body)
			}
		})
	}
}

// TestDiff checks that Diff names each difference by its path.
func TestDiff(t *testing.T) {
	a := View{Choices: []Choice{{Content: "safe", Calls: []Call{{Name: "read"}}}}, Notes: []string{"n"}}
	b := View{Choices: []Choice{{Content: "evil", Calls: []Call{{Name: "delete"}, {}}}}, Error: "boom"}
	want := strings.Join([]string{
		`Choices[0].Content: "safe" != "evil"`,
		`Choices[0].Calls: 1 entries != 2`,
		`Choices[0].Calls[0].Name: "read" != "delete"`,
		`Error: "" != "boom"`,
		`Notes: 1 entries != 0`,
	}, "\n")
	if got := Diff(a, b); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if Diff(a, a) != "" {
		t.Errorf("a view differs from itself")
	}
}

// TestTexts checks that Texts lists every text of every choice.
func TestTexts(t *testing.T) {
	v := View{Choices: []Choice{
		{Content: "c", Refusal: "r", Reasoning: "think", Calls: []Call{{Arguments: "{}"}, {Input: "in"}}},
		{Content: "second"},
	}}
	want := []string{"c", "r", "think", "{}", "in", "second"}
	if got := v.Texts(); !reflect.DeepEqual(got, want) {
		t.Errorf("Texts() = %q, want %q", got, want)
	}
}
