package policies

import (
	"context"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Most decisions read the request's low-cardinality fields only — the library's request
// decision reads the intent, the analytics bundle adds the classification's source — so the
// same few results are computed again for every request. A decisionMemo keeps them, keyed
// by the decision's projection (projection.go) of the Input: two inputs with the same key
// get the same result from evaluation, so the memo returns it without evaluating.
//
// A memo exists only when every field of the projection is low-cardinality (see
// fLowCardinality): a decision reading tool calls, filters or the answer would fill it with
// one-off entries. It is bounded (memoMax entries, cleared when full), safe for concurrent
// use and belongs to one Bundle (a reload builds a new one). Errors are never stored:
// an input that failed evaluates, and fails, again.

// memoMax bounds the entries of one memo; a full memo is cleared.
const memoMax = 4096

// memoKey is an Input projected on a memo's fields; the other fields stay zero. Lists are
// joined with their lengths so that no two lists share a key, and the confidence is
// compared by its bits, as -0 and 0 (and NaNs) are different documents.
type memoKey struct {
	subjectID, roles, tenant, method, routeName, surface, intent, source, rules string
	confidence                                                                  uint64
}

// decisionMemo maps keys to results; clone copies a result so that no caller shares a
// mutable slice with the memo or with another caller.
type decisionMemo[D any] struct {
	fields field
	clone  func(D) D
	mu     sync.RWMutex
	m      map[memoKey]D
}

// newDecisionMemo returns a memo over the fields, or nil when one of them is not
// low-cardinality.
func newDecisionMemo[D any](fields field, clone func(D) D) *decisionMemo[D] {
	if fields&^fLowCardinality != 0 {
		return nil
	}
	return &decisionMemo[D]{fields: fields, clone: clone, m: make(map[memoKey]D)}
}

func (m *decisionMemo[D]) key(in *Input) memoKey {
	var k memoKey
	f, c := m.fields, &in.Classification
	if f&fSubjectID != 0 {
		k.subjectID = in.Subject.ID
	}
	if f&fSubjectRoles != 0 {
		k.roles = joinKey(in.Subject.Roles)
	}
	if f&fSubjectTenant != 0 {
		k.tenant = in.Subject.Tenant
	}
	if f&fSubjectAuthMethod != 0 {
		k.method = in.Subject.AuthMethod
	}
	if f&fRouteName != 0 {
		k.routeName = in.Route.Name
	}
	if f&fRouteSurface != 0 {
		k.surface = in.Route.Surface
	}
	if f&fIntent != 0 {
		k.intent = c.Intent
	}
	if f&fSource != 0 {
		k.source = c.Source
	}
	if f&fConfidence != 0 {
		k.confidence = math.Float64bits(c.Confidence)
	}
	if f&fRules != 0 {
		k.rules = joinKey(c.Rules)
	}
	return k
}

func joinKey(ss []string) string {
	var b strings.Builder
	for _, s := range ss {
		b.WriteString(strconv.Itoa(len(s)))
		b.WriteByte(':')
		b.WriteString(s)
	}
	return b.String()
}

func (m *decisionMemo[D]) get(k memoKey) (D, bool) {
	m.mu.RLock()
	d, ok := m.m[k]
	m.mu.RUnlock()
	if ok {
		d = m.clone(d)
	}
	return d, ok
}

func (m *decisionMemo[D]) put(k memoKey, d D) {
	d = m.clone(d)
	m.mu.Lock()
	if len(m.m) >= memoMax {
		clear(m.m)
	}
	m.m[k] = d
	m.mu.Unlock()
}

func (m *decisionMemo[D]) size() int {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return len(m.m)
}

// memoized returns the memo's result for the input, or evaluates it and stores a
// successful result. The memo is used only when the input is known to build: evaluation
// reports an input it cannot convert (input_invalid) whatever the decision reads.
func memoized[D any](ctx context.Context, m *decisionMemo[D], b *Bundle, in *Input, eval func(*Bundle, context.Context, *Input) (D, error)) (D, error) {
	if m == nil || !in.builds() {
		return eval(b, ctx, in)
	}
	k := m.key(in)
	if d, ok := m.get(k); ok {
		b.warm(in)
		return d, nil
	}
	d, err := eval(b, ctx, in)
	if err == nil {
		m.put(k, d)
	}
	return d, err
}

// warm builds the Input's cached prefix (input.go) after a memo hit when the bundle does
// not share prefixes, as an evaluation would have: the copies of the Input that the later
// decisions of the request get then share it instead of each building its own.
func (b *Bundle) warm(in *Input) {
	if b.memos.prefix == nil {
		_, _ = in.prefix(b.memos.reads, nil) // in builds: no error
	}
}

func cloneRequest(d RequestDecision) RequestDecision {
	d.Violations = slices.Clone(d.Violations)
	o := &d.Obligations
	// The three lists share one allocation; each is capped, so that an append to one
	// reallocates instead of writing over the next. A nil list stays nil.
	buf := make([]string, 0, len(o.AllowedTools)+len(o.BlockedTools)+len(o.NumberSources))
	for _, l := range []*[]string{&o.AllowedTools, &o.BlockedTools, &o.NumberSources} {
		if *l != nil {
			start := len(buf)
			buf = append(buf, *l...)
			*l = buf[start:len(buf):len(buf)]
		}
	}
	return d
}

func cloneResponse(d ResponseDecision) ResponseDecision {
	d.Violations = slices.Clone(d.Violations)
	return d
}

// builds reports whether the input certainly converts to a document: its filters and the
// arguments of its tool calls are JSON-like values (or arguments already converted).
// False means "not known": the caller evaluates, which reports a conversion error.
func (in *Input) builds() bool {
	if !jsonOK(in.Classification.Filters) {
		return false
	}
	for i := range in.ToolCalls {
		tc := &in.ToolCalls[i]
		if tc.Arguments != nil && (tc.args == nil || tc.argsOf != argsKey(tc.Arguments)) && !jsonOK(tc.Arguments) {
			return false
		}
	}
	return true
}

// jsonOK reports whether ast.InterfaceToValue certainly converts v: a JSON-like value of
// the types encoding/json and the rules' extractors produce. json.Number is left out, as
// its conversion checks the number's syntax.
func jsonOK(v any) bool {
	switch x := v.(type) {
	case nil, bool, string, float64, int, int64, []string:
		return true
	case map[string]any:
		for _, e := range x {
			if !jsonOK(e) {
				return false
			}
		}
		return true
	case []any:
		for _, e := range x {
			if !jsonOK(e) {
				return false
			}
		}
		return true
	case json.Number:
		return false
	}
	return false
}
