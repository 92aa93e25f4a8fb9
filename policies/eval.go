package policies

import (
	"context"

	"github.com/open-policy-agent/opa/v1/ast"
)

// Request evaluates data.weir.request.decision. On error the returned decision denies
// (Allow false) and the error is an *Error; callers must deny.
func (b *Bundle) Request(ctx context.Context, in *Input) (RequestDecision, error) {
	v, err := b.eval(ctx, b.request, in)
	if err != nil {
		return RequestDecision{Revision: b.revision}, err
	}
	d, derr := decodeRequest(RequestQuery, v)
	d.Revision = b.revision
	if derr != nil {
		return RequestDecision{Revision: b.revision}, derr
	}
	return d, nil
}

// Tools evaluates data.weir.tools.decision for in.ToolCalls. The decision has one verdict
// per proposed call, in order; on error it denies every call.
func (b *Bundle) Tools(ctx context.Context, in *Input) (ToolsDecision, error) {
	v, err := b.eval(ctx, b.tools, in)
	if err != nil {
		return b.denyCalls(in), err
	}
	d, derr := decodeTools(ToolsQuery, v, len(in.ToolCalls))
	if derr == nil {
		for i, c := range d.Calls {
			if c.Name != in.ToolCalls[i].Name {
				derr = errorf(CodeDecisionBad, "%s: decision.calls[%d]: verdict for %q, but the call is %q", ToolsQuery, i, c.Name, in.ToolCalls[i].Name)
				break
			}
		}
	}
	if derr != nil {
		return b.denyCalls(in), derr
	}
	d.Revision = b.revision
	return d, nil
}

// Response evaluates data.weir.response.decision. On error it denies.
func (b *Bundle) Response(ctx context.Context, in *Input) (ResponseDecision, error) {
	v, err := b.eval(ctx, b.response, in)
	if err != nil {
		return ResponseDecision{Revision: b.revision}, err
	}
	d, derr := decodeResponse(ResponseQuery, v)
	d.Revision = b.revision
	if derr != nil {
		return ResponseDecision{Revision: b.revision}, derr
	}
	return d, nil
}

// denyCalls is the fail-closed tools decision: every call denied.
func (b *Bundle) denyCalls(in *Input) ToolsDecision {
	d := ToolsDecision{Revision: b.revision, Calls: make([]CallDecision, len(in.ToolCalls))}
	for i, c := range in.ToolCalls {
		d.Calls[i] = CallDecision{ID: c.ID, Name: c.Name, Reason: "policy error: denied"}
	}
	return d
}

// eval builds the input and evaluates one decision query.
func (b *Bundle) eval(ctx context.Context, q *query, in *Input) (ast.Value, error) {
	iv, err := in.value()
	if err != nil {
		return nil, err
	}
	return q.eval(ctx, iv)
}

// evalError keeps the location of a topdown error (conflicting rules, builtin errors).
func evalError(query string, err error) *Error {
	e := errorf(CodeEvalError, "%s: %v", query, err)
	if loc := errorLocation(err); loc != nil {
		e.File, e.Line, e.Col = loc.File, loc.Row, loc.Col
	}
	return e
}
