package gateway

import (
	"context"
	"slices"

	"github.com/weirgw/weir/policies"
)

// classify classifies the question and builds the decisions' input.
func (x *exchange) classify(ctx context.Context) error {
	if !x.surface.decides() {
		return nil
	}
	x.class = x.pol.Classifier.Classify(ctx, x.req.Question)
	x.classified = true
	x.mode = x.route.cfg.ModeFor(x.class.Intent)
	x.g.metrics.countClassification(string(x.class.Source))
	x.input = policies.Input{
		Subject: x.subject,
		Route:   policies.Route{Name: x.route.cfg.Name, Surface: x.route.cfg.Surface},
		Classification: policies.Classification{
			Intent: x.class.Intent, Confidence: x.class.Confidence, Source: string(x.class.Source),
			Rules: x.class.RuleIDs(), Filters: x.class.Filters,
		},
		ToolsCalled: policies.ToolsCalled(x.req.Messages),
	}
	return nil
}

// policyFailed turns a decision error into a fail-closed error (enforce) or a recorded
// policy_error violation (monitor).
func (x *exchange) policyFailed(err error) error {
	x.violations = append(x.violations, policies.Violation{Code: policies.CodePolicyError, Message: "policy evaluation failed"})
	if x.monitor() {
		return nil
	}
	return &Error{Kind: KindPolicy, Code: policies.CodePolicyError, Message: "policy evaluation failed; the request is denied", Err: err}
}

// admit evaluates the request decision and narrows the tools offered to the model to
// those it allows (monitor: records what would have been removed).
func (x *exchange) admit(ctx context.Context) error {
	if !x.classified {
		return nil
	}
	d, err := x.pol.Bundle.Request(ctx, &x.input)
	if err != nil {
		return x.policyFailed(err)
	}
	x.admission, x.admitted = d, true
	x.violations = append(x.violations, d.Violations...)
	if !d.Allow && !x.monitor() {
		v := first(d.Violations, "request_denied")
		return &Error{Kind: KindNotAdmitted, Code: v.Code, Message: v.Message}
	}
	for _, t := range x.req.Tools {
		if !slices.Contains(d.Obligations.AllowedTools, t.Name) {
			x.removedTools = append(x.removedTools, t.Name)
		}
	}
	return nil
}

// offerTool reports whether the request sent upstream may name the tool — offer it in
// tools, force it or list it in tool_choice: every tool in monitor mode, the ones the
// request decision allows otherwise (a tool_choice may name a tool the client did not
// offer: it is judged by the same list).
func (x *exchange) offerTool(name string) bool {
	return x.monitor() || slices.Contains(x.admission.Obligations.AllowedTools, name)
}

func first(vs []policies.Violation, fallback string) policies.Violation {
	if len(vs) > 0 {
		return vs[0]
	}
	return policies.Violation{Code: fallback, Message: "denied by policy"}
}
