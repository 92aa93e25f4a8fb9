package policies

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// TestProjection: the fields a document reads, transitively through rules, functions and
// else branches; fAll for whatever the analysis cannot bound.
func TestProjection(t *testing.T) {
	src := `package weir.x
intent := input.classification.intent
bare := input
dynamic contains x if { some k; x := input[k] }
whole := input.classification
with_input := x if { x := intent with input as {} }
now := time.now_ns()
random := rand.intn("k", 10)
printed if print("x")
certificates := crypto.x509.parse_and_verify_certificates("x")
roles_of(name) if { name == input.route.name; "admin" in input.subject.roles }
through_function if roles_of("admin")
through_rule := intent
calls := input.tool_calls
answer := input.answer.numbers
filters := input.classification.filters.year
called := input.tools_called
any_subject contains x if { some k; x := input.subject[k] }
tenant_of := input.subject.tenant
how := input.subject.auth_method
missing := input.nope
keyed := data.weir.intents[input.classification.source]
branches := 1 if input.route.name == "a" else := 2 if input.route.surface == "b"
nothing := 3
`
	m, err := ast.ParseModuleWithOpts("x.rego", src, ast.ParserOptions{RegoVersion: ast.RegoV1})
	if err != nil {
		t.Fatal(err)
	}
	// Print statements are on here: a bundle's compiler erases them (print is off in
	// serving), but the analysis must refuse them should they ever reach evaluation.
	c := ast.NewCompiler().WithDefaultRegoVersion(ast.RegoV1).WithEnablePrintStatements(true)
	if c.Compile(map[string]*ast.Module{"x.rego": m}); c.Failed() {
		t.Fatal(c.Errors)
	}
	for name, want := range map[string]field{
		"intent": fIntent, "bare": fAll, "dynamic": fAll, "whole": fClassification,
		"with_input": fAll, "now": fAll, "random": fAll, "printed": fAll, "certificates": fAll,
		"through_function": fRouteName | fSubjectRoles, "through_rule": fIntent,
		"calls": fToolCalls, "answer": fAnswer, "filters": fFilters, "called": fToolsCalled,
		"any_subject": fSubject, "tenant_of": fSubjectTenant, "how": fSubjectAuthMethod, "missing": 0, "keyed": fSource, "branches": fRoute, "nothing": 0,
	} {
		if got := projection(c, ast.MustParseRef("data.weir.x."+name)); got != want {
			t.Errorf("projection(%s) = %012b, want %012b", name, got, want)
		}
	}
}

// TestProjectionRefusesMemo: a bundle whose request violations read what the analysis
// cannot bound, or a high-cardinality field, gets no request memo and no memo of its
// request violations; one reading low-cardinality fields gets both.
func TestProjectionRefusesMemo(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		memo       bool
	}{
		{"bare_input", `count(input) > 100`, false},
		{"dynamic_key", `some k; input[k] == "x"`, false},
		{"with", `x := data.weir.lib.intent with input.classification.intent as "z"; x == "q"`, false},
		{"time_now", `time.now_ns() < 0`, false},
		{"rand", `rand.intn("k", 10) > 100`, false},
		{"tool_calls", `count(input.tool_calls) > 5`, false},
		{"answer", `count(input.answer.numbers) > 5`, false},
		{"tools_called", `"x" in input.tools_called`, false},
		{"filters", `input.classification.filters.year == 1999`, false},
		{"low_cardinality", `input.route.name == "x"; "y" in input.subject.roles; input.classification.confidence < 0.5`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			write := func(name, src string) {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write("data.yaml", "intents:\n  a:\n    allowed_tools: [t]\n")
			write("x.rego", "package weir.request\n\nviolation contains {\"code\": \"x\", \"message\": \"m\"} if {\n\t"+tc.body+"\n}\n")
			b := loadT(t, dir)
			if got := b.memos.request != nil; got != tc.memo {
				t.Errorf("request memo %v, want %v", got, tc.memo)
			}
			if got := b.memos.violation != nil; got != tc.memo {
				t.Errorf("request violation memo %v, want %v", got, tc.memo)
			}
			if b.memos.response != nil {
				t.Error("the library's response decision reads the answer: no memo")
			}
		})
	}
}
