package policies

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
)

// The decision documents are decoded from OPA's AST values directly: converting them to
// map[string]any first would allocate a map per object and cost as much as the decoding.

// Keys of the decision documents, built once.
var (
	keyAllow       = ast.StringTerm("allow")
	keyViolations  = ast.StringTerm("violations")
	keyObligations = ast.StringTerm("obligations")
	keyCalls       = ast.StringTerm("calls")
	keyID          = ast.StringTerm("id")
	keyName        = ast.StringTerm("name")
	keyReason      = ast.StringTerm("reason")
	keyCode        = ast.StringTerm("code")
	keyMessage     = ast.StringTerm("message")
	keyRule        = ast.StringTerm("rule")
	keyText        = ast.StringTerm("text")

	keyAllowedTools           = ast.StringTerm("allowed_tools")
	keyBlockedTools           = ast.StringTerm("blocked_tools")
	keyRequireToolCall        = ast.StringTerm("require_tool_call")
	keyBlockNumericGeneration = ast.StringTerm("block_numeric_generation")
	keyAllowDerivations       = ast.StringTerm("allow_derivations")
	keyNumberSources          = ast.StringTerm("number_sources")
)

// docPath locates a value in a decision document for error messages; it is only formatted
// when decoding fails, so that a valid decision costs no string building.
type docPath struct {
	parent *docPath
	key    string // the object key, or "" for an array element
	index  int
}

func (p *docPath) String() string {
	if p.parent == nil {
		return p.key
	}
	if p.key != "" {
		return p.parent.String() + "." + p.key
	}
	return p.parent.String() + "[" + strconv.Itoa(p.index) + "]"
}

// decoder reads a decision document strictly; the first problem is kept with its path.
type decoder struct {
	query string
	err   *Error
}

func (d *decoder) fail(p *docPath, format string, args ...any) {
	if d.err == nil {
		d.err = errorf(CodeDecisionBad, "%s: %s: %s", d.query, p.String(), fmt.Sprintf(format, args...))
	}
}

func (d *decoder) object(v ast.Value, p *docPath) ast.Object {
	o, ok := v.(ast.Object)
	if !ok {
		d.fail(p, "want an object, got %s", typeName(v))
	}
	return o
}

// get returns the value of key in o; nil when o is nil or has no such key.
func get(o ast.Object, key *ast.Term) ast.Value {
	if o == nil {
		return nil
	}
	if t := o.Get(key); t != nil {
		return t.Value
	}
	return nil
}

func (d *decoder) boolean(o ast.Object, key *ast.Term, p *docPath, required, def bool) bool {
	v := get(o, key)
	if v == nil {
		if required {
			d.fail(&docPath{parent: p, key: keyString(key)}, "missing")
		}
		return def
	}
	b, ok := v.(ast.Boolean)
	if !ok {
		d.fail(&docPath{parent: p, key: keyString(key)}, "want a boolean, got %s", typeName(v))
	}
	return bool(b)
}

func (d *decoder) str(o ast.Object, key *ast.Term, p *docPath, required bool) string {
	v := get(o, key)
	if v == nil {
		if required {
			d.fail(&docPath{parent: p, key: keyString(key)}, "missing")
		}
		return ""
	}
	s, ok := v.(ast.String)
	if !ok {
		d.fail(&docPath{parent: p, key: keyString(key)}, "want a string, got %s", typeName(v))
	}
	return string(s)
}

// array returns the array under key. A set is read as an array in sorted order, as OPA's
// JSON conversion does.
func (d *decoder) array(o ast.Object, key *ast.Term, p *docPath) *ast.Array {
	v := get(o, key)
	switch a := v.(type) {
	case *ast.Array:
		return a
	case ast.Set:
		return a.Sorted()
	case nil:
		d.fail(&docPath{parent: p, key: keyString(key)}, "missing")
	default:
		d.fail(&docPath{parent: p, key: keyString(key)}, "want an array, got %s", typeName(v))
	}
	return nil
}

func (d *decoder) stringList(o ast.Object, key *ast.Term, p *docPath, def []string) []string {
	if get(o, key) == nil {
		return def
	}
	a := d.array(o, key, p)
	if a == nil {
		return def
	}
	out := make([]string, 0, a.Len())
	for i := range a.Len() {
		x := a.Elem(i).Value
		s, ok := x.(ast.String)
		if !ok {
			d.fail(&docPath{parent: &docPath{parent: p, key: keyString(key)}, index: i}, "want a string, got %s", typeName(x))
		}
		out = append(out, string(s))
	}
	return out
}

// violations decodes an array of violations; rule names the extension point a violation
// without its own "rule" came from.
func (d *decoder) violations(o ast.Object, p *docPath, rule string) []Violation {
	a := d.array(o, keyViolations, p)
	if a == nil {
		return []Violation{}
	}
	return d.violationList(a.Len(), a.Elem, &docPath{parent: p, key: "violations"}, rule)
}

// violationList decodes n violations, elem(i) being the i-th, at path arrPath.
func (d *decoder) violationList(n int, elem func(int) *ast.Term, arrPath *docPath, rule string) []Violation {
	if n == 0 {
		return []Violation{}
	}
	out := make([]Violation, 0, n)
	for i := range n {
		vp := docPath{parent: arrPath, index: i}
		vo := d.object(elem(i).Value, &vp)
		v := Violation{
			Code:    d.str(vo, keyCode, &vp, true),
			Message: d.str(vo, keyMessage, &vp, false),
			Rule:    d.str(vo, keyRule, &vp, false),
			Text:    d.str(vo, keyText, &vp, false),
		}
		if v.Code == "" && d.err == nil {
			d.fail(&docPath{parent: &vp, key: "code"}, "empty")
		}
		if v.Rule == "" {
			v.Rule = rule
		}
		out = append(out, v)
	}
	return out
}

func keyString(t *ast.Term) string {
	s, _ := t.Value.(ast.String)
	return string(s)
}

func typeName(v any) string {
	switch v.(type) {
	case nil, ast.Null:
		return "null"
	case map[string]any, ast.Object:
		return "object"
	case []any, *ast.Array, ast.Set:
		return "array"
	case string, ast.String:
		return "string"
	case bool, ast.Boolean:
		return "boolean"
	default:
		return "number"
	}
}

var decisionPath = docPath{key: "decision"}

func decodeRequest(query string, v ast.Value) (RequestDecision, *Error) {
	d := &decoder{query: query}
	m := d.object(v, &decisionPath)
	var out RequestDecision
	if d.err != nil {
		return out, d.err
	}
	out.Allow = d.boolean(m, keyAllow, &decisionPath, true, false)
	out.Violations = d.violations(m, &decisionPath, "weir.request.violation")
	out.Obligations = d.obligations(get(m, keyObligations))
	out.Allow = out.Allow && len(out.Violations) == 0
	return out, d.err
}

// obligations decodes decision.obligations (nil when missing).
func (d *decoder) obligations(ob ast.Value) Obligations {
	p := docPath{parent: &decisionPath, key: "obligations"}
	if ob == nil {
		d.fail(&p, "missing")
		return Obligations{}
	}
	om := d.object(ob, &p)
	if om == nil {
		return Obligations{}
	}
	return Obligations{
		AllowedTools:           d.stringList(om, keyAllowedTools, &p, []string{}),
		BlockedTools:           d.stringList(om, keyBlockedTools, &p, []string{}),
		RequireToolCall:        d.boolean(om, keyRequireToolCall, &p, false, false),
		BlockNumericGeneration: d.boolean(om, keyBlockNumericGeneration, &p, false, true),
		AllowDerivations:       d.boolean(om, keyAllowDerivations, &p, false, false),
		NumberSources:          d.stringList(om, keyNumberSources, &p, []string{"tool", "user", "system"}),
	}
}

func decodeTools(query string, v ast.Value, calls int) (ToolsDecision, *Error) {
	d := &decoder{query: query}
	m := d.object(v, &decisionPath)
	var out ToolsDecision
	if d.err != nil {
		return out, d.err
	}
	out.Allow = d.boolean(m, keyAllow, &decisionPath, true, false)
	out.Violations = d.violations(m, &decisionPath, "weir.tools.violation")
	arr := d.array(m, keyCalls, &decisionPath)
	callsPath := docPath{parent: &decisionPath, key: "calls"}
	n := 0
	if arr != nil {
		n = arr.Len()
	}
	if d.err == nil && n != calls {
		d.fail(&callsPath, "%d verdicts for %d proposed calls", n, calls)
	}
	out.Calls = make([]CallDecision, 0, n)
	for i := range n {
		p := docPath{parent: &callsPath, index: i}
		cm := d.object(arr.Elem(i).Value, &p)
		c := CallDecision{
			ID:         d.str(cm, keyID, &p, false),
			Name:       d.str(cm, keyName, &p, true),
			Allow:      d.boolean(cm, keyAllow, &p, true, false),
			Reason:     d.str(cm, keyReason, &p, false),
			Violations: d.violations(cm, &p, "weir.tools.call_violation"),
		}
		c.Allow = c.Allow && len(c.Violations) == 0
		if c.Reason == "" {
			c.Reason = reason(c)
		}
		out.Allow = out.Allow && c.Allow
		out.Calls = append(out.Calls, c)
	}
	out.Allow = out.Allow && len(out.Violations) == 0
	return out, d.err
}

func decodeResponse(query string, v ast.Value) (ResponseDecision, *Error) {
	d := &decoder{query: query}
	m := d.object(v, &decisionPath)
	var out ResponseDecision
	if d.err != nil {
		return out, d.err
	}
	out.Allow = d.boolean(m, keyAllow, &decisionPath, true, false)
	out.Violations = d.violations(m, &decisionPath, "weir.response.violation")
	out.Allow = out.Allow && len(out.Violations) == 0
	return out, d.err
}

// reason explains a call verdict whose policy gave none: "allowed", or the violations'
// messages.
func reason(c CallDecision) string {
	if c.Allow {
		return "allowed"
	}
	if len(c.Violations) == 0 {
		return "denied"
	}
	if len(c.Violations) == 1 {
		return c.Violations[0].Message
	}
	msgs := make([]string, len(c.Violations))
	for i, v := range c.Violations {
		msgs[i] = v.Message
	}
	return strings.Join(msgs, "; ")
}
