package policies

import (
	"fmt"
	"strings"
)

// Violation is one reason a decision denies. Code is stable (see README.md); Rule names the
// Rego rule that produced it; Text is the number as written, for number violations.
type Violation struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Rule    string `json:"rule,omitempty"`
	Text    string `json:"text,omitempty"`
}

// Obligations bind the rest of an exchange once the request is admitted.
type Obligations struct {
	AllowedTools           []string `json:"allowed_tools"` // the tools the model may be offered (blocked ones removed)
	BlockedTools           []string `json:"blocked_tools"`
	RequireToolCall        bool     `json:"require_tool_call"`
	BlockNumericGeneration bool     `json:"block_numeric_generation"`
	AllowDerivations       bool     `json:"allow_derivations"` // one arithmetic step from source numbers counts as grounded
	NumberSources          []string `json:"number_sources"`    // tool, user, system: where numbers may come from
}

// RequestDecision is the result of data.weir.request.decision.
type RequestDecision struct {
	Allow       bool        `json:"allow"`
	Violations  []Violation `json:"violations"`
	Obligations Obligations `json:"obligations"`
	Revision    string      `json:"revision"`
}

// CallDecision is the verdict on one proposed tool call, in the order of Input.ToolCalls.
type CallDecision struct {
	ID         string      `json:"id"`
	Name       string      `json:"name"`
	Allow      bool        `json:"allow"`
	Reason     string      `json:"reason"`
	Violations []Violation `json:"violations"`
}

// ToolsDecision is the result of data.weir.tools.decision. Allow holds only when every
// call is allowed and there is no other violation.
type ToolsDecision struct {
	Allow      bool           `json:"allow"`
	Calls      []CallDecision `json:"calls"`
	Violations []Violation    `json:"violations"`
	Revision   string         `json:"revision"`
}

// ResponseDecision is the result of data.weir.response.decision.
type ResponseDecision struct {
	Allow      bool        `json:"allow"`
	Violations []Violation `json:"violations"`
	Revision   string      `json:"revision"`
}

// decoder reads a decision document strictly; the first problem is kept with its path.
type decoder struct {
	query string
	err   *Error
}

func (d *decoder) fail(path, format string, args ...any) {
	if d.err == nil {
		d.err = errorf(CodeDecisionBad, "%s: %s: %s", d.query, path, fmt.Sprintf(format, args...))
	}
}

func (d *decoder) object(v any, path string) map[string]any {
	m, ok := v.(map[string]any)
	if !ok {
		d.fail(path, "want an object, got %s", typeName(v))
	}
	return m
}

func (d *decoder) boolean(m map[string]any, key, path string, required, def bool) bool {
	v, ok := m[key]
	if !ok {
		if required {
			d.fail(path+"."+key, "missing")
		}
		return def
	}
	b, ok := v.(bool)
	if !ok {
		d.fail(path+"."+key, "want a boolean, got %s", typeName(v))
	}
	return b
}

func (d *decoder) str(m map[string]any, key, path string, required bool) string {
	v, ok := m[key]
	if !ok {
		if required {
			d.fail(path+"."+key, "missing")
		}
		return ""
	}
	s, ok := v.(string)
	if !ok {
		d.fail(path+"."+key, "want a string, got %s", typeName(v))
	}
	return s
}

func (d *decoder) array(m map[string]any, key, path string) []any {
	v, ok := m[key]
	if !ok {
		d.fail(path+"."+key, "missing")
		return nil
	}
	a, ok := v.([]any)
	if !ok {
		d.fail(path+"."+key, "want an array, got %s", typeName(v))
	}
	return a
}

func (d *decoder) stringList(m map[string]any, key, path string, def []string) []string {
	if _, ok := m[key]; !ok {
		return def
	}
	a := d.array(m, key, path)
	out := make([]string, 0, len(a))
	for i, x := range a {
		s, ok := x.(string)
		if !ok {
			d.fail(fmt.Sprintf("%s.%s[%d]", path, key, i), "want a string, got %s", typeName(x))
		}
		out = append(out, s)
	}
	return out
}

// violations decodes an array of violations; rule names the extension point a violation
// without its own "rule" came from.
func (d *decoder) violations(m map[string]any, key, path, rule string) []Violation {
	a := d.array(m, key, path)
	out := make([]Violation, 0, len(a))
	for i, x := range a {
		p := fmt.Sprintf("%s.%s[%d]", path, key, i)
		vm := d.object(x, p)
		v := Violation{
			Code:    d.str(vm, "code", p, true),
			Message: d.str(vm, "message", p, false),
			Rule:    d.str(vm, "rule", p, false),
			Text:    d.str(vm, "text", p, false),
		}
		if v.Code == "" && d.err == nil {
			d.fail(p+".code", "empty")
		}
		if v.Rule == "" {
			v.Rule = rule
		}
		out = append(out, v)
	}
	return out
}

func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	case bool:
		return "boolean"
	default:
		return "number"
	}
}

func decodeRequest(query string, v any) (RequestDecision, *Error) {
	d := &decoder{query: query}
	m := d.object(v, "decision")
	var out RequestDecision
	if d.err != nil {
		return out, d.err
	}
	out.Allow = d.boolean(m, "allow", "decision", true, false)
	out.Violations = d.violations(m, "violations", "decision", "weir.request.violation")
	if ob, ok := m["obligations"]; !ok {
		d.fail("decision.obligations", "missing")
	} else if om := d.object(ob, "decision.obligations"); om != nil {
		p := "decision.obligations"
		out.Obligations = Obligations{
			AllowedTools:           d.stringList(om, "allowed_tools", p, []string{}),
			BlockedTools:           d.stringList(om, "blocked_tools", p, []string{}),
			RequireToolCall:        d.boolean(om, "require_tool_call", p, false, false),
			BlockNumericGeneration: d.boolean(om, "block_numeric_generation", p, false, true),
			AllowDerivations:       d.boolean(om, "allow_derivations", p, false, false),
			NumberSources:          d.stringList(om, "number_sources", p, []string{"tool", "user", "system"}),
		}
	}
	out.Allow = out.Allow && len(out.Violations) == 0
	return out, d.err
}

func decodeTools(query string, v any, calls int) (ToolsDecision, *Error) {
	d := &decoder{query: query}
	m := d.object(v, "decision")
	var out ToolsDecision
	if d.err != nil {
		return out, d.err
	}
	out.Allow = d.boolean(m, "allow", "decision", true, false)
	out.Violations = d.violations(m, "violations", "decision", "weir.tools.violation")
	arr := d.array(m, "calls", "decision")
	if d.err == nil && len(arr) != calls {
		d.fail("decision.calls", "%d verdicts for %d proposed calls", len(arr), calls)
	}
	out.Calls = make([]CallDecision, 0, len(arr))
	for i, x := range arr {
		p := fmt.Sprintf("decision.calls[%d]", i)
		cm := d.object(x, p)
		c := CallDecision{
			ID:         d.str(cm, "id", p, false),
			Name:       d.str(cm, "name", p, true),
			Allow:      d.boolean(cm, "allow", p, true, false),
			Reason:     d.str(cm, "reason", p, false),
			Violations: d.violations(cm, "violations", p, "weir.tools.call_violation"),
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

func decodeResponse(query string, v any) (ResponseDecision, *Error) {
	d := &decoder{query: query}
	m := d.object(v, "decision")
	var out ResponseDecision
	if d.err != nil {
		return out, d.err
	}
	out.Allow = d.boolean(m, "allow", "decision", true, false)
	out.Violations = d.violations(m, "violations", "decision", "weir.response.violation")
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
	msgs := make([]string, len(c.Violations))
	for i, v := range c.Violations {
		msgs[i] = v.Message
	}
	return strings.Join(msgs, "; ")
}
