package policies

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/metrics"
	"github.com/open-policy-agent/opa/v1/storage"
	"github.com/open-policy-agent/opa/v1/topdown"
)

// query is one decision query, compiled once at load and evaluated with OPA's evaluator
// (topdown) directly. The rego package would, on every evaluation, open a store
// transaction, allocate metrics, start a goroutine to watch the context and convert the
// result to map[string]any; a decision needs none of that: the store is read-only for the
// bundle's life, and the result is decoded from the AST value (decode.go). The evaluator's
// rule and data caches come from a pool (cache.go) instead of being allocated per query.
type query struct {
	text     string // e.g. data.weir.tools.decision, for error messages
	body     ast.Body
	vars     []ast.Var // the query's results, in order (at most maxVars)
	refs     []ast.Ref // the documents it evaluates, one per var
	compiler *ast.Compiler
	qc       ast.QueryCompiler
	store    storage.Store
	txn      storage.Transaction // a read transaction shared by every evaluation
}

// resultVar captures the decision's value: the query is `result = <decision ref>`.
var resultVar = ast.Var("result")

// maxVars bounds the documents one query evaluates (direct.go evaluates two).
const maxVars = 2

// values are a query's results, one per var.
type values [maxVars]ast.Value

// complete reports whether each of the first n values is defined.
func (vs *values) complete(n int) bool {
	for _, v := range vs[:n] {
		if v == nil {
			return false
		}
	}
	return true
}

// noMetrics is shared: the evaluator records timers nobody reads.
var noMetrics = metrics.NoOp()

// prepareQuery compiles `result = <text>`.
func prepareQuery(c *ast.Compiler, store storage.Store, txn storage.Transaction, text string) (*query, error) {
	return prepareRefs(c, store, txn, text, text)
}

// prepareRefs compiles a query evaluating each ref into its own var, in order; name is the
// query's name in error messages.
func prepareRefs(c *ast.Compiler, store storage.Store, txn storage.Transaction, name string, refs ...string) (*query, error) {
	q := &query{text: name, compiler: c, qc: c.QueryCompiler(), store: store, txn: txn}
	var body ast.Body
	for i, ref := range refs {
		v := resultVar
		if i > 0 {
			v = ast.Var(fmt.Sprintf("result%d", i))
		}
		t := ast.MustParseTerm(ref)
		q.vars = append(q.vars, v)
		q.refs = append(q.refs, t.Value.(ast.Ref).Copy())
		body = append(body, ast.Equality.Expr(ast.NewTerm(v), t))
	}
	var err error
	if q.body, err = q.qc.Compile(body); err != nil {
		return nil, err
	}
	return q, nil
}

// eval evaluates the query for the input and returns the decision's value. memo holds the
// intent's memoized library documents (memo.go), nil for none. Evaluation stops
// with an error when ctx is cancelled or its deadline passes.
func (q *query) eval(ctx context.Context, input ast.Value, memo []memoEntry) (ast.Value, error) {
	vs, err := q.evalAll(ctx, input, memo, nil)
	return vs[0], err
}

// evalAll evaluates the query and returns the value of each of its vars. aliases are
// the bundle's rules whose value is a part of the input (alias.go).
func (q *query) evalAll(ctx context.Context, input ast.Value, memo []memoEntry, aliases []alias) (values, error) {
	caches := getCaches()
	defer putCaches(caches)
	caches.virtual.memo = memo
	for _, a := range aliases {
		if t := find(input, a.path); t != nil {
			caches.virtual.local = append(caches.virtual.local, memoEntry{ref: a.ref, hash: a.hash, value: t})
		}
	}
	tq := topdown.NewQuery(q.body).
		WithQueryCompiler(q.qc).
		WithCompiler(q.compiler).
		WithStore(q.store).
		WithTransaction(q.txn).
		WithInput(ast.NewTerm(input)).
		WithMetrics(noMetrics).
		WithVirtualCache(&caches.virtual).
		WithBaseCache(&caches.base).
		WithStrictBuiltinErrors(true)
	if done := ctx.Done(); done != nil {
		caches.cancel = ctxCancel{done: done}
		tq = tq.WithCancel(&caches.cancel)
	}
	var (
		vs values
		n  int
	)
	err := tq.Iter(ctx, func(qr topdown.QueryResult) error {
		n++
		for i, v := range q.vars {
			if t := qr[v]; t != nil {
				vs[i] = t.Value
			}
		}
		return nil
	})
	switch {
	case err != nil:
		return values{}, evalError(q.text, err)
	case n == 0 || !vs.complete(len(q.vars)):
		return values{}, errorf(CodeDecisionUndef, "%s is undefined for this input", q.text)
	case n > 1:
		return values{}, errorf(CodeDecisionConflict, "%s produced %d results", q.text, n)
	}
	return vs, nil
}

// ctxCancel stops an evaluation when its context is done. The evaluator asks Cancelled
// before every expression; polling the context's channel there costs a few nanoseconds,
// where registering a callback on the context (context.AfterFunc) cost two allocations and
// the lock of a context every request shares (the gateway's) — per query.
type ctxCancel struct {
	done      <-chan struct{}
	cancelled atomic.Bool
}

func (c *ctxCancel) Cancel() { c.cancelled.Store(true) }

func (c *ctxCancel) Cancelled() bool {
	if c.cancelled.Load() {
		return true
	}
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}
