package gateway

import (
	"context"

	"github.com/valyala/fasthttp"

	"github.com/weirgw/weir/gateway/config"
	"github.com/weirgw/weir/policies"
	"github.com/weirgw/weir/policies/grounding"
)

// forward sends the (narrowed) request to the route's upstream and decodes a successful
// answer. An upstream error status is passed to the client as it is, without inspection:
// there is no model output in it.
func (x *exchange) forward(ctx context.Context) error {
	body, err := x.req.encode()
	if err != nil {
		return &Error{Kind: KindInternal, Code: "internal_error", Message: "could not encode the request", Err: err}
	}
	req := fasthttp.AcquireRequest()
	defer fasthttp.ReleaseRequest(req)
	// The answer is read in place, not copied: the exchange releases it when the handler
	// is done with it (serve).
	resp := fasthttp.AcquireResponse()
	x.upstreamResp = resp
	up := x.route.upstream
	up.prepare(&x.rc.Request, req, x.subPath, x.rc.RemoteIP())
	req.SetBodyRaw(body) // the request's own bytes, unchanged until req is released
	if err := up.do(ctx, req, resp); err != nil {
		x.countUpstreamError(err)
		return err
	}
	x.upstreamStatus = resp.StatusCode()
	// Weir asked for an uncompressed body; an upstream that compresses anyway is decoded.
	raw, err := resp.BodyUncompressedWithLimit(maxUpstreamBody)
	if err != nil {
		return &Error{Kind: KindUpstreamDown, Code: "upstream_invalid_response", Message: "the upstream answer could not be decompressed", Err: err}
	}
	x.upstreamBody = raw
	resp.Header.Del("Content-Encoding")
	if x.upstreamStatus != fasthttp.StatusOK {
		return nil
	}
	x.resp, err = decodeChatResponse(x.upstreamBody)
	return err
}

// inspect evaluates the tools decision for every choice that proposes tool calls.
func (x *exchange) inspect(ctx context.Context) error {
	if x.resp == nil {
		return nil
	}
	for _, c := range x.resp.choices {
		if len(c.calls) == 0 {
			continue
		}
		in := x.input
		in.ToolCalls = make([]policies.ToolCall, len(c.calls))
		for i, call := range c.calls {
			in.ToolCalls[i] = x.snap.Bundle.ToolCall(call.ID, call.ToolName(), call.RawArguments())
		}
		d, err := x.snap.Bundle.Tools(ctx, &in)
		if err != nil {
			c.tools = d // every call denied
			if perr := x.policyFailed(err); perr != nil {
				return perr
			}
			continue
		}
		c.tools = d
		x.violations = append(x.violations, d.Violations...)
		for _, v := range d.Calls {
			x.violations = append(x.violations, v.Violations...)
		}
	}
	return nil
}

// validate grounds each answer's numbers in the conversation and evaluates the response
// decision.
func (x *exchange) validate(ctx context.Context) error {
	if x.resp == nil {
		return nil
	}
	opts := policies.GroundingOptions(x.admission.Obligations)
	for _, c := range x.resp.choices {
		in := x.input
		in.ToolCalls = make([]policies.ToolCall, len(c.calls))
		for i, call := range c.calls {
			in.ToolCalls[i] = policies.ToolCall{ID: call.ID, Name: call.ToolName()}
		}
		if c.content != "" {
			if x.index == nil {
				x.index = grounding.NewIndex(policies.Sources(x.req.Messages))
			}
			c.numbers = x.index.Check(c.content, opts)
			in.Answer.Numbers = make([]policies.Number, len(c.numbers))
			for i, n := range c.numbers {
				in.Answer.Numbers[i] = policies.NumberFrom(n)
			}
		}
		d, err := x.snap.Bundle.Response(ctx, &in)
		if err != nil {
			c.response = d
			if perr := x.policyFailed(err); perr != nil {
				return perr
			}
			continue
		}
		c.response = d
		x.violations = append(x.violations, d.Violations...)
	}
	return nil
}

// enforce applies the mode: monitor forwards unchanged; enforce with on_violation error
// refuses (403 for a blocked tool call, 422 for a rejected answer); enforce with rewrite
// makes every choice compliant.
func (x *exchange) enforce(context.Context) error {
	x.violations = mergeViolations(x.violations)
	if x.resp == nil {
		x.body = x.upstreamBody
		x.outcome = outcomeFor(len(x.violations) > 0, x.monitor(), false)
		return nil
	}
	var toolsDenied, answerDenied []policies.Violation
	for _, c := range x.resp.choices {
		if len(c.calls) > 0 && !c.tools.Allow {
			toolsDenied = append(toolsDenied, callViolations(c.tools)...)
		}
		if !c.response.Allow {
			answerDenied = append(answerDenied, c.response.Violations...)
		}
	}
	violating := len(toolsDenied)+len(answerDenied) > 0
	switch {
	case !violating || x.monitor():
		x.body = x.upstreamBody
	case x.route.cfg.OnViolation == config.OnViolationRewrite:
		if err := x.resp.loadRaw(); err != nil {
			return &Error{Kind: KindInternal, Code: "internal_error", Message: "could not decode the answer to rewrite it", Err: err}
		}
		for _, c := range x.resp.choices {
			c.rewrite()
		}
		b, err := x.resp.encode()
		if err != nil {
			return &Error{Kind: KindInternal, Code: "internal_error", Message: "could not encode the rewritten answer", Err: err}
		}
		x.body = b
	case len(toolsDenied) > 0:
		v := first(toolsDenied, "tool_not_allowed")
		return &Error{Kind: KindToolBlocked, Code: v.Code, Message: v.Message}
	default:
		v := first(answerDenied, "answer_rejected")
		return &Error{Kind: KindAnswerRejected, Code: v.Code, Message: v.Message}
	}
	x.outcome = outcomeFor(len(x.violations) > 0, x.monitor(), violating && !x.monitor())
	return nil
}

// callViolations returns the violations of the denied calls (a synthetic one when a call
// is denied without a violation) and the decision's own.
func callViolations(d policies.ToolsDecision) []policies.Violation {
	var out []policies.Violation
	for _, c := range d.Calls {
		if c.Allow {
			continue
		}
		if len(c.Violations) == 0 {
			out = append(out, policies.Violation{Code: "tool_not_allowed", Message: "tool call " + c.Name + " denied: " + c.Reason})
		}
		out = append(out, c.Violations...)
	}
	return append(out, d.Violations...)
}

func mergeViolations(vs []policies.Violation) []policies.Violation {
	seen := map[policies.Violation]bool{}
	out := vs[:0]
	for _, v := range vs {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

func outcomeFor(violated, monitor, modified bool) string {
	switch {
	case modified:
		return "modified"
	case violated && monitor:
		return "monitored"
	default:
		return "allowed"
	}
}

func (x *exchange) countUpstreamError(err error) {
	kind := "down"
	if statusOf(err) == fasthttp.StatusGatewayTimeout {
		kind = "timeout"
	}
	x.g.metrics.upstreamErrors.WithLabelValues(x.route.upstream.cfg.Name, kind).Inc()
}
