package policies

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// fullRego returns a copy of the bundle that evaluates the three Rego decision rules in
// full, with no memoized documents or decisions, on the whole input document: the
// reference the fast paths must match.
func fullRego(b *Bundle) *Bundle {
	c := *b
	c.direct = directQueries{}
	c.golib = goLib{}
	c.memo = nil
	c.memos = memos{reads: fAll} // no projection memo, and the whole input built
	return &c
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// sameDecisions evaluates the three decisions on both bundles and reports any difference.
func sameDecisions(t *testing.T, fast, full *Bundle, in *Input) {
	t.Helper()
	ctx := context.Background()
	r1, e1 := fast.Request(ctx, in)
	r2, e2 := full.Request(ctx, in)
	if !reflect.DeepEqual(r1, r2) || errText(e1) != errText(e2) {
		t.Errorf("request differs for %s:\nfast %+v %v\nfull %+v %v", describe(in), r1, e1, r2, e2)
	}
	t1, e1 := fast.Tools(ctx, in)
	t2, e2 := full.Tools(ctx, in)
	if !reflect.DeepEqual(t1, t2) || errText(e1) != errText(e2) {
		t.Errorf("tools differs for %s:\nfast %+v %v\nfull %+v %v", describe(in), t1, e1, t2, e2)
	}
	s1, e1 := fast.Response(ctx, in)
	s2, e2 := full.Response(ctx, in)
	if !reflect.DeepEqual(s1, s2) || errText(e1) != errText(e2) {
		t.Errorf("response differs for %s:\nfast %+v %v\nfull %+v %v", describe(in), s1, e1, s2, e2)
	}
}

func describe(in *Input) string {
	var calls []string
	for _, c := range in.ToolCalls {
		calls = append(calls, fmt.Sprintf("%s(%v|%s)", c.Name, c.Arguments, c.ArgumentsError))
	}
	return fmt.Sprintf("intent=%q route=%q source=%q roles=%v calls=%v called=%v numbers=%d",
		in.Classification.Intent, in.Route.Name, in.Classification.Source, in.Subject.Roles, calls, in.ToolsCalled, len(in.Answer.Numbers))
}

// Arguments covering every example bundle's argument checks, valid and not.
var testArguments = []string{
	``, `{}`, `[1, 2]`, `{"metricName":`, `{"metricName":"revenue","period":"2024"}`,
	`{"type":"detail","filters":[{"field":"goodsName","operator":"contains","value":"Laptop"}],"limit":50,"confidence":0.9}`,
	`{"type":"nope","filters":[{"field":"x","operator":"between","value":[1]}],"limit":5000,"aggregations":[{"field":"goodsName","operation":"sum"}]}`,
	`{"type":"aggregation","filters":"all","aggregations":[{"operation":"count","groupBy":"month"}],"orderBy":3}`,
	`{"query":"SELECT * FROM patients"}`, `{"query":"DROP TABLE patients; --"}`, `{"query":5}`, `{"query":"  "}`,
	`{"pattern":"func main","path":"."}`, `{"severity":"high","limit":10}`,
}

var testNumbers = []Number{
	{Text: "21.956,62 €", Value: 21956.62, Grounded: true, Source: "tool:execute_metric $.value", SourceKind: "tool"},
	{Text: "32.934,93 €", Value: 32934.93, Grounded: true, Source: "tool:execute_metric", SourceKind: "tool", Derivation: "21956.62 × (1 + 50%)"},
	{Text: "50%", Value: 50, Grounded: true, Source: "user", SourceKind: "user"},
	{Text: "7", Value: 7, Grounded: true, Source: "system", SourceKind: "system"},
	{Text: "25.000 €", Value: 25000},
	{Text: "3", Value: 3, Trivial: true},
}

// randomInput draws an input over the bundle's intents and tools, with unknown ones too.
func randomInput(b *Bundle, r *rand.Rand, routes []string) *Input {
	intents := []string{"", "unknown"}
	tools := []string{"unknown_tool", "Execute_Metric"}
	for name, ip := range b.Intents() {
		intents = append(intents, name)
		tools = append(tools, ip.AllowedTools...)
		tools = append(tools, ip.BlockedTools...)
	}
	tools = append(tools, b.data.knownTools...)
	slices.Sort(intents) // map order must not make the draw random
	slices.Sort(tools)
	pick := func(xs []string) string { return xs[r.IntN(len(xs))] }
	in := &Input{
		Route:          Route{Name: pick(routes), Surface: "openai"},
		Classification: Classification{Intent: pick(intents), Confidence: r.Float64(), Source: pick([]string{"rules", "llm", "default"}), Rules: []string{"r1"}},
	}
	if r.IntN(2) == 0 {
		in.Subject = Subject{ID: "alice", Roles: []string{"analyst"}, Tenant: pick([]string{"", "acme"}), AuthMethod: pick([]string{"api_key", "jwt"})}
	}
	for i := range r.IntN(4) {
		in.ToolCalls = append(in.ToolCalls, b.ToolCall(fmt.Sprintf("call_%d", i), pick(tools), pick(testArguments)))
	}
	for range r.IntN(3) {
		in.ToolsCalled = append(in.ToolsCalled, pick(tools))
	}
	for range r.IntN(4) {
		in.Answer.Numbers = append(in.Answer.Numbers, testNumbers[r.IntN(len(testNumbers))])
	}
	return in
}

// TestDirectMatchesRego checks that the direct assembly and the memoized library documents
// give exactly the decisions (and errors) of the Rego decision rules evaluated in full.
func TestDirectMatchesRego(t *testing.T) {
	dirs := exampleBundles()
	dirs = append(dirs, "testdata/extend", "testdata/odd_violations")
	oddRoutes := []string{"chat", "float", "string", "range", "many", "string_violation", "no_code", "number_code",
		"builtin_error", "request_no_code", "request_bad_text", "response", "response_array", "with"}
	for _, dir := range dirs {
		t.Run(dir, func(t *testing.T) {
			b := loadT(t, dir)
			if b.direct.request == nil || b.direct.tools == nil || b.direct.response == nil || len(b.memo) != len(b.Intents()) {
				t.Fatalf("the library bundle %s must use the direct decisions and the memo", dir)
			}
			for intent, entries := range b.memo {
				if len(entries) != len(memoRefs) {
					t.Errorf("intent %s: %d of %d library documents memoized", intent, len(entries), len(memoRefs))
				}
			}
			full := fullRego(b)
			routes := []string{"chat"}
			if strings.HasSuffix(dir, "odd_violations") {
				routes = oddRoutes
			}
			r := rand.New(rand.NewPCG(1, uint64(len(dir))))
			for range 250 {
				sameDecisions(t, b, full, randomInput(b, r, routes))
			}
		})
	}
}

// TestOddViolations pins what the Rego decision does with unusual extension violations,
// which the direct assembly must reproduce (TestDirectMatchesRego compares the two).
func TestOddViolations(t *testing.T) {
	b := loadT(t, "testdata/odd_violations")
	ctx := context.Background()
	tools := func(route string) (ToolsDecision, error) {
		in := &Input{Route: Route{Name: route}, Classification: Classification{Intent: "a"},
			ToolCalls: []ToolCall{b.ToolCall("0", "t", "{}"), b.ToolCall("1", "t", "{}")}}
		return b.Tools(ctx, in)
	}
	d, err := tools("float")
	if err != nil || d.Allow || !d.Calls[0].Allow || codes(d.Calls[1].Violations) != "float_index" {
		t.Errorf("call 1.0 is call 1: %+v %v", d, err)
	}
	d, err = tools("string")
	if err != nil || d.Allow || !d.Calls[0].Allow || !d.Calls[1].Allow || codes(d.Violations) != "string_index" {
		t.Errorf(`call "0" names no call, but denies the decision: %+v %v`, d, err)
	}
	d, err = tools("range")
	if err != nil || d.Allow || !d.Calls[0].Allow || !d.Calls[1].Allow || len(d.Violations) != 2 {
		t.Errorf("indexes out of range name no call: %+v %v", d, err)
	}
	d, err = tools("many")
	if err != nil || codes(d.Violations) != "tool_level,a_first,b_second" || codes(d.Calls[0].Violations) != "a_first,b_second" {
		t.Errorf("order: tool-level first, then call violations in set order: %+v %v", d, err)
	}
	if v := d.Calls[0].Violations; v[0].Rule != "r" || v[1].Rule != "weir.tools.call_violation" || d.Violations[2].Rule != "weir.tools.violation" {
		t.Errorf("rules: %+v / %+v", v, d.Violations)
	}
	if d.Calls[0].Reason != "m1; m2" || d.Calls[1].Reason != "allowed" {
		t.Errorf("reasons %q %q", d.Calls[0].Reason, d.Calls[1].Reason)
	}
	for route, code := range map[string]string{"string_violation": CodeDecisionBad, "no_code": CodeDecisionBad, "number_code": CodeDecisionBad, "builtin_error": CodeEvalError} {
		if d, err := tools(route); Code(err) != code || d.Allow || d.Calls[0].Allow || d.Calls[1].Allow {
			t.Errorf("%s: %+v %v, want %s and every call denied", route, d, err, code)
		}
	}
	d, err = tools("with")
	if err != nil || len(d.Violations) != 1 || d.Violations[0].Message != "set()" {
		t.Errorf("a with must evaluate the library for its own input: %+v %v", d, err)
	}
}

// TestLibraryRedefined: a bundle that adds rules to the documents Weir assembles or
// memoizes gets the full Rego evaluation, so that a conflict is still an error.
func TestLibraryRedefined(t *testing.T) {
	b := loadT(t, "testdata/lib_redefined")
	if b.direct.tools != nil || b.direct.request == nil {
		t.Errorf("tools.decision is redefined: direct tools must be off, request on")
	}
	for _, e := range b.memo["a"] {
		if e.ref.String() == "data.weir.lib.allowed_set" {
			t.Errorf("lib.allowed_set is redefined: it must not be memoized")
		}
	}
	ctx := context.Background()
	in := &Input{Route: Route{Name: "conflict"}, Classification: Classification{Intent: "a"}, ToolCalls: []ToolCall{b.ToolCall("0", "t", "{}")}}
	if d, err := b.Tools(ctx, in); Code(err) != CodeEvalError || d.Allow {
		t.Errorf("conflict: %+v %v", d, err)
	}
	in.Route.Name = "chat"
	if d, err := b.Tools(ctx, in); err != nil || !d.Allow {
		t.Errorf("no conflict: %+v %v", d, err)
	}
}

// TestIntentOnly: only library rules that read no input but the intent are memoized.
func TestIntentOnly(t *testing.T) {
	src := `package weir.lib
a := input.classification.intent
b := input.route.name
c := a
d := b
e := time.now_ns()
f := x if { x := a with input as {} }
g := {x | some x in data.weir.intents[a].allowed_tools}
h := count(input)
`
	parse := func(file string) *ast.Module {
		m, err := ast.ParseModuleWithOpts(file, src, ast.ParserOptions{RegoVersion: ast.RegoV1})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	c := ast.NewCompiler().WithDefaultRegoVersion(ast.RegoV1)
	if c.Compile(map[string]*ast.Module{libPrefix + "lib/x.rego": parse(libPrefix + "lib/x.rego")}); c.Failed() {
		t.Fatal(c.Errors)
	}
	for name, want := range map[string]bool{"a": true, "b": false, "c": true, "d": false, "e": false, "f": false, "g": true, "h": false} {
		if got := intentOnly(c, ast.MustParseRef("data.weir.lib."+name)); got != want {
			t.Errorf("intentOnly(%s) = %v, want %v", name, got, want)
		}
	}
	// The same rule outside the library is never memoized.
	c = ast.NewCompiler().WithDefaultRegoVersion(ast.RegoV1)
	if c.Compile(map[string]*ast.Module{"bundle.rego": parse("bundle.rego")}); c.Failed() {
		t.Fatal(c.Errors)
	}
	if intentOnly(c, ast.MustParseRef("data.weir.lib.a")) {
		t.Error("a bundle rule must not be memoized")
	}
}

// TestInputPrefixCache: the cached subject/route/classification are rebuilt whenever the
// Input changes, also in place.
func TestInputPrefixCache(t *testing.T) {
	b := loadT(t, "../examples/analytics/policies")
	ctx := context.Background()
	in := &Input{Classification: Classification{Intent: "analytics", Source: "rules", Filters: map[string]any{"year": 2024}}}
	if d, err := b.Request(ctx, in); err != nil || !d.Allow {
		t.Fatal(d, err)
	}
	in.Classification.Intent = "data_preview"
	in.Classification.Source = "llm" // rules_only_intents: data_preview needs the rules
	if d, err := b.Request(ctx, in); err != nil || d.Allow {
		t.Errorf("changed intent and source must be seen: %+v %v", d, err)
	}
	cp := *in // a copy shares the cache; its changes must be seen too
	cp.Classification.Source = "rules"
	if d, err := b.Request(ctx, &cp); err != nil || !d.Allow {
		t.Errorf("copy: %+v %v", d, err)
	}
	in.Classification.Filters["year"] = 2025 // changed in place
	v, err := in.value(nil, fAll, nil)
	if err != nil {
		t.Fatal(err)
	}
	year, _ := v.(ast.Object).Get(ast.StringTerm("classification")).Get(ast.StringTerm("filters")).Get(ast.StringTerm("year")).Value.(ast.Number).Int()
	if year != 2025 {
		t.Errorf("filters changed in place: year %d, want 2025", year)
	}
	in.Subject.Roles = []string{"x"}
	v, _ = in.value(nil, fAll, nil)
	if roles := v.(ast.Object).Get(ast.StringTerm("subject")).Get(ast.StringTerm("roles")); roles.String() != `["x"]` {
		t.Errorf("roles %v", roles)
	}
}
