package policies

import (
	"context"
	"slices"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/storage"
)

// memos are a bundle's projection-keyed memos (decisionmemo.go); a nil memo is off.
type memos struct {
	// reads are the input fields any decision may read; the input builder leaves the
	// others empty.
	reads field

	// prefix holds the input's subject, route and classification terms (input.go) when
	// the fields read of them are all low-cardinality.
	prefix *decisionMemo[*inputPrefix]

	// request and response hold whole decisions. The tools decision is never memoized:
	// its verdicts name the proposed calls, so it always reads them.
	request  *decisionMemo[RequestDecision]
	response *decisionMemo[ResponseDecision]

	// violation holds data.weir.request.violation, which the library's tools and response
	// decisions evaluate again (`some v in data.weir.request.violation`): it is handed to
	// their evaluation as an already-cached rule result, after the intent's memoized
	// documents (memo.go). Its key always has the intent, as those documents depend on it.
	violation      *decisionMemo[[]memoEntry]
	violationQuery *query

	// aliases are the rules whose value is a part of the input (alias.go).
	aliases []alias
}

// requestViolationRef is the request's violation set, read by the later decisions.
var requestViolationRef = ast.MustParseRef("data.weir.request.violation")

// prepareMemos analyses the prepared queries' projections and sets up the memos.
func (b *Bundle) prepareMemos(c *ast.Compiler, store storage.Store, txn storage.Transaction) error {
	// The request's violations are evaluated on their own too (withViolations): what they
	// read must be built.
	refs := []ast.Ref{requestViolationRef}
	for _, q := range []*query{b.request, b.tools, b.response, b.direct.request, b.direct.tools, b.direct.response} {
		if q != nil {
			refs = append(refs, q.refs...)
		}
	}
	m := memos{reads: projection(c, refs...)}
	m.aliases = findAliases(c)
	m.prefix = newDecisionMemo(m.reads&prefixFields, identity[*inputPrefix])
	evaluated := func(full, direct *query) *query {
		if direct != nil {
			return direct
		}
		return full
	}
	m.request = newDecisionMemo(projection(c, evaluated(b.request, b.direct.request).refs...), cloneRequest)
	m.response = newDecisionMemo(projection(c, evaluated(b.response, b.direct.response).refs...), cloneResponse)
	if len(c.GetRules(requestViolationRef)) > 0 {
		m.violation = newDecisionMemo(projection(c, requestViolationRef)|fIntent, identity[[]memoEntry])
		if m.violation != nil {
			q, err := prepareQuery(c, store, txn, requestViolationRef.String())
			if err != nil {
				return err
			}
			m.violationQuery = q
		}
	}
	b.memos = m
	return nil
}

// evalAll builds the input and evaluates a query, with the intent's memoized documents
// and, for the tools and response decisions, the request's violations.
func (b *Bundle) evalAll(ctx context.Context, q *query, in *Input) (values, error) {
	iv, err := in.value(b.toolNames, b.memos.reads, b.memos.prefix)
	if err != nil {
		return values{}, err
	}
	memo := b.memo[in.Classification.Intent]
	if q != b.request && q != b.direct.request {
		memo = b.withViolations(ctx, in, iv, memo)
	}
	return q.evalAll(ctx, iv, memo, b.memos.aliases)
}

// withViolations returns the intent's memoized documents with data.weir.request.violation
// for this input added, from the memo or evaluated now; without it when the memo is off
// or the evaluation fails (the decision then evaluates it, and reports the error).
func (b *Bundle) withViolations(ctx context.Context, in *Input, iv ast.Value, memo []memoEntry) []memoEntry {
	m := b.memos.violation
	if m == nil {
		return memo
	}
	k := m.key(in)
	if entries, ok := m.get(k); ok {
		return entries
	}
	v, err := b.memos.violationQuery.eval(ctx, iv, memo)
	if err != nil {
		return memo
	}
	entries := append(slices.Clip(memo), memoEntry{ref: requestViolationRef, hash: refHash(requestViolationRef), value: ast.NewTerm(v)})
	m.put(k, entries)
	return entries
}

// identity is the clone of immutable memo values: AST terms are never modified.
func identity[T any](x T) T { return x }
