package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/weirgw/weir/gateway/audit"
	"github.com/weirgw/weir/gateway/chat"
	"github.com/weirgw/weir/policies"
)

// callVerdict is one call with the tools decision's verdict on it and what Weir did with
// it; the audit record lists them all, whatever the mode did to the wire.
type callVerdict struct {
	choice int
	origin string // audit.OriginModel or audit.OriginWeir
	call   chat.Call
	allow  bool
	reason string
	action string // audit.Action*
	rows   int    // calls Weir ran: the rows they returned
}

// judgeCalls is the one tools check: the tools decision on calls proposed together — one
// choice's calls, one step of the agent loop, Weir's own data reads — with its violations
// recorded. It returns one verdict per call, in order; a decision that fails to evaluate
// denies every call (and is an error in enforce mode: fail closed).
func (x *exchange) judgeCalls(ctx context.Context, calls []chat.Call) ([]policies.CallDecision, error) {
	in := x.input
	in.ToolCalls = make([]policies.ToolCall, len(calls))
	for i, c := range calls {
		in.ToolCalls[i] = x.pol.Bundle.ToolCall(c.ID, c.Name, policyArguments(c))
	}
	d, err := x.pol.Bundle.Tools(ctx, &in)
	verdicts := make([]policies.CallDecision, len(calls))
	for i, c := range calls {
		verdicts[i] = policies.CallDecision{ID: c.ID, Name: c.Name, Reason: "the tools decision gave no verdict for this call"}
		if i < len(d.Calls) {
			verdicts[i] = d.Calls[i]
		}
	}
	if err != nil {
		for i := range verdicts {
			verdicts[i].Allow, verdicts[i].Reason = false, "policy evaluation failed"
		}
		return verdicts, x.policyFailed(err)
	}
	x.violations = append(x.violations, d.Violations...)
	for _, v := range d.Calls {
		x.violations = append(x.violations, v.Violations...)
	}
	if !d.Allow && !slices.ContainsFunc(verdicts, func(v policies.CallDecision) bool { return !v.Allow }) {
		// The decision refuses the calls without naming one: it refuses them all.
		v := first(d.Violations, "tool_not_allowed")
		for i := range verdicts {
			verdicts[i].Allow, verdicts[i].Reason = false, v.Message
		}
	}
	return verdicts, nil
}

// policyArguments is what the tools decision sees of a call's input: a function call's JSON
// arguments as written; a custom call's free text as {"input": text}, so that policies read
// both the same way.
func policyArguments(c chat.Call) string {
	if c.Type != "custom" {
		return c.Arguments
	}
	b, _ := json.Marshal(map[string]string{"input": c.Arguments})
	return string(b)
}

// forwardCalls applies the tools check and the mode to the calls a model proposed in one
// choice: monitor forwards every call (a denied one is recorded as monitored); enforce +
// rewrite forwards the allowed ones and returns a note per removed call; enforce + error
// refuses the answer when any call is denied (403). Every call is recorded with its verdict.
func (x *exchange) forwardCalls(ctx context.Context, choice int, calls []chat.Call) (forward []chat.Call, notes []string, err error) {
	if len(calls) == 0 {
		return nil, nil, nil
	}
	verdicts, perr := x.judgeCalls(ctx, calls)
	denied := false
	for _, v := range verdicts {
		denied = denied || !v.Allow
	}
	refuse := perr != nil || (denied && !x.monitor() && !x.rewrite())
	for i, c := range calls {
		v := callVerdict{choice: choice, origin: audit.OriginModel, call: c, allow: verdicts[i].Allow, reason: verdicts[i].Reason}
		switch {
		case refuse:
			v.action = audit.ActionRefused
		case v.allow:
			v.action = audit.ActionForwarded
			forward = append(forward, c)
		case x.monitor():
			v.action = audit.ActionMonitored
			forward = append(forward, c)
		default:
			v.action = audit.ActionRemoved
			x.modified = true
			notes = append(notes, fmt.Sprintf("[weir] blocked tool call %s: %s", c.Name, v.reason))
		}
		x.calls = append(x.calls, v)
	}
	switch {
	case perr != nil:
		return nil, nil, perr
	case refuse:
		v := first(deniedViolations(verdicts), "tool_not_allowed")
		return nil, nil, &Error{Kind: KindToolBlocked, Code: v.Code, Message: v.Message}
	}
	return forward, notes, nil
}

// deniedViolations returns the violations of the denied calls, a synthetic one for a call
// denied without a violation.
func deniedViolations(vs []policies.CallDecision) []policies.Violation {
	var out []policies.Violation
	for _, c := range vs {
		if c.Allow {
			continue
		}
		if len(c.Violations) == 0 {
			out = append(out, policies.Violation{Code: "tool_not_allowed", Message: "tool call " + c.Name + " denied: " + c.Reason})
		}
		out = append(out, c.Violations...)
	}
	return out
}
