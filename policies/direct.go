package policies

import (
	"math"
	"strconv"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/storage"
)

// The library's three decision rules only assemble documents: the tools decision, for
// instance, is
//
//	violations := array.concat([v | some v in violation], [v | some v in call_violation])
//	calls := [{"id": call.id, "name": call.name, "allow": count(vs) == 0, "violations": vs} |
//		some i, call in input.tool_calls; vs := [v | some v in call_violation; v.call == i]]
//	decision := {"allow": count(violations) == 0, "calls": calls, "violations": violations}
//
// In OPA's evaluator that assembly — a comprehension per call over every call violation, the
// counts, the object — cost as much as the checks themselves. When the library is on and no
// bundle rule defines these documents, Weir evaluates only the violation sets (the extension
// points, with every library and bundle rule in them) and assembles the decision in Go,
// exactly as the Rego above does: sets are read in their sorted order (the order a Rego
// comprehension reads them in), v.call is compared as Rego's == compares numbers, and a
// malformed violation fails with the path it has in the Rego decision. The Rego decisions
// stay the contract: Rego unit tests, `library: false` bundles and bundles that add rules
// to decision, calls or violations (which could conflict) are evaluated in full, and
// TestDirectMatchesRego checks the two paths give the same decisions.

// directQueries are the violation-set queries of the three decisions; a nil query means
// that decision is evaluated in full.
type directQueries struct {
	request, tools, response *query
}

// assembled names the documents the Go assembly replaces, per decision.
var assembled = map[string][]string{
	RequestQuery:  {"data.weir.request.decision", "data.weir.request.violations"},
	ToolsQuery:    {"data.weir.tools.decision", "data.weir.tools.calls", "data.weir.tools.violations"},
	ResponseQuery: {"data.weir.response.decision", "data.weir.response.violations"},
}

func prepareDirect(c *ast.Compiler, store storage.Store, txn storage.Transaction) (directQueries, error) {
	var dq directQueries
	for _, p := range []struct {
		name string
		dst  **query
		refs []string
	}{
		{RequestQuery, &dq.request, []string{"data.weir.request.violation", "data.weir.request.obligations"}},
		{ToolsQuery, &dq.tools, []string{"data.weir.tools.violation", "data.weir.tools.call_violation"}},
		{ResponseQuery, &dq.response, []string{"data.weir.response.violation"}},
	} {
		if !libraryOnly(c, assembled[p.name]) {
			continue
		}
		q, err := prepareRefs(c, store, txn, p.name, p.refs...)
		if err != nil {
			return dq, err
		}
		*p.dst = q
	}
	return dq, nil
}

// libraryOnly reports whether every rule that may define one of the documents is the
// library's own.
func libraryOnly(c *ast.Compiler, refs []string) bool {
	for _, text := range refs {
		rules := c.GetRules(ast.MustParseRef(text))
		if len(rules) == 0 {
			return false
		}
		for _, r := range rules {
			if r.Location == nil || !strings.HasPrefix(r.Location.File, libPrefix) {
				return false
			}
		}
	}
	return true
}

// setTerms returns the elements of a violation set in sorted order; d records a value that
// is not a set.
func (d *decoder) setTerms(v ast.Value, p *docPath) []*ast.Term {
	s, ok := v.(ast.Set)
	if !ok {
		d.fail(p, "want a set of violations, got %s", typeName(v))
		return nil
	}
	return s.Slice()
}

var violationsPath = docPath{parent: &decisionPath, key: "violations"}

func decodeRequestDirect(query string, vs values) (RequestDecision, *Error) {
	d := &decoder{query: query}
	viol := d.setTerms(vs[0], &violationsPath)
	out := RequestDecision{
		Violations:  d.violationList(len(viol), func(i int) *ast.Term { return viol[i] }, &violationsPath, "weir.request.violation"),
		Obligations: d.obligations(vs[1]),
	}
	out.Allow = len(viol) == 0
	return out, d.err
}

func decodeResponseDirect(query string, vs values) (ResponseDecision, *Error) {
	d := &decoder{query: query}
	viol := d.setTerms(vs[0], &violationsPath)
	out := ResponseDecision{Violations: d.violationList(len(viol), func(i int) *ast.Term { return viol[i] }, &violationsPath, "weir.response.violation")}
	out.Allow = len(viol) == 0
	return out, d.err
}

var keyCall = ast.StringTerm("call")

// decodeToolsDirect assembles the tools decision from tools.violation and
// tools.call_violation: every violation in decision.violations (the tool-level ones
// first), and each call violation also in the verdict of the call its "call" names.
func decodeToolsDirect(query string, vs values, calls []ToolCall) (ToolsDecision, *Error) {
	d := &decoder{query: query}
	viol := d.setTerms(vs[0], &violationsPath)
	cviol := d.setTerms(vs[1], &violationsPath)
	if d.err != nil {
		return ToolsDecision{}, d.err
	}
	all := func(i int) *ast.Term {
		if i < len(viol) {
			return viol[i]
		}
		return cviol[i-len(viol)]
	}
	out := ToolsDecision{Violations: d.violationList(len(viol)+len(cviol), all, &violationsPath, "weir.tools.violation")}
	out.Allow = len(viol)+len(cviol) == 0
	if d.err != nil {
		return out, d.err
	}
	// Group the call violations by call, keeping the set's order within each call.
	var byCall [][]*ast.Term
	if len(cviol) > 0 {
		byCall = make([][]*ast.Term, len(calls))
		for _, t := range cviol {
			if i, ok := callIndex(t, len(calls)); ok {
				byCall[i] = append(byCall[i], t)
			}
		}
	}
	callsPath := docPath{parent: &decisionPath, key: "calls"}
	out.Calls = make([]CallDecision, len(calls))
	for i, call := range calls {
		c := CallDecision{ID: call.ID, Name: call.Name, Violations: []Violation{}}
		if byCall != nil && len(byCall[i]) > 0 {
			ts := byCall[i]
			p := docPath{parent: &callsPath, index: i}
			c.Violations = d.violationList(len(ts), func(j int) *ast.Term { return ts[j] }, &docPath{parent: &p, key: "violations"}, "weir.tools.call_violation")
		}
		c.Allow = len(c.Violations) == 0
		c.Reason = reason(c)
		out.Calls[i] = c
	}
	return out, d.err
}

// callIndex returns the call a violation names, as `v.call == i` selects it in Rego: v an
// object whose "call" is a number equal to i (1.0 equals 1; the string "1" does not).
func callIndex(t *ast.Term, n int) (int, bool) {
	o, ok := t.Value.(ast.Object)
	if !ok {
		return 0, false
	}
	c := o.Get(keyCall)
	if c == nil {
		return 0, false
	}
	num, ok := c.Value.(ast.Number)
	if !ok {
		return 0, false
	}
	if i, ok := num.Int(); ok {
		return i, i >= 0 && i < n
	}
	f, ok := num.Float64()
	if !ok || f < 0 || f >= float64(n) || f != math.Trunc(f) {
		return 0, false
	}
	i := int(f)
	// Rego compares numbers exactly: 1.0000000000000000001 is not 1, though it is as a float.
	return i, ast.Compare(num, ast.Number(strconv.Itoa(i))) == 0
}
