package policies

import (
	"context"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/metrics"
	"github.com/open-policy-agent/opa/v1/storage"
	"github.com/open-policy-agent/opa/v1/topdown"
)

// query is one decision query, compiled once at load and evaluated with OPA's evaluator
// (topdown) directly. The rego package would, on every evaluation, open a store
// transaction, allocate metrics, start a goroutine to watch the context and convert the
// result to map[string]any; a decision needs none of that: the store is read-only for the
// bundle's life, and the result is decoded from the AST value (decode.go).
type query struct {
	text     string // e.g. data.weir.tools.decision, for error messages
	body     ast.Body
	compiler *ast.Compiler
	qc       ast.QueryCompiler
	store    storage.Store
	txn      storage.Transaction // a read transaction shared by every evaluation
}

// resultVar captures the decision's value: the query is `result = <decision ref>`.
var resultVar = ast.Var("result")

// noMetrics is shared: the evaluator records timers nobody reads.
var noMetrics = metrics.NoOp()

func prepareQuery(c *ast.Compiler, store storage.Store, txn storage.Transaction, text string) (*query, error) {
	qc := c.QueryCompiler()
	body, err := qc.Compile(ast.NewBody(ast.Equality.Expr(ast.NewTerm(resultVar), ast.MustParseTerm(text))))
	if err != nil {
		return nil, err
	}
	return &query{text: text, body: body, compiler: c, qc: qc, store: store, txn: txn}, nil
}

// eval evaluates the query for the input and returns the decision's value. Evaluation stops
// with an error when ctx is cancelled or its deadline passes.
func (q *query) eval(ctx context.Context, input ast.Value) (ast.Value, error) {
	tq := topdown.NewQuery(q.body).
		WithQueryCompiler(q.qc).
		WithCompiler(q.compiler).
		WithStore(q.store).
		WithTransaction(q.txn).
		WithInput(ast.NewTerm(input)).
		WithMetrics(noMetrics).
		WithStrictBuiltinErrors(true)
	if ctx.Done() != nil {
		c := topdown.NewCancel()
		stop := context.AfterFunc(ctx, c.Cancel)
		defer stop()
		tq = tq.WithCancel(c)
	}
	var (
		value ast.Value
		n     int
	)
	err := tq.Iter(ctx, func(qr topdown.QueryResult) error {
		n++
		if t := qr[resultVar]; t != nil {
			value = t.Value
		}
		return nil
	})
	switch {
	case err != nil:
		return nil, evalError(q.text, err)
	case n == 0 || value == nil:
		return nil, errorf(CodeDecisionUndef, "%s is undefined for this input", q.text)
	case n > 1:
		return nil, errorf(CodeDecisionConflict, "%s produced %d results", q.text, n)
	}
	return value, nil
}
