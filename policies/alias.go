package policies

import (
	"github.com/open-policy-agent/opa/v1/ast"
)

// The library names parts of the input for the rules that use them:
//
//	default tool_calls := []
//	tool_calls := input.tool_calls
//
// Each such rule (an alias) is a complete rule whose value is an input path, so its value
// is already in the input document Weir builds: the evaluator needs no rule evaluation to
// know it. At load, Weir finds the aliases (aliasPath); for each evaluation it hands the
// evaluator their values, looked up in the input, as already-cached rule results
// (virtualCache.local), like the intent's memoized documents. A path the input does not
// have is left to the rules (their default).

// alias is a rule whose value is the input at path.
type alias struct {
	ref  ast.Ref
	hash int
	path ast.Ref // below input: [tool_calls], [answer, numbers]
}

// findAliases returns the aliases among the compiled rules.
func findAliases(c *ast.Compiler) []alias {
	var out []alias
	seen := map[string]bool{}
	for _, m := range c.Modules {
		for _, r := range m.Rules {
			ref := r.Ref().GroundPrefix()
			key := ref.String()
			if r.Default || seen[key] || len(ref) != len(r.Ref()) {
				continue
			}
			seen[key] = true
			if path, ok := aliasPath(c, ref); ok {
				out = append(out, alias{ref: ref, hash: refHash(ref), path: path})
			}
		}
	}
	return out
}

// aliasPath reports whether every rule defining the document at ref is a complete rule
// without arguments, `with` or else, and exactly one of those that is not a default
// reads its value from a constant input path and does nothing else; it returns that path.
func aliasPath(c *ast.Compiler, ref ast.Ref) (ast.Ref, bool) {
	var path ast.Ref
	for _, r := range c.GetRulesDynamicWithOpts(ref, ast.RulesOptions{IncludeHiddenModules: true}) {
		h := r.Head
		if len(h.Args) > 0 || h.RuleKind() != ast.SingleValue || !r.Ref().Equal(ref) || r.Else != nil {
			return nil, false
		}
		if r.Default {
			continue
		}
		p, ok := inputPathOf(r)
		if !ok || path != nil {
			return nil, false
		}
		path = p
	}
	return path, path != nil
}

// inputPathOf matches the compiled form of `name := input.a.b`: the body
// `__local0__ = input.a.b` and the value `__local0__`.
func inputPathOf(r *ast.Rule) (ast.Ref, bool) {
	if len(r.Body) != 1 || r.Head.Value == nil {
		return nil, false
	}
	e := r.Body[0]
	v, isVar := r.Head.Value.Value.(ast.Var)
	if !isVar || e.Negated || len(e.With) > 0 || !e.IsEquality() {
		return nil, false
	}
	lhs, rhs := e.Operand(0), e.Operand(1)
	ref, isRef := rhs.Value.(ast.Ref)
	if !lhs.Equal(ast.VarTerm(string(v))) || !isRef || len(ref) < 2 || !ref.HasPrefix(ast.InputRootRef) {
		return nil, false
	}
	for _, t := range ref[1:] {
		if _, ok := t.Value.(ast.String); !ok {
			return nil, false
		}
	}
	return ref[1:].Copy(), true
}

// find returns the term at path in the input document; nil when it has none.
func find(input ast.Value, path ast.Ref) *ast.Term {
	var t *ast.Term
	v := input
	for _, k := range path {
		o, ok := v.(ast.Object)
		if !ok {
			return nil
		}
		if t = o.Get(k); t == nil {
			return nil
		}
		v = t.Value
	}
	return t
}
