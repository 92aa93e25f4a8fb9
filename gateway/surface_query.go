package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/weirgw/weir/adapters/llm"
	"github.com/weirgw/weir/gateway/audit"
	"github.com/weirgw/weir/gateway/chat"
	"github.com/weirgw/weir/gateway/query"
	"github.com/weirgw/weir/policies/grounding"
)

// querySurface is the surface of a query route (POST /v1/query): Weir answers the question
// itself (gateway/query) from the data, a model, both, or a bounded agent loop. The engine
// calls the pipeline's one tools check on every call — its own data reads and the model's —
// and the one answer check on every answer a model writes (queryGuard).
type querySurface struct {
	req  *query.Request
	resp *query.Response
	md   *query.Metadata
	qerr *query.Error
}

// queryState is what the record reads of a query exchange.
type queryState = querySurface

func (q *querySurface) decides() bool { return true }

func (q *querySurface) kind(x *exchange) string { return "" } // the engine reports it (upstream)

func (q *querySurface) decode(x *exchange) error {
	if x.subPath != "" && x.subPath != "/" {
		return errorf(KindNotFound, "not_found", "%s %s is not served by weir; POST %s", x.rc.Method(), x.rc.Path(), x.route.cfg.Path)
	}
	if !x.rc.IsPost() {
		return errorf(KindBadRequest, "method_not_allowed", "use POST %s with {\"query\": \"...\"}", x.route.cfg.Path)
	}
	req, err := query.DecodeRequest(x.rc.Request.Body())
	if err != nil {
		return &Error{Kind: KindBadRequest, Code: query.CodeValidation, Message: err.Error()}
	}
	q.req = req
	x.req.Question = req.Query
	x.q = q
	return nil
}

// upstream runs the question through the route's engine.
func (q *querySurface) upstream(ctx context.Context, x *exchange) error {
	intent, _ := x.pol.Pack.Intent(x.class.Intent)
	question := &query.Question{
		Text: x.req.Question, Class: x.class, Intent: intent, Options: q.req.Options,
		Allowed: x.admission.Obligations.AllowedTools, Guard: &queryGuard{x: x},
	}
	q.resp, q.md, q.qerr = x.route.engine.Answer(ctx, question)
	if q.md != nil {
		x.routeKind, x.tokens = q.md.Route, int64(q.md.TokensUsed)
	}
	if q.qerr != nil {
		return &Error{Kind: kindOfStatus(q.qerr.Status), Code: q.qerr.Code, Message: q.qerr.Message, Err: q.qerr}
	}
	return nil
}

// kindOfStatus maps the engine's error status to a request error kind.
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

// encode writes the answer in seed 000's format.
func (q *querySurface) encode(x *exchange) error {
	md := q.metadata(x)
	resp := q.resp
	if q.req.Options.IncludeMetadata == nil || *q.req.Options.IncludeMetadata {
		resp.Metadata = md
	}
	b, err := json.Marshal(resp)
	if err != nil {
		return &Error{Kind: KindInternal, Code: "INTERNAL_ERROR", Message: "the answer could not be encoded", Err: err}
	}
	x.out = output{status: http.StatusOK, contentType: "application/json", body: b}
	return nil
}

func (q *querySurface) metadata(x *exchange) *query.Metadata {
	if q.md != nil {
		q.md.DecisionID = x.decisionID
		q.md.ExecutionTimeMs = float64(time.Since(x.start).Microseconds()) / 1000
	}
	return q.md
}

// encodeError writes err in seed 000's error format.
func (q *querySurface) encodeError(x *exchange, err error) {
	qerr := q.qerr
	if qerr == nil {
		qerr = &query.Error{Code: queryCode(err), Message: publicMessage(err)}
	}
	b, _ := json.Marshal(qerr.Body(x.decisionID, q.metadata(x)))
	x.out = output{status: statusOf(err), contentType: "application/json", body: b}
}

// queryCode maps a gateway error to seed 000's codes.
func queryCode(err error) string {
	var e *Error
	if !errors.As(err, &e) {
		return "INTERNAL_ERROR"
	}
	switch e.Kind {
	case KindBadRequest, KindTooLarge, KindHeaderTooLarge:
		return query.CodeValidation
	case KindNotFound:
		return "NOT_FOUND"
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
	case KindRateLimited, KindLimited:
		return query.CodeRateLimit
	case KindUnauthenticated:
		return "AUTHENTICATION_ERROR"
	case KindLimitsUnavailable:
		return "LIMITS_UNAVAILABLE"
	}
	return "INTERNAL_ERROR"
}

// queryGuard is the engine's access to the pipeline's checks: the one tools check on
// every call the engine makes or the model proposes, and the one answer check on every
// answer a model writes — with the route's mode and on_violation, violations recorded.
type queryGuard struct {
	x *exchange
}

// Tools decides the calls; a call may run when the policy allows it, or in monitor mode.
func (q *queryGuard) Tools(ctx context.Context, calls []llm.ToolCall) ([]query.Verdict, error) {
	x := q.x
	cc := make([]chat.Call, len(calls))
	for i, c := range calls {
		cc[i] = chat.Call{ID: c.ID, Type: "function", Name: c.Name, Arguments: c.Arguments}
	}
	verdicts, err := x.judgeCalls(ctx, cc)
	if err != nil {
		return nil, err
	}
	out := make([]query.Verdict, len(calls))
	for i, v := range verdicts {
		out[i] = query.Verdict{Allow: v.Allow || x.monitor(), Reason: v.Reason}
	}
	return out, nil
}

// Answer checks a model-written answer against the data it was given.
func (q *queryGuard) Answer(ctx context.Context, text string, sources []grounding.Source, called []string) (string, error) {
	x := q.x
	var t chat.Texts
	t.Set(chat.Content, text)
	tv, err := x.checkTexts(ctx, t, textCheck{index: grounding.NewIndex(sources), called: append(append([]string{}, x.input.ToolsCalled...), called...), final: true})
	var e *Error
	switch {
	case errors.As(err, &e) && e.Kind == KindAnswerRejected:
		return "", errors.New(e.Message)
	case err != nil:
		return "", err
	}
	return tv.out.Get(chat.Content), nil
}

// recordQuery adds what the query surface did to the record: the mode the client asked
// for, the data sources read and every call — Weir's own reads and the model's — with its
// verdict and what was done with it.
func (x *exchange) recordQuery(rec *audit.Record, content bool) {
	q := x.q
	if q == nil {
		return
	}
	rec.RequestedMode = q.req.Options.Mode
	if q.md == nil {
		return
	}
	rec.RouteKind = q.md.Route
	for _, c := range q.md.ToolCalls {
		rows := c.Rows
		tc := audit.ToolCall{ID: c.ID, Type: "function", Name: c.Name, Origin: c.Origin,
			Allowed: c.Allow, Reason: c.Reason, Action: audit.ActionRan}
		if c.Outcome == "denied" || !c.Allow {
			tc.Action = audit.ActionDenied
		} else {
			tc.Rows = &rows
		}
		if content && json.Valid([]byte(c.Arguments)) {
			tc.Arguments = json.RawMessage(c.Arguments)
		}
		rec.ToolCalls = append(rec.ToolCalls, tc)
	}
	for _, s := range q.md.Sources {
		rec.Sources = append(rec.Sources, audit.Source{Name: s.Name, Tool: s.Tool, Rows: s.Rows, Used: s.Used, Error: errorKind(s.Error)})
	}
}

// errorKind keeps a data source's failure out of the record's text — it may quote a
// backend's error — but for a read the policy denied, which says so.
func errorKind(s string) string {
	switch {
	case s == "":
		return ""
	case strings.Contains(s, "denied by policy"):
		return "denied by policy"
	}
	return "failed"
}
