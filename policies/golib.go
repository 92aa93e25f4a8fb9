package policies

import (
	"context"
	"fmt"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
)

// With the decisions assembled in Go (direct.go) and the intent's documents memoized
// (memo.go), what remained of a tools or response decision in OPA was the library's own
// checks: a set lookup per call, a few comparisons per number, a sprintf per violation —
// yet the evaluator still cost ~9 µs per decision. When every rule the violation sets
// depend on is the library's (libraryClosure; the request's violations, whatever rules
// define them, come from their own evaluation or memo, memos.go), Weir evaluates those
// rules in Go, exactly as policies/lib/tools.rego and response.rego do: the same objects,
// the same messages (sprintf's argument conversion, regoArg), in a set (OPA's order). The
// per-intent values come from the memo; an intent whose values are missing or of another
// shape, an input that may not build, a cancelled context or request violations that are
// not at hand fall back to the OPA evaluation. TestGoLibMatchesRego compares both.

// goLib is a bundle's Go evaluation of the library's tools and response violations.
type goLib struct {
	tools, response bool                  // the violation set is defined by library rules only
	intents         map[string]*intentLib // per intent with usable memoized documents
}

// intentLib holds one intent's memoized library documents in the shape the Go checks use.
type intentLib struct {
	intent                                      string     // lib.intent
	allowed, blocked                            ast.Set    // lib.allowed_set, lib.blocked_set
	sources                                     *ast.Array // lib.number_sources
	requireCall, blockNumbers, allowDerivations bool
	ignoreSmall                                 bool
	allowedToolsArg, sourcesArg                 any // lib.allowed_tools, lib.number_sources as sprintf gets them
}

func prepareGoLib(c *ast.Compiler, memo map[string][]memoEntry) goLib {
	g := goLib{
		tools:    libraryClosure(c, "data.weir.tools.call_violation", "data.weir.tools.violation"),
		response: libraryClosure(c, "data.weir.response.violation"),
	}
	if !g.tools && !g.response {
		return g
	}
	g.intents = make(map[string]*intentLib, len(memo))
	for name, entries := range memo {
		if l, ok := newIntentLib(entries); ok {
			g.intents[name] = l
		}
	}
	return g
}

// newIntentLib reads an intent's memoized documents; false when one is missing or not of
// the shape the library gives it.
func newIntentLib(entries []memoEntry) (*intentLib, bool) {
	val := func(ref string) ast.Value {
		for _, e := range entries {
			if !e.undefined && e.ref.String() == ref {
				return e.value.Value
			}
		}
		return nil
	}
	intent, ok1 := val("data.weir.lib.intent").(ast.String)
	allowed, ok2 := val("data.weir.lib.allowed_set").(ast.Set)
	blocked, ok3 := val("data.weir.lib.blocked_set").(ast.Set)
	allowedTools, ok4 := val("data.weir.lib.allowed_tools").(*ast.Array)
	sources, ok5 := val("data.weir.lib.number_sources").(*ast.Array)
	req, ok6 := val("data.weir.lib.require_tool_call").(ast.Boolean)
	blk, ok7 := val("data.weir.lib.block_numeric_generation").(ast.Boolean)
	der, ok8 := val("data.weir.lib.allow_derivations").(ast.Boolean)
	small, ok9 := val("data.weir.lib.ignore_small_integers").(ast.Boolean)
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || !ok6 || !ok7 || !ok8 || !ok9 {
		return nil, false
	}
	return &intentLib{
		intent: string(intent), allowed: allowed, blocked: blocked, sources: sources,
		requireCall: bool(req), blockNumbers: bool(blk), allowDerivations: bool(der), ignoreSmall: bool(small),
		allowedToolsArg: regoArg(allowedTools), sourcesArg: regoArg(sources),
	}, true
}

// libraryClosure reports whether the documents at refs, and every rule they depend on
// transitively, are defined by library rules only. data.weir.request.violation is not
// followed: its value is evaluated on its own (memos.go).
func libraryClosure(c *ast.Compiler, refs ...string) bool {
	var q ruleQueue
	for _, text := range refs {
		rs := c.GetRules(ast.MustParseRef(text))
		if len(rs) == 0 {
			return false
		}
		q.add(rs)
	}
	for r := q.next(); r != nil; r = q.next() {
		if r.Location == nil || !strings.HasPrefix(r.Location.File, libPrefix) {
			return false
		}
		ast.WalkRefs(r, func(x ast.Ref) bool {
			if x.HasPrefix(ast.DefaultRootRef) && !x.HasPrefix(requestViolationRef) {
				q.add(c.GetRulesDynamicWithOpts(x, ast.RulesOptions{IncludeHiddenModules: true}))
			}
			return false
		})
	}
	return true
}

// regoArg converts a value as OPA's sprintf does (topdown builtinSprintf): strings are
// passed as Go strings, numbers are not needed here, anything else by its String form.
func regoArg(v ast.Value) any {
	if s, ok := v.(ast.String); ok {
		return string(s)
	}
	return v.String()
}

// goIntent returns the intent's values and the request's violations when the Go
// evaluation of a decision (enabled: its violation set is the library's only) may run for
// the input; false means: evaluate with OPA.
func (b *Bundle) goIntent(ctx context.Context, in *Input, enabled bool) (*intentLib, ast.Set, bool) {
	l := b.golib.intents[in.Classification.Intent]
	if !enabled || l == nil || ctx.Err() != nil || !in.builds() {
		return nil, nil, false
	}
	req, ok := b.requestViolations(ctx, in)
	return l, req, ok
}

// requestViolations returns data.weir.request.violation for the input, from its memo or
// evaluated now; false when the memo is off or the evaluation fails.
func (b *Bundle) requestViolations(ctx context.Context, in *Input) (ast.Set, bool) {
	m := b.memos.violation
	if m == nil {
		return nil, false
	}
	entries, ok := m.get(m.key(in))
	if !ok {
		iv, err := in.value(b.toolNames, b.memos.reads, b.memos.prefix)
		if err != nil {
			return nil, false
		}
		entries = b.withViolations(ctx, in, iv, b.memo[in.Classification.Intent])
	}
	if len(entries) == 0 {
		return nil, false
	}
	last := entries[len(entries)-1]
	if last.undefined || !last.ref.Equal(requestViolationRef) {
		return nil, false
	}
	s, ok := last.value.Value.(ast.Set)
	return s, ok
}

var (
	codeToolNotAllowed   = ast.StringTerm("tool_not_allowed")
	ruleToolNotAllowed   = ast.StringTerm("weir.tools.call_violation[tool_not_allowed]")
	codeToolArgsInvalid  = ast.StringTerm("tool_arguments_invalid")
	ruleToolArgsInvalid  = ast.StringTerm("weir.tools.call_violation[tool_arguments_invalid]")
	codeToolCallRequired = ast.StringTerm("tool_call_required")
	ruleToolCallRequired = ast.StringTerm("weir.response.violation[tool_call_required]")
	codeUngroundedNumber = ast.StringTerm("ungrounded_number")
	ruleUngroundedNumber = ast.StringTerm("weir.response.violation[ungrounded_number]")
)

func callViolation(i int, code *ast.Term, msg string, rule *ast.Term) *ast.Term {
	return ast.ObjectTerm(
		[2]*ast.Term{keyCall, ast.IntNumberTerm(i)},
		[2]*ast.Term{keyCode, code},
		[2]*ast.Term{keyMessage, ast.StringTerm(msg)},
		[2]*ast.Term{keyRule, rule},
	)
}

// toolsViolations evaluates tools.violation and tools.call_violation (tools.rego) in Go;
// false means: evaluate them with OPA.
func (b *Bundle) toolsViolations(ctx context.Context, in *Input) (values, bool) {
	l, req, ok := b.goIntent(ctx, in, b.golib.tools)
	if !ok {
		return values{}, false
	}
	var terms []*ast.Term
	for i := range in.ToolCalls {
		tc := &in.ToolCalls[i]
		if name := ast.StringTerm(tc.Name); !l.allowed.Contains(name) {
			var msg string
			if l.blocked.Contains(name) {
				msg = fmt.Sprintf("tool %q is blocked for intent %q", tc.Name, l.intent)
			} else {
				msg = fmt.Sprintf("tool %q is not allowed for intent %q", tc.Name, l.intent)
			}
			terms = append(terms, callViolation(i, codeToolNotAllowed, msg, ruleToolNotAllowed))
		}
		if tc.ArgumentsError != "" {
			msg := fmt.Sprintf("arguments of tool %q: %s", tc.Name, tc.ArgumentsError)
			terms = append(terms, callViolation(i, codeToolArgsInvalid, msg, ruleToolArgsInvalid))
		}
	}
	return values{req, ast.NewSet(terms...)}, true
}

// responseViolations evaluates response.violation (response.rego) in Go; false means:
// evaluate it with OPA.
func (b *Bundle) responseViolations(ctx context.Context, in *Input) (values, bool) {
	l, req, ok := b.goIntent(ctx, in, b.golib.response)
	if !ok {
		return values{}, false
	}
	var terms []*ast.Term
	if l.requireCall && !l.allowedToolUsed(in) {
		terms = append(terms, ast.ObjectTerm(
			[2]*ast.Term{keyCode, codeToolCallRequired},
			[2]*ast.Term{keyMessage, ast.StringTerm(fmt.Sprintf("intent %q requires a call to one of %v before answering", l.intent, l.allowedToolsArg))},
			[2]*ast.Term{keyRule, ruleToolCallRequired},
		))
	}
	if l.blockNumbers {
		for i := range in.Answer.Numbers {
			n := &in.Answer.Numbers[i]
			if l.grounded(n) {
				continue
			}
			terms = append(terms, ast.ObjectTerm(
				[2]*ast.Term{keyCode, codeUngroundedNumber},
				[2]*ast.Term{keyMessage, ast.StringTerm(l.ungroundedMessage(n))},
				[2]*ast.Term{nkText, ast.StringTerm(n.Text)},
				[2]*ast.Term{keyRule, ruleUngroundedNumber},
			))
		}
	}
	if len(terms) == 0 {
		return values{req}, true
	}
	req.Foreach(func(t *ast.Term) { terms = append(terms, t) })
	return values{ast.NewSet(terms...)}, true
}

// allowedToolUsed is response.allowed_tool_used: an allowed tool was called or is proposed.
func (l *intentLib) allowedToolUsed(in *Input) bool {
	for _, t := range in.ToolsCalled {
		if l.allowed.Contains(ast.StringTerm(t)) {
			return true
		}
	}
	for i := range in.ToolCalls {
		if l.allowed.Contains(ast.StringTerm(in.ToolCalls[i].Name)) {
			return true
		}
	}
	return false
}

// sourceOK is `n.source_kind in lib.number_sources`.
func (l *intentLib) sourceOK(n *Number) bool {
	k := ast.String(n.SourceKind)
	for i := range l.sources.Len() {
		if ast.Compare(l.sources.Elem(i).Value, k) == 0 {
			return true
		}
	}
	return false
}

// derivationOK is lib.derivation_ok(n).
func (l *intentLib) derivationOK(n *Number) bool { return n.Derivation == "" || l.allowDerivations }

// grounded is lib.number_grounded(n).
func (l *intentLib) grounded(n *Number) bool {
	return l.ignoreSmall && n.Trivial || n.Grounded && l.sourceOK(n) && l.derivationOK(n)
}

// ungroundedMessage is response.ungrounded_message(n).
func (l *intentLib) ungroundedMessage(n *Number) string {
	switch {
	case n.Grounded && l.sourceOK(n) && !l.derivationOK(n):
		return fmt.Sprintf("number %q is a derivation (%s); intent %q allows none", n.Text, n.Derivation, l.intent)
	case n.Grounded:
		return fmt.Sprintf("number %q comes from a %s source; intent %q admits numbers from %v only", n.Text, n.SourceKind, l.intent, l.sourcesArg)
	}
	return fmt.Sprintf("number %q is not grounded in any source intent %q admits (%v)", n.Text, l.intent, l.sourcesArg)
}

// ResponseLibraryOnly reports whether the response decision's violations come from the
// built-in library alone: then, for an intent that neither blocks numeric generation nor
// requires a tool call, and a request admitted without violations, it allows whatever the
// answer says. The gateway streams such answers without holding their text.
func (b *Bundle) ResponseLibraryOnly() bool { return b.golib.response }
