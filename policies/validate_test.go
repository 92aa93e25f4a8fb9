package policies

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

func TestValidate(t *testing.T) {
	b := loadT(t, "../examples/analytics/policies")
	conversation := `[
		{"role": "system", "content": "Sei un analista."},
		{"role": "user", "content": "Quanto fatturato serve per crescere del 50%?"},
		{"role": "assistant", "content": null, "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "execute_metric", "arguments": "{\"metricName\":\"revenue\"}"}}]},
		{"role": "tool", "tool_call_id": "call_1", "content": "{\"metric\":\"revenue\",\"value\":21956.62}"}
	]`
	tests := []struct {
		name    string
		line    string
		allowed bool
		codes   string
	}{
		{"seed 002 test 5: +50% is arithmetic", `{"intent":"analytics","messages":` + conversation + `,"answer":"Oggi il fatturato è 21.956,62 €: con +50% servono 32.934,93 €."}`, true, ""},
		{"invented number", `{"intent":"analytics","messages":` + conversation + `,"answer":"Il fatturato è 31.417,88 €."}`, false, "ungrounded_number"},
		{"no tool called", `{"intent":"analytics","messages":[{"role":"user","content":"fatturato?"}],"answer":"Non lo so."}`, false, "tool_call_required"},
		{"tool call without result does not count", `{"intent":"analytics","messages":[{"role":"assistant","tool_calls":[{"id":"x","function":{"name":"execute_metric","arguments":"{}"}}]}],"answer":"ok"}`, false, "tool_call_required"},
		{"proposed calls, flat shape", `{"intent":"analytics","tool_calls":[{"id":"1","name":"filter_data","arguments":{"limit":10}},{"id":"2","name":"execute_metric","arguments":"{bad"}]}`, false, "tool_not_allowed,tool_arguments_invalid"},
		{"strategy keeps the user's numbers", `{"intent":"strategy","messages":[{"role":"user","content":[{"type":"text","text":"Come cresco del 50% in 12 mesi?"}]}],"answer":"Per crescere del 50% in 12 mesi lavora su volume e prezzo."}`, true, ""},
		{"strategy invents a number", `{"intent":"strategy","messages":[{"role":"user","content":"Come cresco del 50%?"}],"answer":"Alza i prezzi del 7%."}`, false, "ungrounded_number"},
		{"not admitted", `{"intent":"sales","answer":"ok"}`, false, "intent_not_admitted"},
		{"intent missing", `{"answer":"ok"}`, false, "input_invalid"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var ex Exchange
			if err := json.Unmarshal([]byte(tc.line), &ex); err != nil {
				t.Fatal(err)
			}
			v, err := b.Validate(context.Background(), ex)
			if err != nil {
				t.Fatal(err)
			}
			if v.Allowed != tc.allowed || !sameCodes(v.Violations, tc.codes) || v.Numbers == nil || v.Violations == nil {
				out, _ := json.Marshal(v)
				t.Errorf("got %s, want allowed=%v codes %q", out, tc.allowed, tc.codes)
			}
		})
	}
}

// sameCodes reports whether vs has exactly the distinct codes of want (comma separated).
func sameCodes(vs []Violation, want string) bool {
	got := map[string]bool{}
	for _, v := range vs {
		got[v.Code] = true
	}
	n := 0
	for _, c := range strings.Split(want, ",") {
		if c != "" {
			if !got[c] {
				return false
			}
			n++
		}
	}
	return n == len(got)
}

func TestValidateReportsNumberText(t *testing.T) {
	b := loadT(t, "../examples/analytics/policies")
	ex := Exchange{Intent: "analytics", ToolCalls: []ChatToolCall{{ID: "1", Name: "execute_metric"}}, Answer: "Sono 1.234,50 €."}
	v, err := b.Validate(context.Background(), ex)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Violations) != 1 || v.Violations[0].Text != "1.234,50 €" || len(v.Numbers) != 1 || v.Numbers[0].Grounded {
		t.Errorf("got %+v", v)
	}
}

func TestValidatePolicyErrorDenies(t *testing.T) {
	b := loadT(t, "testdata/eval_error")
	v, err := b.Validate(context.Background(), Exchange{Intent: "x", ToolCalls: []ChatToolCall{{ID: "1", Name: "t"}}})
	if err == nil || v.Allowed || !sameCodes(v.Violations, CodePolicyError) {
		t.Errorf("got %+v, %v; want a denying policy_error verdict", v, err)
	}
}
