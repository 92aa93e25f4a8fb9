package policies

import (
	"context"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
)

// The library's intent helpers (lib.cfg, lib.allowed_set, the obligations, ...) depend on
// nothing but input.classification.intent and the bundle data, which never changes. Yet
// every decision evaluated them again — a third of a tools decision's time went into
// re-deriving the same sets for the same intent. At load, Weir evaluates them once per
// intent of data.weir.intents and hands the values to the evaluator as already-cached rule
// results (virtualCache.memo). The evaluator then skips those rules exactly as it skips a
// rule it has already evaluated in the same query; their Rego is unchanged, and Rego unit
// tests and `with` overrides (which open a fresh cache frame) evaluate them as before.
//
// A rule is memoized only when that is provably the same as evaluating it (intentOnly):
// it and everything it depends on is library code, reads input.classification.intent and
// no other input, uses no `with` and no non-deterministic builtin. A bundle that adds
// rules to one of these documents (which could conflict) switches the memo off for it.

// memoRefs are the documents memoized per intent.
var memoRefs = []string{
	"data.weir.lib.intent",
	"data.weir.lib.admitted",
	"data.weir.lib.cfg",
	"data.weir.lib.blocked_set",
	"data.weir.lib.allowed_set",
	"data.weir.lib.allowed_tools",
	"data.weir.lib.blocked_tools",
	"data.weir.lib.require_tool_call",
	"data.weir.lib.block_numeric_generation",
	"data.weir.lib.allow_derivations",
	"data.weir.lib.ignore_small_integers",
	"data.weir.lib.number_sources",
	"data.weir.request.obligations",
}

// memoEntry is one rule's value for one intent; undefined records a rule without a value
// (lib.admitted for an intent the data lists but not as an object, say).
type memoEntry struct {
	ref       ast.Ref
	hash      int
	value     *ast.Term
	undefined bool
}

// intentRef is the only input the memoized rules may read.
var intentRef = ast.MustParseRef("input.classification.intent")

// buildMemo evaluates the memoizable documents for every intent of data.weir.intents. A
// document whose evaluation fails is left out: the decision evaluates it and reports the
// error itself.
func buildMemo(ctx context.Context, c *ast.Compiler, mk func(text string) (*query, error), intents map[string]any) map[string][]memoEntry {
	var queries []*query
	for _, text := range memoRefs {
		ref := ast.MustParseRef(text)
		if !intentOnly(c, ref) {
			continue
		}
		q, err := mk(text)
		if err != nil {
			continue
		}
		queries = append(queries, q)
	}
	if len(queries) == 0 || len(intents) == 0 {
		return nil
	}
	memo := make(map[string][]memoEntry, len(intents))
	for name := range intents {
		input := ast.NewObject(ast.Item(ast.InternedTerm("classification"), ast.ObjectTerm(ast.Item(ast.InternedTerm("intent"), ast.StringTerm(name)))))
		var entries []memoEntry
		for _, q := range queries {
			ref := ast.MustParseRef(q.text)
			v, err := q.eval(ctx, input, nil)
			switch {
			case err == nil:
				entries = append(entries, memoEntry{ref: ref, hash: refHash(ref), value: ast.NewTerm(v)})
			case isUndefined(err):
				entries = append(entries, memoEntry{ref: ref, hash: refHash(ref), undefined: true})
			}
		}
		memo[name] = entries
	}
	return memo
}

func isUndefined(err error) bool {
	e, ok := err.(*Error)
	return ok && e.Code == CodeDecisionUndef
}

// intentOnly reports whether the document at ref is defined by library rules only, and
// whether those rules and every rule they depend on read no input but
// input.classification.intent, use no `with` and call no non-deterministic builtin.
func intentOnly(c *ast.Compiler, ref ast.Ref) bool {
	var q ruleQueue
	start := c.GetRules(ref)
	if len(start) == 0 {
		return false
	}
	q.add(start)
	ok := true
	for r := q.next(); r != nil && ok; r = q.next() {
		if r.Location == nil || !strings.HasPrefix(r.Location.File, libPrefix) {
			return false
		}
		ast.WalkWiths(r, func(*ast.With) bool {
			ok = false
			return true
		})
		ast.WalkExprs(r, func(e *ast.Expr) bool {
			if e.IsCall() {
				if b, found := ast.BuiltinMap[e.Operator().String()]; found && b.Nondeterministic {
					ok = false
				}
			}
			return !ok
		})
		ast.WalkRefs(r, func(x ast.Ref) bool {
			switch {
			case x.HasPrefix(ast.InputRootRef):
				if !x.Equal(intentRef) {
					ok = false
				}
			case x.HasPrefix(ast.DefaultRootRef):
				q.add(c.GetRulesDynamicWithOpts(x, ast.RulesOptions{IncludeHiddenModules: true}))
			}
			return !ok
		})
	}
	return ok
}
