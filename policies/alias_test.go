package policies

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// TestAliasPath: only a complete rule that is nothing but an input path (with at most a
// default beside it) is an alias.
func TestAliasPath(t *testing.T) {
	src := `package weir.x
default calls := []
calls := input.tool_calls
numbers := input.answer.numbers
route := input.route
guarded := input.tool_calls if input.route.name == "x"
two := input.route.name
two := input.route.surface
f(x) := input.route.name if x
branch := x if { x := input.route.name } else := 1
counted := count(input.tool_calls)
set contains input.route.name
constant := 3
from_data := data.weir.x.constant
`
	m, err := ast.ParseModuleWithOpts("x.rego", src, ast.ParserOptions{RegoVersion: ast.RegoV1})
	if err != nil {
		t.Fatal(err)
	}
	c := ast.NewCompiler().WithDefaultRegoVersion(ast.RegoV1)
	if c.Compile(map[string]*ast.Module{"x.rego": m}); c.Failed() {
		t.Fatal(c.Errors)
	}
	for name, want := range map[string]string{
		"calls": `["tool_calls"]`, "numbers": `["answer", "numbers"]`, "route": `["route"]`,
		"guarded": "", "two": "", "f": "", "branch": "", "counted": "", "set": "", "constant": "", "from_data": "",
	} {
		path, ok := aliasPath(c, ast.MustParseRef("data.weir.x."+name))
		got := ""
		if ok {
			got = ast.NewArray(path...).String()
		}
		if got != want {
			t.Errorf("aliasPath(%s) = %q, want %q", name, got, want)
		}
	}
	var found []string
	for _, a := range findAliases(c) {
		found = append(found, a.ref.String())
	}
	slices.Sort(found)
	if want := []string{"data.weir.x.calls", "data.weir.x.numbers", "data.weir.x.route"}; !slices.Equal(found, want) {
		t.Errorf("findAliases = %v, want %v", found, want)
	}
}

// TestLibraryAliases: the library's input helpers are aliases, and a `with` on the input
// still sees its own values (the aliases belong to the bottom frame only).
func TestLibraryAliases(t *testing.T) {
	b := loadT(t, "../examples/analytics/policies")
	var found []string
	for _, a := range b.memos.aliases {
		found = append(found, a.ref.String())
	}
	slices.Sort(found)
	want := []string{"data.weir.lib.intent", "data.weir.lib.numbers", "data.weir.lib.tool_calls", "data.weir.lib.tools_called"}
	if !slices.Equal(found, want) {
		t.Errorf("aliases %v, want %v", found, want)
	}
	dir := t.TempDir()
	for name, src := range map[string]string{
		"data.yaml": "intents:\n  a:\n    allowed_tools: [t]\n",
		"x.rego": `package weir.tools

import data.weir.lib

violation contains {"code": "with_alias", "message": sprintf("%d", [n])} if {
	n := count(lib.tool_calls) with input.tool_calls as [1, 2, 3, 4, 5]
}
`,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	w := loadT(t, dir)
	if len(w.memos.aliases) == 0 {
		t.Fatal("no aliases")
	}
	in := &Input{Classification: Classification{Intent: "a"}, ToolCalls: []ToolCall{w.ToolCall("0", "t", "{}"), w.ToolCall("1", "t", "{}")}}
	d, err := w.Tools(context.Background(), in)
	if err != nil || len(d.Violations) != 1 || d.Violations[0].Message != "5" {
		t.Errorf("a with must see its own input, not the aliases: %+v %v", d, err)
	}
}
