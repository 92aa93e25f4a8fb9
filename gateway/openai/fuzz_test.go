package openai

import (
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
