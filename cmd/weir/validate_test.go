package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestValidateJSONL(t *testing.T) {
	in := strings.Join([]string{
		`{"intent":"analytics","tool_calls":[{"id":"1","type":"function","function":{"name":"execute_metric","arguments":"{\"metricName\":\"revenue\"}"}}]}`,
		`this is not json`,
		``,
		`{"intent":"strategy","messages":[{"role":"user","content":"crescere del 50%"}],"answer":"Alza i prezzi del 7%."}`,
		`{"intent":"analytics","tool_calls":[{"id":"1","type":"function","function":{"name":"filter_data","arguments":"{}"}}]}`,
	}, "\n") // no trailing newline: the last line still counts
	var out, errOut bytes.Buffer
	code := runValidate([]string{"--policies", "../../examples/analytics/policies", "--jsonl"}, strings.NewReader(in), &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	want := []struct {
		allowed bool
		code    string
	}{{true, ""}, {false, "input_invalid"}, {false, "input_invalid"}, {false, "ungrounded_number"}, {false, "tool_not_allowed"}}
	if len(lines) != len(want) {
		t.Fatalf("%d output lines for %d input lines:\n%s", len(lines), len(want), out.String())
	}
	for i, w := range want {
		var v struct {
			Allowed    bool `json:"allowed"`
			Violations []struct {
				Code string `json:"code"`
			} `json:"violations"`
			Numbers []json.RawMessage `json:"numbers"`
		}
		if err := json.Unmarshal([]byte(lines[i]), &v); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if v.Allowed != w.allowed || (w.code != "" && (len(v.Violations) == 0 || v.Violations[0].Code != w.code)) || v.Numbers == nil {
			t.Errorf("line %d: %s, want allowed=%v code %q", i+1, lines[i], w.allowed, w.code)
		}
	}
}

func TestValidateUsage(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := runValidate(nil, strings.NewReader(""), &out, &errOut); code != 2 {
		t.Errorf("without --policies: exit %d, want 2", code)
	}
	if code := runValidate([]string{"--policies", "../../policies/testdata/parse_error"}, strings.NewReader("{}"), &out, &errOut); code != 1 || !strings.Contains(errOut.String(), "rego_parse_error") {
		t.Errorf("broken bundle: exit %d, stderr %q", code, errOut.String())
	}
}

func TestValidateOneDocument(t *testing.T) {
	var out, errOut bytes.Buffer
	doc := "{\n  \"intent\": \"conversational\",\n  \"answer\": \"Grazie a te! 42\"\n}\n"
	if code := runValidate([]string{"--policies", "../../examples/analytics/policies"}, strings.NewReader(doc), &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if !strings.Contains(out.String(), "\"allowed\": true") {
		t.Errorf("got %s", out.String())
	}
}

func TestCheckPolicies(t *testing.T) {
	var out bytes.Buffer
	if _, ok := checkPolicies(&out, "../../examples/trade/policies"); !ok || !strings.Contains(out.String(), "0 failed") {
		t.Errorf("trade bundle: ok=%v\n%s", ok, out.String())
	}
	out.Reset()
	if b, ok := checkPolicies(&out, "../../policies/testdata/failing_test"); ok || b == nil || !strings.Contains(out.String(), "a_test.rego:9: rego_test_failed: data.weir.a_test.test_fails failed") || !strings.Contains(out.String(), "1 tests passed, 1 failed") {
		t.Errorf("failing bundle: ok=%v\n%s", ok, out.String())
	}
	out.Reset()
	b, _ := checkPolicies(&out, "../../examples/analytics/policies")
	if crossCheck(&out, b, []string{"analytics", "forecast"}, map[string][]string{"analytics": {"execute_metric"}}) || !strings.Contains(out.String(), `intent "forecast"`) {
		t.Errorf("cross-check passed with a missing intent:\n%s", out.String())
	}
}
