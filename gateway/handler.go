package gateway

import (
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/weirgw/weir/gateway/audit"
	"github.com/weirgw/weir/gateway/config"
)

// handle routes a request to its surface using the snapshot current at arrival; the
// request keeps that snapshot to the end.
func (g *Gateway) handle(rc *fasthttp.RequestCtx) {
	g.handling.add()
	defer g.handling.done()
	snap := g.snap.Load()
	r, sub := snap.match(string(rc.Path()))
	if r == nil {
		g.writeError(rc, "", "", errorf(KindNotFound, "not_found", "no route serves %s", rc.Path()))
		g.metrics.countRequest("", rc.Response.StatusCode())
		return
	}
	switch {
	case g.opts.Passthrough:
		g.servePassthrough(rc, r, sub)
	case r.cfg.Surface == config.SurfaceData:
		g.serveData(rc, snap, r, sub)
	case r.cfg.Surface == config.SurfaceQuery:
		g.serveQuery(rc, snap, r, sub)
	case sub == "/chat/completions" && rc.IsPost():
		g.serveChat(rc, snap, r, sub)
	case sub == "/models" && rc.IsGet():
		g.proxyModels(rc, r, sub)
	default:
		g.writeError(rc, "", "", errorf(KindNotFound, "not_found", "%s %s is not served by weir", rc.Method(), rc.Path()))
	}
	g.metrics.countRequest(r.cfg.Name, rc.Response.StatusCode())
}

// serveChat runs the chat stages, answers, and audits the decision whatever happened.
func (g *Gateway) serveChat(rc *fasthttp.RequestCtx, snap *Snapshot, r *route, sub string) {
	x := newExchange(g, rc, snap, r, sub)
	if streaming(rc.Request.Body()) {
		g.serveStream(rc, x)
		return
	}
	g.serve(rc, x, chatStages)
}

// streaming is wantsStream, in one pass where it can be.
func streaming(body []byte) bool {
	if !hasQuoted(body, "stream") {
		return false
	}
	if stream, ok := streamRequested(body); ok {
		return stream
	}
	return wantsStream(body)
}

// hasQuoted is bytes.Contains(b, []byte(`"`+word+`"`)), three times faster on a chat
// body: bytes.Index looks for the first byte of what it searches first, and '"' is in
// every JSON string, so this searches for word and checks the bytes around it.
func hasQuoted(b []byte, word string) bool {
	for i := 0; ; {
		j := bytes.Index(b[i:], []byte(word))
		if j < 0 {
			return false
		}
		j += i
		if j > 0 && b[j-1] == '"' && j+len(word) < len(b) && b[j+len(word)] == '"' {
			return true
		}
		i = j + 1
	}
}

// serve runs an exchange through stages, audits it, answers and counts it.
func (g *Gateway) serve(rc *fasthttp.RequestCtx, x *exchange, stages []stage) {
	g.answer(rc, x, x.runStages(g.base, stages))
	x.release()
}

// answer audits an exchange whose stages ended with err (nil: success), answers and
// counts it.
func (g *Gateway) answer(rc *fasthttp.RequestCtx, x *exchange, err error) {
	snap := x.snap
	if err == nil && x.upstreamStatus >= 500 {
		x.outcome = audit.OutcomeError
	}
	rec := x.record(err)
	if aerr := g.audit.Write(rec); aerr != nil {
		g.metrics.auditErrors.Inc()
		g.log.Error("audit write failed", "decision_id", x.decisionID, "err", aerr)
		if snap.Config.Audit.OnError == config.OnErrorFailClosed {
			err = &Error{Kind: KindAuditUnavailable, Code: "audit_unavailable", Message: "the decision could not be recorded; the request is refused", Err: aerr}
			rec.Outcome, rec.Status = audit.OutcomeError, statusOf(err)
		}
	}
	intent := ""
	if x.classified {
		intent = x.class.Intent
	}
	switch {
	case x.route.cfg.Surface == config.SurfaceQuery:
		g.writeQuery(rc, x, err)
	case err != nil:
		g.writeError(rc, x.decisionID, intent, err)
	default:
		g.writeUpstream(rc, x)
	}
	g.observe(x, rec, err)
}

// writeUpstream sends the upstream's answer (possibly rewritten) with its headers.
func (g *Gateway) writeUpstream(rc *fasthttp.RequestCtx, x *exchange) {
	x.responseHeader().CopyTo(&rc.Response.Header)
	rc.Response.Header.Del("Content-Length")
	rc.Response.Header.Del("Content-Encoding")
	rc.Response.Header.Del("Server")
	rc.SetStatusCode(x.upstreamStatus)
	setWeirHeaders(rc, x.decisionID, x.class.Intent)
	if x.upstreamStatus >= 400 {
		rc.SetBody(withDecisionID(x.body, x.decisionID))
		return
	}
	rc.SetBody(x.body)
}

// withDecisionID adds decision_id to an upstream's OpenAI-format error body, so every
// error a client sees carries it; any other body is passed as it is.
func withDecisionID(body []byte, id string) []byte {
	var doc map[string]json.RawMessage
	if json.Unmarshal(body, &doc) != nil {
		return body
	}
	var e map[string]json.RawMessage
	if json.Unmarshal(doc["error"], &e) != nil || e == nil {
		return body
	}
	e["decision_id"], _ = json.Marshal(id)
	doc["error"], _ = json.Marshal(e)
	out, err := json.Marshal(doc)
	if err != nil {
		return body
	}
	return out
}

func setWeirHeaders(rc *fasthttp.RequestCtx, decisionID, intent string) {
	if decisionID != "" {
		rc.Response.Header.Set("X-Weir-Decision-Id", decisionID)
	}
	if intent != "" {
		rc.Response.Header.Set("X-Weir-Intent", intent)
	}
}

// errorBody is the OpenAI error format, with the decision id.
type errorBody struct {
	Error struct {
		Message    string `json:"message"`
		Type       string `json:"type"`
		Code       string `json:"code"`
		DecisionID string `json:"decision_id,omitempty"`
	} `json:"error"`
}

// writeError answers err in the OpenAI error format with its status.
func (g *Gateway) writeError(rc *fasthttp.RequestCtx, decisionID, intent string, err error) {
	var b errorBody
	b.Error.Message, b.Error.Type, b.Error.Code, b.Error.DecisionID = publicMessage(err), errorType(err), codeOf(err), decisionID
	body, _ := json.Marshal(&b)
	rc.Response.Reset()
	rc.SetStatusCode(statusOf(err))
	rc.SetContentType("application/json")
	setWeirHeaders(rc, decisionID, intent)
	rc.SetBody(body)
}

// record builds the audit record of an exchange.
func (x *exchange) record(err error) *audit.Record {
	rec := &x.rec
	*rec = audit.Record{
		Time: x.start.UTC(), DecisionID: x.decisionID, RequestID: x.requestID,
		Surface: x.route.cfg.Surface, Route: x.route.cfg.Name, Mode: x.mode,
		Rules: []string{}, ToolCalls: []audit.ToolCall{}, Violations: []audit.Violation{},
		PolicyRevision: x.snap.Bundle.Revision(), PackRevision: x.snap.Pack.Revision(),
		Outcome: x.outcome, Status: x.upstreamStatus, UpstreamStatus: x.upstreamStatus,
		ToolsRemoved: x.removedTools, LatencyUS: map[string]int64{},
	}
	if x.subject != "" {
		rec.Subject = audit.Subject{ID: x.subject}
	}
	if x.classified {
		rec.Intent, rec.Confidence, rec.Source, rec.Rules = x.class.Intent, x.class.Confidence, string(x.class.Source), x.class.RuleIDs()
		recordClassification(rec, &x.class)
	}
	for _, v := range mergeViolations(x.violations) {
		rec.Violations = append(rec.Violations, audit.Violation{Code: v.Code, Message: v.Message, Rule: v.Rule})
	}
	x.recordCalls(rec)
	x.recordQuery(rec)
	for _, st := range x.latency {
		rec.LatencyUS[st.name] = st.d.Microseconds()
	}
	rec.LatencyUS["total"] = time.Since(x.start).Microseconds()
	if err != nil {
		rec.Status = statusOf(err)
		rec.Outcome = audit.OutcomeError
		var e *Error
		if errors.As(err, &e) && (e.Kind == KindToolBlocked || e.Kind == KindNotAdmitted || e.Kind == KindAnswerRejected) {
			rec.Outcome = audit.OutcomeBlocked
		}
		rec.Error = codeOf(err)
	}
	if x.snap.Config.Audit.IncludeContent {
		rec.Content = &audit.Content{Prompt: x.text}
		if x.resp != nil && len(x.resp.choices) > 0 {
			rec.Content.Answer = x.resp.choices[0].content
		}
		if x.qresp != nil {
			rec.Content.Answer = x.qresp.Answer
		}
	}
	return rec
}

// recordCalls adds every proposed tool call and its verdict (arguments only with content).
func (x *exchange) recordCalls(rec *audit.Record) {
	if x.resp == nil {
		return
	}
	for _, c := range x.resp.choices {
		for i, call := range c.calls {
			tc := audit.ToolCall{ID: call.ID, Name: call.ToolName(), Allowed: true}
			if i < len(c.tools.Calls) {
				tc.Allowed, tc.Reason = c.tools.Calls[i].Allow, c.tools.Calls[i].Reason
			}
			if x.snap.Config.Audit.IncludeContent {
				if args := call.RawArguments(); json.Valid([]byte(args)) {
					tc.Arguments = json.RawMessage(args)
				}
			}
			rec.ToolCalls = append(rec.ToolCalls, tc)
		}
	}
}

// observe counts the decision and logs it; blocked, modified, monitored and failed
// decisions at Info, allowed ones at Debug.
func (g *Gateway) observe(x *exchange, rec *audit.Record, err error) {
	g.metrics.countDecision(rec.Route, rec.Intent, rec.Outcome)
	for _, v := range rec.Violations {
		g.metrics.countViolation(v.Code, rec.Intent)
	}
	level := slog.LevelDebug
	if rec.Outcome != audit.OutcomeAllowed {
		level = slog.LevelInfo
	}
	if !g.log.Enabled(g.base, level) {
		return // the attributes below cost a dozen allocations
	}
	attrs := []any{"decision_id", rec.DecisionID, "route", rec.Route, "intent", rec.Intent,
		"outcome", rec.Outcome, "status", rec.Status, "latency_us", rec.LatencyUS["total"]}
	if rec.RequestID != "" {
		attrs = append(attrs, "request_id", rec.RequestID)
	}
	if len(rec.Violations) > 0 {
		codes := make([]string, len(rec.Violations))
		for i, v := range rec.Violations {
			codes[i] = v.Code
		}
		attrs = append(attrs, "violations", strings.Join(codes, ","))
	}
	if err != nil {
		attrs = append(attrs, "err", err.Error())
	}
	g.log.Log(g.base, level, "decision", attrs...)
}

// proxyModels forwards GET /models unchanged: it carries no model output.
func (g *Gateway) proxyModels(rc *fasthttp.RequestCtx, r *route, sub string) {
	req := fasthttp.AcquireRequest()
	resp := fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(resp)
	r.upstream.prepare(&rc.Request, req, sub, rc.RemoteIP())
	if err := r.upstream.do(g.base, req, resp); err != nil {
		g.writeError(rc, "", "", err)
		return
	}
	resp.Header.CopyTo(&rc.Response.Header)
	rc.Response.Header.Del("Content-Length")
	rc.Response.Header.Del("Server")
	rc.SetStatusCode(resp.StatusCode())
	rc.SetBody(resp.Body())
}

// handleReadError answers requests fasthttp could not read (too large, malformed) in the
// OpenAI format, and audits them: they are refused decisions too.
func (g *Gateway) handleReadError(rc *fasthttp.RequestCtx, err error) {
	var e *Error
	switch {
	case errors.Is(err, fasthttp.ErrBodyTooLarge):
		e = errorf(KindTooLarge, "request_too_large", "the request body is larger than %d bytes", g.snap.Load().Config.Limits.MaxBodyBytes)
	case strings.Contains(err.Error(), "small read buffer"):
		e = errorf(KindHeaderTooLarge, "headers_too_large", "the request headers are larger than %d bytes", g.snap.Load().Config.Limits.MaxHeaderBytes)
	default:
		e = errorf(KindBadRequest, "bad_request", "the request could not be read")
	}
	e.Err = err
	snap := g.snap.Load()
	r, sub := snap.match(string(rc.Path()))
	if r == nil {
		r, sub = &route{cfg: config.Route{Name: "", Surface: config.SurfaceOpenAI}}, ""
	}
	x := newExchange(g, rc, snap, r, sub)
	rec := x.record(e)
	if aerr := g.audit.Write(rec); aerr != nil {
		g.metrics.auditErrors.Inc()
		g.log.Error("audit write failed", "decision_id", x.decisionID, "err", aerr)
	}
	g.writeError(rc, x.decisionID, "", e)
	g.observe(x, rec, e)
	g.metrics.countRequest(r.cfg.Name, rc.Response.StatusCode())
}
