package policies

import (
	"reflect"

	"github.com/open-policy-agent/opa/v1/ast"
)

// Input is the input document of the three decisions. Later stages fill more fields; the
// request decision sees subject, route and classification, the tools decision adds
// tool_calls, the response decision adds tools_called and answer. See README.md.
type Input struct {
	Subject        Subject        `json:"subject"`
	Route          Route          `json:"route"`
	Classification Classification `json:"classification"`
	ToolCalls      []ToolCall     `json:"tool_calls"`   // proposed by the model
	ToolsCalled    []string       `json:"tools_called"` // called earlier in the conversation, with a result
	Answer         Answer         `json:"answer"`
}

// Subject is the authenticated caller, as the gateway knows it; empty offline.
type Subject struct {
	ID    string   `json:"id"`
	Roles []string `json:"roles"`
}

// Route names the gateway route and its surface (openai, query, data or offline).
type Route struct {
	Name    string `json:"name"`
	Surface string `json:"surface"`
}

// Classification is the classifier's result for the request.
type Classification struct {
	Intent     string         `json:"intent"`
	Confidence float64        `json:"confidence"`
	Source     string         `json:"source"` // rules, default, llm or offline
	Rules      []string       `json:"rules"`  // ids of the matched rules
	Filters    map[string]any `json:"filters"`
}

// ToolCall is a tool call proposed by the model. Arguments holds the parsed JSON arguments
// (nil when they could not be parsed, and ArgumentsError says why).
type ToolCall struct {
	ID             string `json:"id"`
	Name           string `json:"name"`
	Arguments      any    `json:"arguments"`
	ArgumentsError string `json:"arguments_error"`

	// args caches Arguments as an ast.Value, converted once by Bundle.ToolCall instead of
	// on every decision. It is used only while Arguments is still the same object (argsOf).
	args   ast.Value
	argsOf uintptr
}

// argsKey identifies the parsed arguments object: the map's pointer, 0 for anything that
// is not a non-nil map[string]any (then the cache is never used).
func argsKey(a any) uintptr {
	if m, ok := a.(map[string]any); ok && m != nil {
		return uintptr(reflect.ValueOf(m).UnsafePointer())
	}
	return 0
}

// cacheArgs converts the arguments to an ast.Value once. A conversion error is left for
// term() to report, as before.
func (tc *ToolCall) cacheArgs() {
	k := argsKey(tc.Arguments)
	if k == 0 {
		return
	}
	if v, err := ast.InterfaceToValue(tc.Arguments); err == nil {
		tc.args, tc.argsOf = v, k
	}
}

// Answer describes the assistant's answer to the response decision.
type Answer struct {
	Numbers []Number `json:"numbers"`
}

// Number is one number of the answer with its grounding result.
type Number struct {
	Text       string  `json:"text"` // as written in the answer
	Value      float64 `json:"value"`
	Grounded   bool    `json:"grounded"`
	Source     string  `json:"source"`      // e.g. tool:execute_metric, user, system
	SourceKind string  `json:"source_kind"` // tool, user or system; "" when not grounded
	Derivation string  `json:"derivation"`  // the arithmetic step, "" for a direct match
	Trivial    bool    `json:"trivial"`     // a bare small integer (|value| ≤ 10) such as "3 levers"
}

// value builds the input as an ast.Value directly, without a JSON round trip: this is on
// the hot path of every decision.
func (in *Input) value() (ast.Value, error) {
	calls := make([]*ast.Term, len(in.ToolCalls))
	for i := range in.ToolCalls {
		t, err := in.ToolCalls[i].term()
		if err != nil {
			return nil, err
		}
		calls[i] = t
	}
	filters := ast.NewObject()
	if len(in.Classification.Filters) > 0 {
		v, err := ast.InterfaceToValue(in.Classification.Filters)
		if err != nil {
			return nil, errorf(CodeInputInvalid, "classification.filters: %v", err)
		}
		filters = v.(ast.Object)
	}
	return ast.NewObject(
		item("subject", ast.ObjectTerm(
			item("id", ast.StringTerm(in.Subject.ID)),
			item("roles", stringArray(in.Subject.Roles)),
		)),
		item("route", ast.ObjectTerm(
			item("name", ast.StringTerm(in.Route.Name)),
			item("surface", ast.StringTerm(in.Route.Surface)),
		)),
		item("classification", ast.ObjectTerm(
			item("intent", ast.StringTerm(in.Classification.Intent)),
			item("confidence", ast.FloatNumberTerm(in.Classification.Confidence)),
			item("source", ast.StringTerm(in.Classification.Source)),
			item("rules", stringArray(in.Classification.Rules)),
			item("filters", ast.NewTerm(filters)),
		)),
		item("tool_calls", ast.ArrayTerm(calls...)),
		item("tools_called", stringArray(in.ToolsCalled)),
		item("answer", ast.ObjectTerm(item("numbers", numbers(in.Answer.Numbers)))),
	), nil
}

func (tc *ToolCall) term() (*ast.Term, error) {
	args := ast.NullTerm()
	if tc.Arguments != nil {
		v := tc.args
		if v == nil || tc.argsOf != argsKey(tc.Arguments) {
			var err error
			if v, err = ast.InterfaceToValue(tc.Arguments); err != nil {
				return nil, errorf(CodeInputInvalid, "tool call %q: arguments: %v", tc.Name, err)
			}
		}
		args = ast.NewTerm(v)
	}
	return ast.ObjectTerm(
		[2]*ast.Term{tcKeyID, ast.StringTerm(tc.ID)},
		[2]*ast.Term{tcKeyName, ast.StringTerm(tc.Name)},
		[2]*ast.Term{tcKeyArguments, args},
		[2]*ast.Term{tcKeyArgumentsError, ast.StringTerm(tc.ArgumentsError)},
	), nil
}

// Constant keys of the tool call objects, built once.
var (
	tcKeyID             = ast.StringTerm("id")
	tcKeyName           = ast.StringTerm("name")
	tcKeyArguments      = ast.StringTerm("arguments")
	tcKeyArgumentsError = ast.StringTerm("arguments_error")
)

func numbers(ns []Number) *ast.Term {
	terms := make([]*ast.Term, len(ns))
	for i, n := range ns {
		terms[i] = ast.ObjectTerm(
			item("text", ast.StringTerm(n.Text)),
			item("value", ast.FloatNumberTerm(n.Value)),
			item("grounded", ast.BooleanTerm(n.Grounded)),
			item("source", ast.StringTerm(n.Source)),
			item("source_kind", ast.StringTerm(n.SourceKind)),
			item("derivation", ast.StringTerm(n.Derivation)),
			item("trivial", ast.BooleanTerm(n.Trivial)),
		)
	}
	return ast.ArrayTerm(terms...)
}

func stringArray(ss []string) *ast.Term {
	terms := make([]*ast.Term, len(ss))
	for i, s := range ss {
		terms[i] = ast.StringTerm(s)
	}
	return ast.ArrayTerm(terms...)
}

func item(k string, v *ast.Term) [2]*ast.Term { return [2]*ast.Term{ast.InternedTerm(k), v} }
