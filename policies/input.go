package policies

import (
	"encoding/json"
	"reflect"
	"slices"
	"sync/atomic"
	"unsafe"

	"github.com/open-policy-agent/opa/v1/ast"
)

// Input is the input document of the three decisions. Later stages fill more fields; the
// request decision sees subject, route and classification, the tools decision adds
// tool_calls, the response decision adds tools_called and answer. See README.md.
//
// Pass the same Input (or copies of it) to the decisions of one request: it keeps the
// evaluator's form of subject, route and classification from one decision to the next, and
// rebuilds it whenever those fields have changed.
type Input struct {
	Subject        Subject        `json:"subject"`
	Route          Route          `json:"route"`
	Classification Classification `json:"classification"`
	ToolCalls      []ToolCall     `json:"tool_calls"`   // proposed by the model
	ToolsCalled    []string       `json:"tools_called"` // called earlier in the conversation, with a result
	Answer         Answer         `json:"answer"`

	// cache points to the inputPrefix built by the last decision on this Input (or on the
	// Input it was copied from), accessed atomically.
	cache unsafe.Pointer
}

// Subject is the caller, as the gateway verified it; empty offline. AuthMethod says how:
// api_key, jwt, header (a trusted proxy's identity headers) or none (anonymous: ID is
// empty). The request body's user field is never the subject.
type Subject struct {
	ID         string   `json:"id"`
	Roles      []string `json:"roles"`
	Tenant     string   `json:"tenant"`
	AuthMethod string   `json:"auth_method"`
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

	// args caches Arguments as an AST term, converted once by Bundle.ToolCall instead of
	// on every decision. It is used only while Arguments is still the same object (argsOf).
	// args == unconvertedArgs means the arguments were parsed by ParseArguments (so they
	// convert) but not converted, as the bundle's Go evaluation never reads them: an OPA
	// evaluation converts them when it needs them (term).
	args   *ast.Term
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

// unconvertedArgs marks arguments that ParseArguments produced but that were not converted
// (ToolCall.args). It is never put in a document: term converts such arguments itself.
var unconvertedArgs = &ast.Term{}

// cacheArgs converts the arguments to an ast.Value once. A conversion error is left for
// term() to report, as before. With convert false it only records that the arguments come
// from ParseArguments (encoding/json's values, which always convert), so that builds()
// need not walk them.
func (tc *ToolCall) cacheArgs(convert bool) {
	k := argsKey(tc.Arguments)
	if k == 0 {
		return
	}
	if !convert {
		tc.args, tc.argsOf = unconvertedArgs, k
		return
	}
	if v, err := ast.InterfaceToValue(tc.Arguments); err == nil {
		tc.args, tc.argsOf = ast.NewTerm(v), k
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
// the hot path of every decision. Subject, route and classification, which do not change
// between the decisions of one request, are built once and kept on the Input (prefix).
// names holds prebuilt terms for the tool names the bundle knows (may be nil); reads are
// the fields the bundle's decisions may read (projection.go): subject, route and
// classification fields outside it are left empty, as no decision can tell.
func (in *Input) value(names map[string]*ast.Term, reads field, shared *decisionMemo[*inputPrefix]) (ast.Value, error) {
	p, err := in.prefix(reads, shared)
	if err != nil {
		return nil, err
	}
	calls := emptyArray
	if len(in.ToolCalls) > 0 {
		terms := make([]*ast.Term, len(in.ToolCalls))
		for i := range in.ToolCalls {
			t, err := in.ToolCalls[i].term(names)
			if err != nil {
				return nil, err
			}
			terms[i] = t
		}
		calls = ast.ArrayTerm(terms...)
	}
	answer := emptyAnswer
	if len(in.Answer.Numbers) > 0 {
		answer = ast.ObjectTerm([2]*ast.Term{keyNumbers, numbers(in.Answer.Numbers)})
	}
	return ast.NewObject(
		[2]*ast.Term{keySubject, p.subject},
		[2]*ast.Term{keyRoute, p.routeT},
		[2]*ast.Term{keyClassification, p.classification},
		[2]*ast.Term{keyToolCalls, calls},
		[2]*ast.Term{keyToolsCalled, stringArray(in.ToolsCalled)},
		[2]*ast.Term{keyAnswer, answer},
	), nil
}

// inputPrefix holds the input's subject, route and classification as AST terms, and a copy
// of the fields they were built from: it is used only while the Input still holds equal
// values, so an Input changed (or copied and changed) between decisions never gets a
// stale document. Only the fields in reads are built (and compared); the others are empty.
type inputPrefix struct {
	reads          field
	subjectID      string
	tenant, method string
	roles, rules   []string
	route          Route
	intent, source string
	confidence     float64
	filters        map[string]any // a deep copy; nil when not cacheable (always rebuilt)
	filtersEmpty   bool           // filters are not read and were left empty

	subject, routeT, classification *ast.Term
}

// prefixFields are the fields an inputPrefix holds.
const prefixFields = fSubject | fRoute | fClassification

// prefix returns the cached prefix when it still matches the Input, or builds (and keeps)
// a new one. The pointer is read and written atomically: decisions on one Input from
// several goroutines stay race-free (each at worst builds its own prefix).
//
// When the fields read are all low-cardinality, the bundle shares prefixes between
// requests instead (shared, keyed by those fields; nil otherwise): its AST terms are never
// modified. Filters are then not read, and the prefix is used only while they convert, as
// without it.
func (in *Input) prefix(reads field, shared *decisionMemo[*inputPrefix]) (*inputPrefix, error) {
	reads &= prefixFields
	if shared != nil && jsonOK(in.Classification.Filters) {
		k := shared.key(in)
		if p, ok := shared.get(k); ok {
			return p, nil
		}
		p, err := newPrefix(in, reads)
		if err == nil {
			shared.put(k, p)
		}
		return p, err
	}
	if p := (*inputPrefix)(atomic.LoadPointer(&in.cache)); p != nil && p.matches(in, reads) {
		return p, nil
	}
	p, err := newPrefix(in, reads)
	if err != nil {
		return nil, err
	}
	atomic.StorePointer(&in.cache, unsafe.Pointer(p))
	return p, nil
}

func (p *inputPrefix) matches(in *Input, reads field) bool {
	c := &in.Classification
	if p.reads != reads {
		return false
	}
	if p.filtersEmpty {
		// Unread, but a value that does not convert must still fail as it always has.
		if !jsonOK(c.Filters) {
			return false
		}
	} else if p.filters == nil || !jsonEqual(p.filters, c.Filters) {
		return false
	}
	return (reads&fSubjectID == 0 || p.subjectID == in.Subject.ID) &&
		(reads&fSubjectRoles == 0 || slices.Equal(p.roles, in.Subject.Roles)) &&
		(reads&fSubjectTenant == 0 || p.tenant == in.Subject.Tenant) &&
		(reads&fSubjectAuthMethod == 0 || p.method == in.Subject.AuthMethod) &&
		(reads&fRouteName == 0 || p.route.Name == in.Route.Name) &&
		(reads&fRouteSurface == 0 || p.route.Surface == in.Route.Surface) &&
		(reads&fIntent == 0 || p.intent == c.Intent) &&
		(reads&fSource == 0 || p.source == c.Source) &&
		(reads&fConfidence == 0 || p.confidence == c.Confidence) &&
		(reads&fRules == 0 || slices.Equal(p.rules, c.Rules))
}

func newPrefix(in *Input, reads field) (*inputPrefix, error) {
	c := &in.Classification
	p := &inputPrefix{reads: reads, subject: emptySubject, routeT: emptyRoute, classification: emptyClassification}
	filters := emptyObject
	if reads&fFilters == 0 && jsonOK(c.Filters) {
		p.filtersEmpty = true
	} else if len(c.Filters) > 0 {
		v, err := ast.InterfaceToValue(c.Filters)
		if err != nil {
			return nil, errorf(CodeInputInvalid, "classification.filters: %v", err)
		}
		filters = ast.NewTerm(v)
	}
	if !p.filtersEmpty {
		if f, ok := jsonCopy(c.Filters); ok {
			p.filters = f.(map[string]any)
		}
	}
	str := func(f field, s string, dst *string) *ast.Term {
		if reads&f == 0 {
			return ast.InternedEmptyString
		}
		*dst = s
		return ast.StringTerm(s)
	}
	list := func(f field, ss []string, dst *[]string) *ast.Term {
		if reads&f == 0 {
			return emptyArray
		}
		*dst = slices.Clone(ss)
		return stringArray(ss)
	}
	if reads&fSubject != 0 {
		p.subject = ast.ObjectTerm(
			[2]*ast.Term{keyID, str(fSubjectID, in.Subject.ID, &p.subjectID)},
			[2]*ast.Term{keyRoles, list(fSubjectRoles, in.Subject.Roles, &p.roles)},
			[2]*ast.Term{keyTenant, str(fSubjectTenant, in.Subject.Tenant, &p.tenant)},
			[2]*ast.Term{keyAuthMethod, str(fSubjectAuthMethod, in.Subject.AuthMethod, &p.method)},
		)
	}
	if reads&fRoute != 0 {
		p.routeT = ast.ObjectTerm(
			[2]*ast.Term{keyName, str(fRouteName, in.Route.Name, &p.route.Name)},
			[2]*ast.Term{keySurface, str(fRouteSurface, in.Route.Surface, &p.route.Surface)},
		)
	}
	if reads&fClassification != 0 {
		confidence := zeroNumber
		if reads&fConfidence != 0 {
			p.confidence, confidence = c.Confidence, ast.FloatNumberTerm(c.Confidence)
		}
		p.classification = ast.ObjectTerm(
			[2]*ast.Term{keyIntent, str(fIntent, c.Intent, &p.intent)},
			[2]*ast.Term{keyConfidence, confidence},
			[2]*ast.Term{keySource, str(fSource, c.Source, &p.source)},
			[2]*ast.Term{keyRules, list(fRules, c.Rules, &p.rules)},
			[2]*ast.Term{keyFilters, filters},
		)
	}
	return p, nil
}

// jsonCopy deep-copies a JSON-like value (what encoding/json and the rules' extractors
// produce); ok is false for any other type, whose changes could not be detected.
func jsonCopy(v any) (any, bool) {
	switch x := v.(type) {
	case nil, bool, string, float64, int, int64, json.Number:
		return x, true
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			c, ok := jsonCopy(e)
			if !ok {
				return nil, false
			}
			out[k] = c
		}
		return out, true
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			c, ok := jsonCopy(e)
			if !ok {
				return nil, false
			}
			out[i] = c
		}
		return out, true
	case []string:
		return slices.Clone(x), true
	}
	return nil, false
}

// jsonEqual compares a jsonCopy with a value: same types, same contents. A nil map equals
// an empty one (both are the input's empty filters).
func jsonEqual(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, e := range x {
			f, ok := y[k]
			if !ok || !jsonEqual(e, f) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !jsonEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case []string:
		y, ok := b.([]string)
		return ok && slices.Equal(x, y)
	case nil, bool, string, float64, int, int64, json.Number:
		return a == b
	}
	return false
}

func (tc *ToolCall) term(names map[string]*ast.Term) (*ast.Term, error) {
	args := ast.InternedNullTerm
	if tc.Arguments != nil {
		args = tc.args
		if args == nil || args == unconvertedArgs || tc.argsOf != argsKey(tc.Arguments) {
			v, err := ast.InterfaceToValue(tc.Arguments)
			if err != nil {
				return nil, errorf(CodeInputInvalid, "tool call %q: arguments: %v", tc.Name, err)
			}
			args = ast.NewTerm(v)
		}
	}
	name := names[tc.Name]
	if name == nil {
		name = ast.StringTerm(tc.Name)
	}
	return ast.ObjectTerm(
		[2]*ast.Term{tcKeyID, ast.StringTerm(tc.ID)},
		[2]*ast.Term{tcKeyName, name},
		[2]*ast.Term{tcKeyArguments, args},
		[2]*ast.Term{tcKeyArgumentsError, ast.InternedTerm(tc.ArgumentsError)},
	), nil
}

// Constant keys and empty values of the input document, built once. AST values are never
// modified after construction, so evaluations share them.
var (
	tcKeyID             = ast.StringTerm("id")
	tcKeyName           = ast.StringTerm("name")
	tcKeyArguments      = ast.StringTerm("arguments")
	tcKeyArgumentsError = ast.StringTerm("arguments_error")

	keySubject        = ast.StringTerm("subject")
	keyRoute          = ast.StringTerm("route")
	keyClassification = ast.StringTerm("classification")
	keyToolCalls      = ast.StringTerm("tool_calls")
	keyToolsCalled    = ast.StringTerm("tools_called")
	keyAnswer         = ast.StringTerm("answer")
	keyNumbers        = ast.StringTerm("numbers")
	keyRoles          = ast.StringTerm("roles")
	keyTenant         = ast.StringTerm("tenant")
	keyAuthMethod     = ast.StringTerm("auth_method")
	keySurface        = ast.StringTerm("surface")
	keyIntent         = ast.StringTerm("intent")
	keyConfidence     = ast.StringTerm("confidence")
	keySource         = ast.StringTerm("source")
	keyRules          = ast.StringTerm("rules")
	keyFilters        = ast.StringTerm("filters")

	nkText       = ast.StringTerm("text")
	nkValue      = ast.StringTerm("value")
	nkGrounded   = ast.StringTerm("grounded")
	nkSource     = ast.StringTerm("source")
	nkSourceKind = ast.StringTerm("source_kind")
	nkDerivation = ast.StringTerm("derivation")
	nkTrivial    = ast.StringTerm("trivial")

	emptyArray  = ast.InternedEmptyArray
	emptyObject = ast.InternedEmptyObject
	emptyAnswer = ast.ObjectTerm([2]*ast.Term{keyNumbers, emptyArray})

	// The parts of the input no decision reads (inputPrefix).
	zeroNumber   = ast.IntNumberTerm(0)
	emptySubject = ast.ObjectTerm([2]*ast.Term{keyID, ast.InternedEmptyString}, [2]*ast.Term{keyRoles, emptyArray},
		[2]*ast.Term{keyTenant, ast.InternedEmptyString}, [2]*ast.Term{keyAuthMethod, ast.InternedEmptyString})
	emptyRoute          = ast.ObjectTerm([2]*ast.Term{keyName, ast.InternedEmptyString}, [2]*ast.Term{keySurface, ast.InternedEmptyString})
	emptyClassification = ast.ObjectTerm(
		[2]*ast.Term{keyIntent, ast.InternedEmptyString}, [2]*ast.Term{keyConfidence, zeroNumber},
		[2]*ast.Term{keySource, ast.InternedEmptyString}, [2]*ast.Term{keyRules, emptyArray},
		[2]*ast.Term{keyFilters, emptyObject})
)

func numbers(ns []Number) *ast.Term {
	terms := make([]*ast.Term, len(ns))
	for i, n := range ns {
		terms[i] = ast.ObjectTerm(
			[2]*ast.Term{nkText, ast.StringTerm(n.Text)},
			[2]*ast.Term{nkValue, ast.FloatNumberTerm(n.Value)},
			[2]*ast.Term{nkGrounded, ast.InternedTerm(n.Grounded)},
			[2]*ast.Term{nkSource, ast.StringTerm(n.Source)},
			[2]*ast.Term{nkSourceKind, sourceKindTerm(n.SourceKind)},
			[2]*ast.Term{nkDerivation, ast.InternedTerm(n.Derivation)}, // mostly ""
			[2]*ast.Term{nkTrivial, ast.InternedTerm(n.Trivial)},
		)
	}
	return ast.ArrayTerm(terms...)
}

// sourceKindTerms are the terms of the source kinds a number can have.
var sourceKindTerms = map[string]*ast.Term{
	"":       ast.InternedEmptyString,
	"tool":   ast.StringTerm("tool"),
	"user":   ast.StringTerm("user"),
	"system": ast.StringTerm("system"),
}

func sourceKindTerm(k string) *ast.Term {
	if t := sourceKindTerms[k]; t != nil {
		return t
	}
	return ast.StringTerm(k)
}

func stringArray(ss []string) *ast.Term {
	if len(ss) == 0 {
		return emptyArray
	}
	terms := make([]*ast.Term, len(ss))
	for i, s := range ss {
		terms[i] = ast.StringTerm(s)
	}
	return ast.ArrayTerm(terms...)
}
