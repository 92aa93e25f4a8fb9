package policies

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// Values the random inputs draw from: quotes, backslashes, unicode and case variants, as
// the messages format them with %q.
var (
	goLibArgErrors = []string{"", "", "unexpected end of JSON input", `bad "quote" \ ü ☃`}
	goLibKinds     = []string{"", "tool", "user", "system", "Tool", "other"}
	goLibDerivs    = []string{"", "", "21956.62 × (1 + 50%)", `a "b" \n ü`}
	goLibTexts     = []string{"42", "3", "21.956,62 €", `"quoted" 7`, "ü☃ 1e3", `back\slash 0`, ""}
)

// goLibInput draws an input over the bundle's intents and tools, unknown ones, and case
// variants of both.
func goLibInput(b *Bundle, r *rand.Rand) *Input {
	intents := []string{"", "unknown", "Strict"}
	tools := []string{"unknown_tool", "QUERY_DATA", `odd "name" ü`}
	for name, ip := range b.Intents() {
		intents = append(intents, name)
		tools = append(tools, ip.AllowedTools...)
		tools = append(tools, ip.BlockedTools...)
	}
	tools = append(tools, b.data.knownTools...)
	slices.Sort(intents)
	slices.Sort(tools)
	pick := func(xs []string) string { return xs[r.IntN(len(xs))] }
	in := &Input{
		Route:          Route{Name: "chat", Surface: "openai"},
		Classification: Classification{Intent: pick(intents), Confidence: 0.9, Source: pick([]string{"rules", "llm"})},
	}
	for i := range r.IntN(5) {
		name := pick(tools)
		if r.IntN(8) == 0 {
			name = strings.ToUpper(name)
		}
		var tc ToolCall
		if r.IntN(3) == 0 {
			tc = b.ToolCall(fmt.Sprintf("call_%d", i), name, pick(testArguments))
		} else {
			tc = ToolCall{ID: fmt.Sprintf("call_%d", i), Name: name, ArgumentsError: pick(goLibArgErrors)}
		}
		in.ToolCalls = append(in.ToolCalls, tc)
	}
	for range r.IntN(3) {
		in.ToolsCalled = append(in.ToolsCalled, pick(tools))
	}
	for range r.IntN(5) {
		in.Answer.Numbers = append(in.Answer.Numbers, Number{
			Text: pick(goLibTexts), Value: float64(r.IntN(20)), Grounded: r.IntN(2) == 0, Source: "s",
			SourceKind: pick(goLibKinds), Derivation: pick(goLibDerivs), Trivial: r.IntN(3) == 0,
		})
	}
	return in
}

// TestGoLibMatchesRego checks that the library's tools and response violations evaluated
// in Go are the ones OPA evaluates, and that the decisions equal the Rego decisions
// evaluated in full, on every example bundle and the test bundles.
func TestGoLibMatchesRego(t *testing.T) {
	dirs := exampleBundles()
	dirs = append(dirs, "testdata/extend", "testdata/odd_violations", "testdata/golib", "testdata/golib_extend", "testdata/golib_lib")
	n := samples(1500)
	if testing.Short() {
		n = 200
	}
	ctx := context.Background()
	for _, dir := range dirs {
		t.Run(dir, func(t *testing.T) {
			b := loadT(t, dir)
			full := fullRego(b)
			r := rand.New(rand.NewPCG(7, uint64(len(dir))))
			var goTools, goResponse int
			for range n {
				in := goLibInput(b, r)
				if vs, ok := b.toolsViolations(ctx, in); ok {
					goTools++
					want, err := b.evalAll(ctx, b.direct.tools, in)
					if err != nil || vs[0].Compare(want[0]) != 0 || vs[1].Compare(want[1]) != 0 {
						t.Errorf("tools violations for %s:\ngo   %v %v\nrego %v %v (%v)", describe(in), vs[0], vs[1], want[0], want[1], err)
					}
				}
				if vs, ok := b.responseViolations(ctx, in); ok {
					goResponse++
					want, err := b.evalAll(ctx, b.direct.response, in)
					if err != nil || vs[0].Compare(want[0]) != 0 {
						t.Errorf("response violations for %s:\ngo   %v\nrego %v (%v)", describe(in), vs[0], want[0], err)
					}
				}
				sameDecisions(t, b, full, in)
			}
			if b.golib.tools && goTools == 0 || b.golib.response && goResponse == 0 {
				t.Errorf("the Go evaluation never ran (tools %d, response %d of %d)", goTools, goResponse, n)
			}
			t.Logf("Go evaluation: tools %v (%d of %d), response %v (%d)", b.golib.tools, goTools, n, b.golib.response, goResponse)
		})
	}
}

// TestGoLibOff: a bundle that adds rules to the violation sets, or to a library rule they
// depend on, keeps the OPA evaluation of that decision; a library bundle uses Go for both.
func TestGoLibOff(t *testing.T) {
	for _, tc := range []struct {
		dir             string
		tools, response bool
	}{
		{"testdata/golib", true, true},
		{"../examples/analytics/policies", true, true},
		{"testdata/golib_extend", true, false},         // adds to weir.response.violation
		{"testdata/golib_lib", true, false},            // adds to weir.lib.number_grounded
		{"../examples/clinical/policies", false, true}, // adds to weir.tools.call_violation
		{"../examples/trade/policies", false, true},    // adds to weir.tools.call_violation
		{"testdata/odd_violations", false, false},
		{"testdata/lib_redefined", false, false}, // adds to weir.lib.allowed_set
	} {
		b := loadT(t, tc.dir)
		if b.golib.tools != tc.tools || b.golib.response != tc.response {
			t.Errorf("%s: Go tools %v response %v, want %v %v", tc.dir, b.golib.tools, b.golib.response, tc.tools, tc.response)
		}
	}
	if b := loadT(t, "testdata/golib"); len(b.golib.intents) != len(b.Intents()) {
		t.Errorf("golib: %d of %d intents use Go", len(b.golib.intents), len(b.Intents()))
	}
}

// TestGoLibFailsClosed: what the OPA evaluation reports as an error (a cancelled context, an
// input that does not convert) the Go evaluation must not turn into a decision.
func TestGoLibFailsClosed(t *testing.T) {
	b := loadT(t, "testdata/golib")
	in := &Input{Classification: Classification{Intent: "strict"}, ToolCalls: []ToolCall{{ID: "0", Name: "query_data"}}, ToolsCalled: []string{"query_data"}}
	if d, err := b.Tools(context.Background(), in); err != nil || !d.Allow {
		t.Fatalf("allowed call: %+v %v", d, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if d, err := b.Tools(ctx, in); err == nil || d.Allow || d.Calls[0].Allow {
		t.Errorf("cancelled tools: %+v %v", d, err)
	}
	if d, err := b.Response(ctx, in); err == nil || d.Allow {
		t.Errorf("cancelled response: %+v %v", d, err)
	}
	in.ToolCalls[0].Arguments = map[string]any{"x": make(chan int)}
	if d, err := b.Tools(context.Background(), in); Code(err) != CodeInputInvalid || d.Calls[0].Allow {
		t.Errorf("unconvertible arguments: %+v %v", d, err)
	}
	if d, err := b.Response(context.Background(), in); Code(err) != CodeInputInvalid || d.Allow {
		t.Errorf("unconvertible arguments, response: %+v %v", d, err)
	}
}
