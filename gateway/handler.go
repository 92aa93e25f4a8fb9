package gateway

import (
	"errors"
	"log/slog"
	"strings"

	"github.com/valyala/fasthttp"

	"github.com/weirgw/weir/gateway/audit"
	"github.com/weirgw/weir/gateway/config"
)

// handle serves one request with the snapshot current at arrival (the request keeps it to
// the end): it picks the route and its surface, runs the pipeline, and answers. Every
// request gets a decision id and an audit record, unknown paths included.
func (g *Gateway) handle(rc *fasthttp.RequestCtx) {
	g.handling.add()
	defer g.handling.done()
	snap := g.snap.Load()
	r, sub := snap.match(string(rc.Path()))
	if g.opts.Passthrough && r != nil {
		g.servePassthrough(rc, r, sub)
		g.metrics.countRequest(r.cfg.Name, rc.Response.StatusCode())
		return
	}
	if r == nil {
		r = noRoute
	}
	x := newExchange(g, rc, snap, r, sub, surfaceFor(r, sub, rc))
	err := x.run(g.base, pipeline)
	if err == nil && x.stream != nil {
		g.serveStream(rc, x)
		return
	}
	g.answer(rc, x, err)
}

// noRoute is the route of a request no configured route serves: it is answered 404 and
// recorded like any other.
var noRoute = &route{cfg: config.Route{Name: "", Surface: ""}}

// surfaceFor returns the surface that serves sub on route r.
func surfaceFor(r *route, sub string, rc *fasthttp.RequestCtx) surface {
	switch {
	case r == noRoute:
		return &unserved{}
	case r.cfg.Surface == config.SurfaceData:
		return &dataSurface{}
	case r.cfg.Surface == config.SurfaceQuery:
		return &querySurface{}
	case sub == "/chat/completions" && rc.IsPost():
		return &openaiChat{}
	case sub == "/models" && rc.IsGet():
		return &modelsList{}
	}
	return &unserved{}
}

// answer writes the exchange's audit record, then its answer — the encoded answer, or err
// in the surface's format — and counts it. With audit on_error fail_closed, a request whose
// record could not be written is refused (503) instead.
func (g *Gateway) answer(rc *fasthttp.RequestCtx, x *exchange, err error) {
	if err != nil {
		x.surface.encodeError(x, err)
		x.out.headers = append(x.out.headers, errorHeaders(err)...)
	}
	x.chargeTokens()
	rec := x.record(err)
	if aerr := g.audit.Write(rec); aerr != nil {
		g.metrics.auditErrors.Inc()
		g.log.Error("audit write failed", "decision_id", x.decisionID, "err", aerr)
		if x.snap.Config.Audit.OnError == config.OnErrorFailClosed {
			err = &Error{Kind: KindAuditUnavailable, Code: "audit_unavailable", Message: "the decision could not be recorded; the request is refused", Err: aerr}
			x.surface.encodeError(x, err)
			rec.Outcome, rec.Status = audit.OutcomeError, x.out.status
		}
	}
	x.write(rc)
	g.observe(x, rec, err)
	g.metrics.countRequest(x.route.cfg.Name, rc.Response.StatusCode())
}

// write sends the encoded answer: its status, Weir's headers (set once, by Weir), the
// upstream headers the surface kept, and the body.
func (x *exchange) write(rc *fasthttp.RequestCtx) {
	rc.Response.Reset()
	rc.SetStatusCode(x.out.status)
	for _, h := range x.out.headers {
		rc.Response.Header.Add(h.key, h.value)
	}
	if x.out.contentType != "" {
		rc.SetContentType(x.out.contentType)
	}
	intent := ""
	if x.classified {
		intent = x.class.Intent
	}
	setWeirHeaders(&rc.Response.Header, x.decisionID, intent)
	rc.SetBody(x.out.body)
}

// observe counts the decision and logs it: blocked, modified, monitored and failed
// decisions at Info, allowed ones at Debug. A log line carries codes, never request bytes,
// credentials or an upstream's words: an error's cause is logged only as its type.
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
		attrs = append(attrs, "error", codeOf(err))
	}
	g.log.Log(g.base, level, "decision", attrs...)
}

// handleReadError answers requests fasthttp could not read (too large, malformed) in the
// OpenAI format, and records them: they are refused decisions too. The read error itself
// can quote the request's bytes (headers included) and is never logged or recorded.
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
	snap := g.snap.Load()
	r, sub := snap.match(string(rc.Path()))
	if r == nil {
		r = noRoute
	}
	x := newExchange(g, rc, snap, r, sub, &unserved{})
	g.answer(rc, x, e)
}
