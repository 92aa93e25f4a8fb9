package policies

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
)

// TestToolCallLazyArguments: a bundle whose tools and response decisions both run in Go
// leaves the parsed arguments unconverted, a bundle whose rules may read them converts them
// at once, and an OPA evaluation of lazily built calls (here the trade bundle, whose rules
// read call.arguments) decides exactly as with converted ones.
func TestToolCallLazyArguments(t *testing.T) {
	ctx := context.Background()
	lazy := loadT(t, "testdata/golib")
	trade := loadT(t, "../examples/trade/policies")
	if !lazy.golib.tools || !lazy.golib.response || trade.golib.tools {
		t.Fatalf("fixtures changed: golib %+v, trade %+v", lazy.golib, trade.golib)
	}
	for _, raw := range testArguments {
		l := lazy.ToolCall("call_1", "query_data", raw)
		e := trade.ToolCall("call_1", "query_data", raw)
		if l.Arguments != nil && l.args != unconvertedArgs {
			t.Errorf("%q: arguments converted for a Go-evaluated bundle", raw)
		}
		if e.Arguments != nil && (e.args == nil || e.args == unconvertedArgs) {
			t.Errorf("%q: arguments not converted for a bundle that reads them", raw)
		}
		for intent := range trade.Intents() {
			in := func(tc ToolCall) *Input {
				return &Input{Route: Route{Name: "chat", Surface: "openai"},
					Classification: Classification{Intent: intent, Confidence: 0.9, Source: "rules"},
					ToolCalls:      []ToolCall{tc}}
			}
			d1, e1 := trade.Tools(ctx, in(l))
			d2, e2 := trade.Tools(ctx, in(e))
			if !reflect.DeepEqual(d1, d2) || errText(e1) != errText(e2) {
				t.Errorf("%q, intent %s: lazy %+v %v, converted %+v %v", raw, intent, d1, e1, d2, e2)
			}
			r1, e1 := trade.Response(ctx, in(l))
			r2, e2 := trade.Response(ctx, in(e))
			if !reflect.DeepEqual(r1, r2) || errText(e1) != errText(e2) {
				t.Errorf("%q, intent %s: response lazy %+v %v, converted %+v %v", raw, intent, r1, e1, r2, e2)
			}
		}
	}
}

// parseArgumentsBytes is ParseArguments as it was before it read the string directly
// (bytes.TrimSpace of a copy, a bytes.Reader): the reference FuzzParseArguments compares to.
func parseArgumentsBytes(raw string, limit int) (args any, problem string) {
	if limit > 0 && len(raw) > limit {
		return nil, fmt.Sprintf("arguments are %d bytes, over the limit of %d", len(raw), limit)
	}
	src := bytes.TrimSpace([]byte(raw))
	if len(src) == 0 {
		return map[string]any{}, ""
	}
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	if err := dec.Decode(&args); err != nil {
		return nil, "invalid JSON: " + err.Error()
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, "invalid JSON: data after the arguments object"
	}
	if _, ok := args.(map[string]any); !ok {
		return nil, fmt.Sprintf("arguments must be a JSON object, got %s", typeName(args))
	}
	return args, ""
}

var argumentsCorpus = append([]string{
	" \t\n", "\u00a0{}\u2003", "{}\xff", "\xff{}", `{"a":1} {"b":2}`, `{"a":1}]`, `{"a":"\ud800"}`,
	`{"a":1e400}`, `{"a":-0.0,"b":[true,false,null]}`, `"str"`, `12`, `null`, `{"a":1,"a":2}`,
	`{"a":{"b":{"c":[1,{"d":"e"}]}}}`, `{"x":"` + strings.Repeat("y", 300) + `"}`, `{`, `}`, `{"a" 1}`,
}, testArguments...)

func FuzzParseArguments(f *testing.F) {
	for _, raw := range argumentsCorpus {
		f.Add(raw, 0)
		f.Add(raw, 64)
	}
	f.Fuzz(func(t *testing.T, raw string, limit int) {
		a1, p1 := ParseArguments(raw, limit)
		a2, p2 := parseArgumentsBytes(raw, limit)
		if p1 != p2 || !reflect.DeepEqual(a1, a2) {
			t.Errorf("%q (limit %d): got %#v %q, want %#v %q", raw, limit, a1, p1, a2, p2)
		}
	})
}
