package policies

import (
	"context"
	"strings"
	"sync"
	"testing"
)

func loadT(t testing.TB, dir string) *Bundle {
	t.Helper()
	b, err := Load(context.Background(), dir)
	if err != nil {
		t.Fatalf("Load(%s): %v", dir, err)
	}
	return b
}

func codes(vs []Violation) string {
	cs := make([]string, len(vs))
	for i, v := range vs {
		cs[i] = v.Code
	}
	return strings.Join(cs, ",")
}

func TestRequestDecision(t *testing.T) {
	b := loadT(t, "../examples/analytics/policies")
	tests := []struct {
		intent  string
		allow   bool
		codes   string
		tools   string
		sources string
	}{
		{"analytics", true, "", "aggregate_group,compare_periods,execute_metric", "system,tool,user"},
		{"strategy", true, "", "", "user"},
		{"data_preview", true, "", "filter_data", "tool"},
		{"Analytics", false, "intent_not_admitted", "", ""},
		{"", false, "intent_not_admitted", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.intent, func(t *testing.T) {
			d, err := b.Request(context.Background(), &Input{Classification: Classification{Intent: tc.intent}})
			if err != nil {
				t.Fatal(err)
			}
			ob := d.Obligations
			if d.Allow != tc.allow || codes(d.Violations) != tc.codes || strings.Join(ob.AllowedTools, ",") != tc.tools || strings.Join(ob.NumberSources, ",") != tc.sources {
				t.Errorf("got allow=%v codes=%q tools=%v sources=%v", d.Allow, codes(d.Violations), ob.AllowedTools, ob.NumberSources)
			}
			if d.Revision != b.Revision() {
				t.Errorf("revision %q, want %q", d.Revision, b.Revision())
			}
			if !tc.allow && !ob.BlockNumericGeneration {
				t.Error("a denied intent must keep block_numeric_generation on")
			}
		})
	}
}

func TestToolsDecision(t *testing.T) {
	b := loadT(t, "../examples/analytics/policies")
	big := `{"x":"` + strings.Repeat("a", DefaultMaxArgumentBytes) + `"}`
	tests := []struct {
		name   string
		intent string
		calls  [][2]string // name, raw arguments
		allow  []bool
		codes  string
	}{
		{"allowed", "analytics", [][2]string{{"execute_metric", `{"metricName":"revenue"}`}}, []bool{true}, ""},
		{"none proposed", "analytics", nil, []bool{}, ""},
		{"blocked wins", "analytics", [][2]string{{"execute_metric", `{}`}, {"filter_data", `{}`}}, []bool{true, false}, "tool_not_allowed"},
		{"unknown tool", "analytics", [][2]string{{"drop_database", `{}`}}, []bool{false}, "tool_not_allowed"},
		{"case-sensitive", "data_preview", [][2]string{{"Filter_Data", `{}`}}, []bool{false}, "tool_not_allowed"},
		{"invalid JSON", "analytics", [][2]string{{"execute_metric", `{"metricName":`}}, []bool{false}, "tool_arguments_invalid"},
		{"over the size limit", "analytics", [][2]string{{"execute_metric", big}}, []bool{false}, "tool_arguments_invalid"},
		{"not an object", "analytics", [][2]string{{"execute_metric", `[1,2]`}}, []bool{false}, "tool_arguments_invalid"},
		{"no tools for strategy", "strategy", [][2]string{{"execute_metric", `{}`}}, []bool{false}, "tool_not_allowed"},
		{"intent not admitted", "sales", [][2]string{{"execute_metric", `{}`}}, []bool{false}, "intent_not_admitted,tool_not_allowed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := &Input{Classification: Classification{Intent: tc.intent}}
			for i, c := range tc.calls {
				in.ToolCalls = append(in.ToolCalls, b.ToolCall(string(rune('a'+i)), c[0], c[1]))
			}
			d, err := b.Tools(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			wantAllow := true
			for i, c := range d.Calls {
				if c.Allow != tc.allow[i] || c.Name != tc.calls[i][0] || c.ID != in.ToolCalls[i].ID || c.Reason == "" {
					t.Errorf("call %d: %+v, want allow=%v", i, c, tc.allow[i])
				}
				wantAllow = wantAllow && tc.allow[i]
			}
			if len(d.Calls) != len(tc.calls) || d.Allow != wantAllow || !hasCodes(d.Violations, tc.codes) {
				t.Errorf("got allow=%v calls=%d codes=%q, want %q", d.Allow, len(d.Calls), codes(d.Violations), tc.codes)
			}
		})
	}
}

// hasCodes reports whether vs has exactly the distinct codes in want (comma separated).
func hasCodes(vs []Violation, want string) bool {
	got := map[string]bool{}
	for _, v := range vs {
		if v.Code == "" || v.Message == "" || v.Rule == "" {
			return false
		}
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

func TestResponseDecision(t *testing.T) {
	b := loadT(t, "../examples/analytics/policies")
	grounded := Number{Text: "21.956,62 €", Value: 21956.62, Grounded: true, Source: "tool:execute_metric", SourceKind: "tool"}
	derived := Number{Text: "32.934,93 €", Value: 32934.93, Grounded: true, Source: "tool:execute_metric", SourceKind: "tool", Derivation: "21956.62 × (1 + 50%)"}
	invented := Number{Text: "25.000 €", Value: 25000}
	user := Number{Text: "50%", Value: 50, Grounded: true, Source: "user", SourceKind: "user"}
	tests := []struct {
		name    string
		intent  string
		called  []string
		numbers []Number
		codes   string
		text    string
	}{
		{"grounded", "analytics", []string{"execute_metric"}, []Number{grounded}, "", ""},
		{"derivation allowed", "analytics", []string{"execute_metric"}, []Number{grounded, user, derived}, "", ""},
		{"invented", "analytics", []string{"execute_metric"}, []Number{invented}, "ungrounded_number", "25.000 €"},
		{"no tool called", "analytics", nil, nil, "tool_call_required", ""},
		{"blocked tool does not count", "analytics", []string{"filter_data"}, nil, "tool_call_required", ""},
		{"strategy, user's number", "strategy", nil, []Number{user}, "", ""},
		{"strategy, tool number", "strategy", nil, []Number{grounded}, "ungrounded_number", "21.956,62 €"},
		{"data_preview, derivation refused", "data_preview", []string{"filter_data"}, []Number{derived}, "ungrounded_number", "32.934,93 €"},
		{"conversational, numbers free", "conversational", nil, []Number{invented}, "", ""},
		{"not admitted", "sales", nil, nil, "intent_not_admitted", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := &Input{Classification: Classification{Intent: tc.intent}, ToolsCalled: tc.called, Answer: Answer{Numbers: tc.numbers}}
			d, err := b.Response(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			if d.Allow != (tc.codes == "") || !hasCodes(d.Violations, tc.codes) {
				t.Errorf("got allow=%v %+v, want codes %q", d.Allow, d.Violations, tc.codes)
			}
			if tc.text != "" && d.Violations[0].Text != tc.text {
				t.Errorf("violation text %q, want %q", d.Violations[0].Text, tc.text)
			}
		})
	}
}

func TestExtendWithViolationRule(t *testing.T) {
	b := loadT(t, "testdata/extend")
	ctx := context.Background()
	in := &Input{Classification: Classification{Intent: "analytics"}}
	d, err := b.Request(ctx, in)
	if err != nil || d.Allow || !hasCodes(d.Violations, "role_required") || d.Violations[0].Rule != "weir.request.violation" {
		t.Errorf("without role: %+v %v", d, err)
	}
	in.Subject.Roles = []string{"analyst"}
	if d, err := b.Request(ctx, in); err != nil || !d.Allow {
		t.Errorf("with role: %+v %v", d, err)
	}
}

func TestFailClosed(t *testing.T) {
	ctx := context.Background()
	in := &Input{Classification: Classification{Intent: "x"}, ToolCalls: []ToolCall{{ID: "1", Name: "t", Arguments: map[string]any{}}}}
	tests := []struct {
		dir  string
		code string
	}{
		{"undefined", CodeDecisionUndef},
		{"conflict", CodeEvalError},
		{"malformed_allow", CodeDecisionBad},
		{"malformed_calls", CodeDecisionBad},
		{"eval_error", CodeEvalError},
	}
	for _, tc := range tests {
		t.Run(tc.dir, func(t *testing.T) {
			b := loadT(t, "testdata/"+tc.dir)
			d, err := b.Tools(ctx, in)
			if Code(err) != tc.code {
				t.Errorf("error %v, want code %s", err, tc.code)
			}
			if d.Allow || len(d.Calls) != 1 || d.Calls[0].Allow {
				t.Errorf("decision %+v allows: must deny every call", d)
			}
		})
	}
	b := loadT(t, "testdata/undefined")
	if d, err := b.Response(ctx, in); Code(err) != CodeDecisionUndef || d.Allow {
		t.Errorf("undefined response: %+v %v", d, err)
	}
	b = loadT(t, "testdata/contradiction")
	if d, err := b.Tools(ctx, in); err != nil || d.Allow || d.Calls[0].Allow {
		t.Errorf("allow with violations must deny: %+v %v", d, err)
	}
}

func TestConcurrentEvaluation(t *testing.T) {
	b := loadT(t, "../examples/analytics/policies")
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := range 16 {
		wg.Go(func() {
			intent, tool, want := "analytics", "execute_metric", true
			if g%2 == 1 {
				intent, want = "strategy", false
			}
			for range 50 {
				in := &Input{Classification: Classification{Intent: intent}, ToolCalls: []ToolCall{b.ToolCall("1", tool, `{"metricName":"revenue"}`)}}
				d, err := b.Tools(ctx, in)
				if err != nil || d.Allow != want {
					errs <- intent
					return
				}
				if _, err := b.Response(ctx, in); err != nil {
					errs <- err.Error()
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Errorf("concurrent evaluation: %s", e)
	}
}

func TestOverrideLibraryOff(t *testing.T) {
	b := loadT(t, "testdata/override")
	ctx := context.Background()
	in := &Input{Classification: Classification{Intent: "anything"}, ToolCalls: []ToolCall{{ID: "1", Name: "search"}, {ID: "2", Name: "delete"}}}
	d, err := b.Tools(ctx, in)
	if err != nil || d.Allow || !d.Calls[0].Allow || d.Calls[1].Allow || d.Calls[0].Reason != "allowed" || d.Calls[1].Violations[0].Rule != "weir.tools.call_violation" {
		t.Errorf("tools: %+v %v", d, err)
	}
	r, err := b.Request(ctx, in)
	if err != nil || !r.Allow || !r.Obligations.BlockNumericGeneration || len(r.Obligations.NumberSources) != 3 {
		t.Errorf("request obligations must default to the safe values: %+v %v", r, err)
	}
}

func TestIgnoreSmallIntegers(t *testing.T) {
	b := loadT(t, "../examples/analytics/policies")
	three := Number{Text: "3", Value: 3, Trivial: true}
	tests := []struct {
		intent string
		n      Number
		allow  bool
	}{
		{"strategy", three, true},                          // ignore_small_integers: true
		{"strategy", Number{Text: "12", Value: 12}, false}, // not trivial
		{"data_preview", three, false},                     // default false
	}
	for _, tc := range tests {
		in := &Input{Classification: Classification{Intent: tc.intent}, ToolsCalled: []string{"filter_data"}, Answer: Answer{Numbers: []Number{tc.n}}}
		d, err := b.Response(context.Background(), in)
		if err != nil || d.Allow != tc.allow {
			t.Errorf("%s %q: allow=%v %v, want %v", tc.intent, tc.n.Text, d.Allow, err, tc.allow)
		}
	}
}
