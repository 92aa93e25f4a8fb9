package policies

import "context"

// Request evaluates data.weir.request.decision. On error the returned decision denies
// (Allow false) and the error is an *Error; callers must deny.
func (b *Bundle) Request(ctx context.Context, in *Input) (RequestDecision, error) {
	d, err := memoized(ctx, b.memos.request, b, in, (*Bundle).evalRequest)
	if err != nil {
		return RequestDecision{Revision: b.revision}, err
	}
	d.Revision = b.revision
	return d, nil
}

// Tools evaluates data.weir.tools.decision for in.ToolCalls. The decision has one verdict
// per proposed call, in order; on error it denies every call.
func (b *Bundle) Tools(ctx context.Context, in *Input) (ToolsDecision, error) {
	d, err := b.evalTools(ctx, in)
	if err != nil {
		return b.denyCalls(in), err
	}
	d.Revision = b.revision
	return d, nil
}

// Response evaluates data.weir.response.decision. On error it denies.
func (b *Bundle) Response(ctx context.Context, in *Input) (ResponseDecision, error) {
	d, err := memoized(ctx, b.memos.response, b, in, (*Bundle).evalResponse)
	if err != nil {
		return ResponseDecision{Revision: b.revision}, err
	}
	d.Revision = b.revision
	return d, nil
}

// Request and Response use the decision's memo when it has one (decisionmemo.go).
// evalRequest, evalTools and evalResponse assemble the library's decision from the
// violation sets when they can (direct.go), and evaluate the decision rule otherwise.

func (b *Bundle) evalRequest(ctx context.Context, in *Input) (RequestDecision, error) {
	if q := b.direct.request; q != nil {
		vs, err := b.evalAll(ctx, q, in)
		if err != nil {
			return RequestDecision{}, err
		}
		return noErr(decodeRequestDirect(RequestQuery, vs))
	}
	vs, err := b.evalAll(ctx, b.request, in)
	if err != nil {
		return RequestDecision{}, err
	}
	return noErr(decodeRequest(RequestQuery, vs[0]))
}

func (b *Bundle) evalTools(ctx context.Context, in *Input) (ToolsDecision, error) {
	if q := b.direct.tools; q != nil {
		vs, ok := b.toolsViolations(ctx, in)
		if !ok {
			var err error
			if vs, err = b.evalAll(ctx, q, in); err != nil {
				return ToolsDecision{}, err
			}
		}
		return noErr(decodeToolsDirect(ToolsQuery, vs, in.ToolCalls))
	}
	vs, err := b.evalAll(ctx, b.tools, in)
	if err != nil {
		return ToolsDecision{}, err
	}
	d, derr := decodeTools(ToolsQuery, vs[0], len(in.ToolCalls))
	if derr != nil {
		return d, derr
	}
	for i, c := range d.Calls {
		if c.Name != in.ToolCalls[i].Name {
			return d, errorf(CodeDecisionBad, "%s: decision.calls[%d]: verdict for %q, but the call is %q", ToolsQuery, i, c.Name, in.ToolCalls[i].Name)
		}
	}
	return d, nil
}

func (b *Bundle) evalResponse(ctx context.Context, in *Input) (ResponseDecision, error) {
	if q := b.direct.response; q != nil {
		vs, ok := b.responseViolations(ctx, in)
		if !ok {
			var err error
			if vs, err = b.evalAll(ctx, q, in); err != nil {
				return ResponseDecision{}, err
			}
		}
		return noErr(decodeResponseDirect(ResponseQuery, vs))
	}
	vs, err := b.evalAll(ctx, b.response, in)
	if err != nil {
		return ResponseDecision{}, err
	}
	return noErr(decodeResponse(ResponseQuery, vs[0]))
}

// noErr turns a nil *Error into a nil error (a typed nil in an error interface is not nil).
func noErr[D any](d D, err *Error) (D, error) {
	if err != nil {
		return d, err
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

// evalError keeps the location of a topdown error (conflicting rules, builtin errors).
func evalError(query string, err error) *Error {
	e := errorf(CodeEvalError, "%s: %v", query, err)
	if loc := errorLocation(err); loc != nil {
		e.File, e.Line, e.Col = loc.File, loc.Row, loc.Col
	}
	return e
}
