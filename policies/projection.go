package policies

import (
	"github.com/open-policy-agent/opa/v1/ast"
)

// A decision reads only part of the input document: the library's request decision, for
// instance, reads input.classification.intent, and the analytics bundle adds
// input.classification.source. At load, Weir finds which fields of Input each document
// can read (its projection): every ref rooted at input in the rules that define it and,
// transitively, in every rule and function those rules refer to. Two inputs equal on the
// projection give the same value — evaluation is deterministic once `with`,
// non-deterministic builtins and print are excluded — which is what the decision memo
// (decisionmemo.go) and the input builder (input.go, unread fields are left empty) rely on.
//
// The analysis gives up (every field read) on anything it cannot bound: a bare `input`
// (x := input, walk(input, ...)), a first key that is not a constant string (input[k]), a
// `with` anywhere, a non-deterministic builtin (or one that reads the clock), print, or an
// operator it does not know.

// field is a set of Input fields, one bit each.
type field uint16

const (
	fSubjectID field = 1 << iota
	fSubjectRoles
	fSubjectTenant
	fSubjectAuthMethod
	fRouteName
	fRouteSurface
	fIntent
	fSource
	fConfidence
	fRules
	fFilters
	fToolCalls
	fToolsCalled
	fAnswer

	fSubject        = fSubjectID | fSubjectRoles | fSubjectTenant | fSubjectAuthMethod
	fRoute          = fRouteName | fRouteSurface
	fClassification = fIntent | fSource | fConfidence | fRules | fFilters
	fAll            = fSubject | fRoute | fClassification | fToolCalls | fToolsCalled | fAnswer

	// fLowCardinality are the fields that take few distinct values in real traffic: who
	// asks (its id, roles, tenant and how it was authenticated), on which route, and what the
	// classifier concluded. Filters, tool calls, the
	// tools called and the answer vary per request; a memo keyed on them would only
	// flatter a benchmark that sends identical requests.
	fLowCardinality = fSubject | fRoute | fIntent | fSource | fConfidence | fRules
)

// unbounded are the builtins OPA does not mark non-deterministic that the analysis still
// refuses: print (a side effect), and certificate verification, which checks validity
// against the current time.
var unbounded = map[string]bool{
	ast.Print.Name:                                           true,
	ast.InternalPrint.Name:                                   true,
	"crypto.x509.parse_and_verify_certificates":              true,
	"crypto.x509.parse_and_verify_certificates_with_options": true,
}

// inputFields maps the input document's keys to fields: a top-level key to all its
// fields, and each sub-key to its own.
var inputFields = map[string]struct {
	all field
	sub map[string]field
}{
	"subject":        {fSubject, map[string]field{"id": fSubjectID, "roles": fSubjectRoles, "tenant": fSubjectTenant, "auth_method": fSubjectAuthMethod}},
	"route":          {fRoute, map[string]field{"name": fRouteName, "surface": fRouteSurface}},
	"classification": {fClassification, map[string]field{"intent": fIntent, "source": fSource, "confidence": fConfidence, "rules": fRules, "filters": fFilters}},
	"tool_calls":     {all: fToolCalls},
	"tools_called":   {all: fToolsCalled},
	"answer":         {all: fAnswer},
}

// inputRefFields returns the fields a ref rooted at input may read, from its constant
// prefix; ok is false for a bare input or a non-constant first key. A key the input
// document does not have reads nothing: that ref is undefined for every Input.
func inputRefFields(ref ast.Ref) (field, bool) {
	if len(ref) < 2 {
		return 0, false
	}
	top, ok := ref[1].Value.(ast.String)
	if !ok {
		return 0, false
	}
	f, known := inputFields[string(top)]
	if !known {
		return 0, true
	}
	if len(ref) < 3 || f.sub == nil {
		return f.all, true
	}
	key, ok := ref[2].Value.(ast.String)
	if !ok {
		return f.all, true // input.subject[k]: any sub-field
	}
	return f.sub[string(key)], true
}

// projection returns the input fields the documents at refs may read, transitively through
// the rules and functions they use; fAll when the analysis cannot bound them.
func projection(c *ast.Compiler, refs ...ast.Ref) field {
	var q ruleQueue
	for _, ref := range refs {
		q.add(c.GetRulesDynamicWithOpts(ref, ast.RulesOptions{IncludeHiddenModules: true}))
	}
	var reads field
	ok := true
	operator := func(op ast.Ref) {
		if op.HasPrefix(ast.DefaultRootRef) {
			return // a function rule: its ref is walked and its rules queued below
		}
		b, found := ast.BuiltinMap[op.String()]
		if !found || b.Nondeterministic || unbounded[b.Name] {
			ok = false
		}
	}
	vis := ast.NewGenericVisitor(func(x any) bool {
		switch x := x.(type) {
		case *ast.With:
			ok = false
		case *ast.Expr:
			if x.IsCall() {
				operator(x.Operator())
			}
		case ast.Call:
			if r, isRef := x[0].Value.(ast.Ref); isRef {
				operator(r)
			} else {
				ok = false
			}
		case ast.Ref:
			switch {
			case x.HasPrefix(ast.InputRootRef):
				f, bounded := inputRefFields(x)
				ok = ok && bounded
				reads |= f
			case x.HasPrefix(ast.DefaultRootRef):
				q.add(c.GetRulesDynamicWithOpts(x, ast.RulesOptions{IncludeHiddenModules: true}))
			}
		}
		return !ok
	})
	for r := q.next(); r != nil && ok; r = q.next() {
		vis.Walk(r)
	}
	if !ok {
		return fAll
	}
	return reads
}

// ruleQueue hands out each rule once, in the order it was first added: the transitive walks
// over the rules a document depends on (projection, memo.go's intentOnly, golib.go's
// libraryClosure) add the rules every visited rule refers to.
type ruleQueue struct {
	seen  map[*ast.Rule]bool
	queue []*ast.Rule
}

func (q *ruleQueue) add(rs []*ast.Rule) {
	if q.seen == nil {
		q.seen = map[*ast.Rule]bool{}
	}
	for _, r := range rs {
		if !q.seen[r] {
			q.seen[r] = true
			q.queue = append(q.queue, r)
		}
	}
}

// next returns the next rule to visit, nil when none is left.
func (q *ruleQueue) next() *ast.Rule {
	if len(q.queue) == 0 {
		return nil
	}
	r := q.queue[0]
	q.queue = q.queue[1:]
	return r
}
