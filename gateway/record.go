package gateway

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/weirgw/weir/gateway/audit"
	"github.com/weirgw/weir/gateway/chat"
	"github.com/weirgw/weir/policies"
	"github.com/weirgw/weir/rules"
)

// record builds the exchange's audit record from the pipeline's verdicts: every proposed or
// run call with its own verdict and what was done with it, every violation, the outcome and
// the status the client got. It never holds request bytes, credentials or an upstream's
// words; prompts, answers and arguments only with include_content — and then the texts as
// they were forwarded, after the checks.
func (x *exchange) record(err error) *audit.Record {
	rec := &audit.Record{
		Time: x.start.UTC(), DecisionID: x.decisionID, RequestID: x.requestID,
		Surface: x.route.cfg.Surface, Route: x.route.cfg.Name, Mode: x.mode, RouteKind: x.routeKind,
		Subject: audit.Subject{ID: x.subject.ID, Roles: x.subject.Roles, Tenant: x.subject.Tenant, AuthMethod: x.subject.AuthMethod},
		EndUser: x.req.EndUser,
		Rules:   []string{}, ToolCalls: []audit.ToolCall{}, Violations: []audit.Violation{},
		PolicyRevision: x.pol.Bundle.Revision(), PackRevision: x.pol.Pack.Revision(),
		Status: x.out.status, UpstreamStatus: x.upstreamStatus,
		ToolsRemoved: x.removedTools, LatencyUS: map[string]int64{},
	}
	if x.classified {
		rec.Intent, rec.Confidence, rec.Source, rec.Rules = x.class.Intent, x.class.Confidence, string(x.class.Source), x.class.RuleIDs()
		recordClassification(rec, &x.class)
	}
	content := x.snap.Config.Audit.IncludeContent
	for _, v := range mergeViolations(x.violations) {
		rec.Violations = append(rec.Violations, audit.Violation{Code: v.Code, Message: violationMessage(v, content), Rule: v.Rule})
	}
	for _, v := range x.calls {
		rec.ToolCalls = append(rec.ToolCalls, v.audit(content))
	}
	x.recordQuery(rec, content)
	for _, st := range x.latency {
		rec.LatencyUS[st.name] = st.d.Microseconds()
	}
	rec.LatencyUS["total"] = time.Since(x.start).Microseconds()
	rec.Outcome = x.outcomeOf(err)
	if err != nil {
		rec.Error = codeOf(err)
	}
	if content {
		rec.Content = x.content()
	}
	return rec
}

// outcomeOf names what happened: blocked (refused by a decision, for want of credentials or
// of budget), error (the gateway or the
// upstream failed), modified (a rewrite changed the answer), monitored (violations found and
// forwarded unchanged) or allowed.
func (x *exchange) outcomeOf(err error) string {
	var e *Error
	switch {
	case errors.As(err, &e) && (e.Kind == KindToolBlocked || e.Kind == KindNotAdmitted || e.Kind == KindAnswerRejected ||
		e.Kind == KindUnauthenticated || e.Kind == KindLimited):
		return audit.OutcomeBlocked
	case err != nil || x.upstreamStatus >= 500:
		return audit.OutcomeError
	case x.modified:
		return audit.OutcomeModified
	case len(x.violations) > 0 && x.monitor():
		return audit.OutcomeMonitored
	}
	return audit.OutcomeAllowed
}

// audit is the record's entry of a call; arguments only with content.
func (v callVerdict) audit(content bool) audit.ToolCall {
	tc := audit.ToolCall{Choice: v.choice, ID: v.call.ID, Type: v.call.Type, Name: v.call.Name, Origin: v.origin,
		Allowed: v.allow, Reason: v.reason, Action: v.action}
	if v.origin == audit.OriginWeir {
		rows := v.rows
		tc.Rows = &rows
	}
	if content {
		tc.Arguments = recordedArguments(policyArguments(v.call))
	}
	return tc
}

// recordedArguments is a call's arguments as the record holds them: the JSON object the
// model wrote, or, when they are anything else (not JSON, not an object), a JSON string of
// their text, so that a call forwarded with arguments no decision could read is recorded
// with what the client got.
func recordedArguments(args string) json.RawMessage {
	if args == "" {
		return nil
	}
	if t := strings.TrimLeft(args, " \t\r\n"); strings.HasPrefix(t, "{") && json.Valid([]byte(args)) {
		return json.RawMessage(args)
	}
	b, _ := json.Marshal(args)
	return b
}

// content is what the exchange said: the question, and each choice's texts exactly as
// they were forwarded.
func (x *exchange) content() *audit.Content {
	c := &audit.Content{Prompt: x.req.Question}
	for _, cs := range x.choices {
		if !cs.sent {
			continue
		}
		t := &cs.released
		c.Choices = append(c.Choices, audit.Choice{Index: cs.index, Content: t.Get(chat.Content),
			Refusal: t.Get(chat.Refusal), Reasoning: t.Get(chat.Reasoning)})
	}
	// In index order, as clients list them; a stream's choices arrive in any order.
	slices.SortFunc(c.Choices, func(a, b audit.Choice) int { return a.Index - b.Index })
	if len(c.Choices) > 0 {
		c.Answer = c.Choices[0].Content
	}
	if x.q != nil && x.q.resp != nil {
		c.Answer = x.q.resp.Answer
	}
	return c
}

// recordClassification adds to rec why the classifier's tier decided and, when the LLM
// fallback was asked, its model, latency, tokens and the kind of its error — never the
// error's text, which may quote the model's answer.
func recordClassification(rec *audit.Record, c *rules.Classification) {
	rec.Reason = c.Reason
	if f := c.Fallback; f != nil {
		rec.Fallback = &audit.Fallback{
			Model: f.Model, LatencyUS: f.Latency.Microseconds(), Tokens: f.Tokens,
			Cached: f.Cached, Intent: f.Intent, Error: fallbackErrorKind(f.Error),
		}
	}
}

// mergeViolations drops repeated violations, keeping the first of each.
func mergeViolations(vs []policies.Violation) []policies.Violation {
	seen := map[policies.Violation]bool{}
	out := make([]policies.Violation, 0, len(vs))
	for _, v := range vs {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// fallbackErrorKind reduces the fallback classifier's error to its reason ("llm timeout:
// …" → "timeout"): the rest may quote the model's answer or an upstream's error body.
func fallbackErrorKind(s string) string {
	if s == "" {
		return ""
	}
	if rest, ok := strings.CutPrefix(s, "llm "); ok {
		if reason, _, ok := strings.Cut(rest, ":"); ok && !strings.ContainsAny(reason, " \t\n") {
			return reason
		}
	}
	return "error"
}
