package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/weirgw/weir/adapters/llm"
	"github.com/weirgw/weir/gateway/audit"
	"github.com/weirgw/weir/gateway/config"
	"github.com/weirgw/weir/gateway/query"
	"github.com/weirgw/weir/policies"
	"github.com/weirgw/weir/policies/grounding"
)

// queryStages is the request path of a query route, on which Weir answers the question
// itself (gateway/query): from the data, a model, both, or a bounded agent loop whose every
// tool call and answer pass the policies.
var queryStages = []stage{
	{"decode", (*exchange).decodeQuery}, // body → query request (400 VALIDATION_ERROR)
	{"classify", (*exchange).classify},  // question → intent and filters (rules, fallback)
	{"admit", (*exchange).admit},        // request decision (403 POLICY_DENIED)
	{"answer", (*exchange).answerQuery}, // the intent's route; tools and response decisions inside
}

// serveQuery serves POST on a query route.
func (g *Gateway) serveQuery(rc *fasthttp.RequestCtx, snap *Snapshot, r *route, sub string) {
	x := newExchange(g, rc, snap, r, sub)
	if sub != "" && sub != "/" {
		g.answer(rc, x, errorf(KindNotFound, "not_found", "%s %s is not served by weir; POST %s", rc.Method(), rc.Path(), r.cfg.Path))
		return
	}
	if !rc.IsPost() {
		g.answer(rc, x, errorf(KindBadRequest, "method_not_allowed", "use POST %s with {\"query\": \"...\"}", r.cfg.Path))
		return
	}
	g.serve(rc, x, queryStages)
}

// decodeQuery reads the query request.
func (x *exchange) decodeQuery(context.Context) error {
	req, err := query.DecodeRequest(x.rc.Request.Body())
	if err != nil {
		return &Error{Kind: KindBadRequest, Code: query.CodeValidation, Message: err.Error()}
	}
	x.qreq = req
	x.text = req.Query
	x.subject = string(x.rc.Request.Header.Peek("X-Weir-Subject"))
	return nil
}

// answerQuery runs the question through the route's engine.
func (x *exchange) answerQuery(ctx context.Context) error {
	e := x.route.engine
	intent, _ := x.snap.Pack.Intent(x.class.Intent)
	q := &query.Question{
		Text: x.text, Class: x.class, Intent: intent, Options: x.qreq.Options,
		Allowed: x.admission.Obligations.AllowedTools, Guard: &queryGuard{x: x},
	}
	resp, md, qerr := e.Answer(ctx, q)
	x.qresp, x.qmd, x.qerr = resp, md, qerr
	if qerr != nil {
		return &Error{Kind: kindOfStatus(qerr.Status), Code: qerr.Code, Message: qerr.Message, Err: qerr}
	}
	x.outcome = outcomeFor(len(x.violations) > 0, x.monitor(), x.modified)
	return nil
}

func kindOfStatus(status int) Kind {
	switch status {
	case http.StatusBadRequest:
		return KindBadRequest
	case http.StatusForbidden:
		return KindNotAdmitted
	case http.StatusUnprocessableEntity:
		return KindAnswerRejected
	case http.StatusTooManyRequests:
		return KindRateLimited
	case http.StatusBadGateway:
		return KindUpstreamDown
	case http.StatusGatewayTimeout:
		return KindUpstreamTimeout
	}
	return KindInternal
}

// queryGuard applies the tools and response decisions to the engine's model output, with
// the route's mode and on_violation, recording violations in the exchange.
type queryGuard struct {
	x *exchange
}

func (q *queryGuard) Tools(ctx context.Context, calls []llm.ToolCall) ([]query.Verdict, error) {
	x := q.x
	in := x.input
	in.ToolCalls = make([]policies.ToolCall, len(calls))
	for i, c := range calls {
		in.ToolCalls[i] = x.snap.Bundle.ToolCall(c.ID, c.Name, c.Arguments)
	}
	out := make([]query.Verdict, len(calls))
	d, err := x.snap.Bundle.Tools(ctx, &in)
	if err != nil {
		if perr := x.policyFailed(err); perr != nil {
			return nil, perr
		}
		for i := range out {
			out[i] = query.Verdict{Allow: true} // monitor: recorded, not enforced
		}
		return out, nil
	}
	x.violations = append(x.violations, d.Violations...)
	for i := range out {
		out[i] = query.Verdict{Allow: true}
		if i < len(d.Calls) {
			c := d.Calls[i]
			x.violations = append(x.violations, c.Violations...)
			out[i] = query.Verdict{Allow: c.Allow || x.monitor(), Reason: c.Reason}
		}
	}
	return out, nil
}

func (q *queryGuard) Answer(ctx context.Context, text string, sources []grounding.Source, called []string) (string, error) {
	x := q.x
	in := x.input
	in.ToolsCalled = append(append([]string{}, in.ToolsCalled...), called...)
	numbers := grounding.NewIndex(sources).Check(text, policies.GroundingOptions(x.admission.Obligations))
	in.Answer.Numbers = make([]policies.Number, len(numbers))
	for i, n := range numbers {
		in.Answer.Numbers[i] = policies.NumberFrom(n)
	}
	d, err := x.snap.Bundle.Response(ctx, &in)
	if err != nil {
		if perr := x.policyFailed(err); perr != nil {
			return "", perr
		}
		return text, nil
	}
	x.violations = append(x.violations, d.Violations...)
	if d.Allow || x.monitor() {
		return text, nil
	}
	if x.route.cfg.OnViolation != config.OnViolationRewrite {
		v := first(d.Violations, "answer_rejected")
		return "", errors.New(v.Message)
	}
	ungrounded := map[string]bool{}
	var other []string
	for _, v := range d.Violations {
		if v.Code == "ungrounded_number" && v.Text != "" {
			ungrounded[v.Text] = true
		} else {
			other = append(other, v.Message)
		}
	}
	x.modified = true
	if len(other) > 0 {
		return "[weir] answer withheld: " + strings.Join(dedupe(other), "; "), nil
	}
	return replaceNumbers(text, numbers, ungrounded), nil
}

// writeQuery answers a query-surface exchange in seed 000's format.
func (g *Gateway) writeQuery(rc *fasthttp.RequestCtx, x *exchange, err error) {
	rc.Response.Reset()
	rc.SetContentType("application/json")
	intent := ""
	if x.classified {
		intent = x.class.Intent
	}
	setWeirHeaders(rc, x.decisionID, intent)
	md := x.qmd
	if md != nil {
		md.DecisionID = x.decisionID
		md.ExecutionTimeMs = float64(time.Since(x.start).Microseconds()) / 1000
	}
	if err != nil {
		qerr := x.qerr
		if qerr == nil {
			qerr = &query.Error{Code: queryCode(err), Message: publicMessage(err)}
		}
		var body any = qerr.Body(x.decisionID, md)
		b, _ := json.Marshal(body)
		rc.SetStatusCode(statusOf(err))
		rc.SetBody(b)
		return
	}
	resp := x.qresp
	if x.qreq.Options.IncludeMetadata == nil || *x.qreq.Options.IncludeMetadata {
		resp.Metadata = md
	}
	b, merr := json.Marshal(resp)
	if merr != nil {
		rc.SetStatusCode(http.StatusInternalServerError)
		rc.SetBodyString(`{"success":false,"error":{"code":"INTERNAL_ERROR","message":"the answer could not be encoded","decision_id":"` + x.decisionID + `"}}`)
		return
	}
	rc.SetStatusCode(http.StatusOK)
	rc.SetBody(b)
}

// queryCode maps a gateway error to seed 000's codes.
func queryCode(err error) string {
	var e *Error
	if !errors.As(err, &e) {
		return "INTERNAL_ERROR"
	}
	switch e.Kind {
	case KindBadRequest, KindTooLarge, KindHeaderTooLarge, KindNotFound:
		if e.Code == "not_found" {
			return "NOT_FOUND"
		}
		return query.CodeValidation
	case KindNotAdmitted, KindToolBlocked:
		return query.CodePolicy
	case KindAnswerRejected:
		return query.CodeAnswerRejected
	case KindPolicy:
		return "POLICY_ERROR"
	case KindAuditUnavailable:
		return "AUDIT_UNAVAILABLE"
	case KindUpstreamDown, KindUpstreamTimeout:
		return query.CodeAI
	case KindRateLimited:
		return query.CodeRateLimit
	}
	return "INTERNAL_ERROR"
}

// recordQuery adds the query surface's tool calls and answer to the audit record.
func (x *exchange) recordQuery(rec *audit.Record) {
	if x.qmd == nil {
		return
	}
	rec.Status = http.StatusOK // an error below overrides it
	for _, c := range x.qmd.ToolCalls {
		tc := audit.ToolCall{ID: c.ID, Name: c.Name, Allowed: c.Allow, Reason: c.Reason}
		if x.snap.Config.Audit.IncludeContent && json.Valid([]byte(c.Arguments)) {
			tc.Arguments = json.RawMessage(c.Arguments)
		}
		rec.ToolCalls = append(rec.ToolCalls, tc)
	}
}
