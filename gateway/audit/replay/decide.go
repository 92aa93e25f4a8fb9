package replay

import (
	"context"
	"slices"
	"strings"

	"github.com/weirgw/weir/gateway/audit"
	"github.com/weirgw/weir/policies"
	"github.com/weirgw/weir/rules"
)

// Replay re-decides one recorded exchange.
func (c *Candidate) Replay(ctx context.Context, rec *audit.Record) Result {
	r := Result{DecisionID: rec.DecisionID, Time: rec.Time.UTC().Format("2006-01-02T15:04:05Z"), Route: rec.Route}
	in := c.input(ctx, rec, &r)
	req, err := c.bundle.Request(ctx, &in)
	if err != nil {
		r.Error = err.Error()
		return r
	}
	r.AllowedNow = req.Obligations.AllowedTools
	if r.AllowedNow == nil {
		r.AllowedNow = []string{}
	}
	r.Admitted = Flip{Was: !admissionDenied(rec), Now: req.Allow}
	r.Tools = toolChanges(rec, req.Obligations.AllowedTools)
	replayed := codes(req.Violations)
	if len(rec.ToolCalls) > 0 {
		tools, err := c.bundle.Tools(ctx, c.withCalls(&in, rec, &r))
		if err != nil {
			r.Error = err.Error()
			return r
		}
		r.Calls = callChanges(rec, tools.Calls)
		replayed = append(replayed, codes(tools.Violations)...)
		for _, call := range tools.Calls {
			replayed = append(replayed, codes(call.Violations)...)
		}
	}
	r.Added, r.Removed = diff(recordedCodes(rec), replayed)
	return r
}

// input builds the request decision's input: the intent classified again from the prompt
// when it was recorded, the recorded one otherwise.
func (c *Candidate) input(ctx context.Context, rec *audit.Record, r *Result) policies.Input {
	cl := policies.Classification{Intent: rec.Intent, Confidence: rec.Confidence, Source: rec.Source, Rules: rec.Rules}
	switch {
	case rec.Content == nil || rec.Content.Prompt == "":
		r.Partial = append(r.Partial, "no prompt recorded: the recorded intent is kept")
	default:
		got := c.classifier.Classify(ctx, rec.Content.Prompt)
		if rec.Source == "llm" && got.Source == rules.SourceDefault {
			r.Partial = append(r.Partial, "the LLM fallback decided and is not replayed: the recorded intent is kept")
			break
		}
		cl = policies.Classification{Intent: got.Intent, Confidence: got.Confidence, Source: string(got.Source), Rules: got.RuleIDs(), Filters: got.Filters}
	}
	r.Intent = Change{Was: rec.Intent, Now: cl.Intent}
	return policies.Input{
		Subject:        policies.Subject{ID: rec.Subject.ID, Roles: rec.Subject.Roles},
		Route:          policies.Route{Name: rec.Route, Surface: rec.Surface},
		Classification: cl, ToolsCalled: []string{},
	}
}

// withCalls adds the recorded tool calls, with their arguments when recorded.
func (c *Candidate) withCalls(in *policies.Input, rec *audit.Record, r *Result) *policies.Input {
	out := *in
	out.ToolCalls = make([]policies.ToolCall, len(rec.ToolCalls))
	missing := false
	for i, tc := range rec.ToolCalls {
		args := string(tc.Arguments)
		if args == "" {
			args, missing = "{}", true
		} else if args[0] == '"' {
			args = unquote(args) // arguments that were not JSON are recorded as a string
		}
		out.ToolCalls[i] = c.bundle.ToolCall(tc.ID, tc.Name, args)
	}
	if missing {
		r.Partial = append(r.Partial, "tool arguments not recorded: calls judged without them")
	}
	return &out
}

// admissionDenied reports whether the recorded request decision refused the exchange:
// it raised a violation.
func admissionDenied(rec *audit.Record) bool {
	for _, v := range rec.Violations {
		if strings.HasPrefix(v.Rule, "weir.request.") {
			return true
		}
	}
	return false
}

// toolChanges compares, for every tool the record names, whether the recorded decision
// allowed it (not removed from the offer; a call allowed) with the candidate's list.
func toolChanges(rec *audit.Record, allowed []string) []ToolChange {
	was := map[string]bool{}
	for _, c := range rec.ToolCalls {
		if c.Origin != audit.OriginWeir {
			was[c.Name] = c.Allowed
		}
	}
	for _, t := range rec.ToolsRemoved {
		was[t] = false
	}
	var out []ToolChange
	for _, name := range sortedKeys(was) {
		if now := slices.Contains(allowed, name); now != was[name] {
			out = append(out, ToolChange{Name: name, Flip: Flip{Was: was[name], Now: now}})
		}
	}
	return out
}

func callChanges(rec *audit.Record, calls []policies.CallDecision) []CallChange {
	var out []CallChange
	for i, c := range calls {
		if i < len(rec.ToolCalls) && rec.ToolCalls[i].Allowed != c.Allow {
			out = append(out, CallChange{ID: c.ID, Name: c.Name, Reason: c.Reason, Flip: Flip{Was: rec.ToolCalls[i].Allowed, Now: c.Allow}})
		}
	}
	return out
}
