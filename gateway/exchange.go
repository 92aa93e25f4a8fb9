package gateway

import (
	"context"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/weirgw/weir/gateway/audit"
	"github.com/weirgw/weir/gateway/config"
	"github.com/weirgw/weir/gateway/query"
	"github.com/weirgw/weir/policies"
	"github.com/weirgw/weir/policies/grounding"
	"github.com/weirgw/weir/rules"
)

// exchange is the state of one request as it moves through the stages. It lives for the
// handler call only: nothing of the fasthttp.RequestCtx is kept after it returns.
type exchange struct {
	g       *Gateway
	rc      *fasthttp.RequestCtx
	snap    *Snapshot
	route   *route
	subPath string

	decisionID, requestID string
	start                 time.Time
	latency               []stageTime
	latencyBuf            [8]stageTime // latency's first backing array: no growth per stage

	req          *chatRequest // nil on the data surface
	text         string
	subject      string
	classified   bool
	class        rules.Classification
	mode         string
	input        policies.Input
	admission    policies.RequestDecision
	removedTools []string
	index        *grounding.Index

	upstreamStatus int
	upstreamBody   []byte                  // the upstream's answer: upstreamResp's body when that is set
	upstreamHeader fasthttp.ResponseHeader // the upstream's headers when upstreamResp is nil
	upstreamResp   *fasthttp.Response      // forward's answer, read in place until release
	resp           *chatResponse
	stream         *fasthttp.Response // stream: true: the open upstream event stream (stream.go)

	violations []policies.Violation
	outcome    string
	body       []byte // the body sent to the client on success

	// The query surface (query.go): the request, the engine's answer or error, and whether
	// a model-written answer was rewritten.
	qreq     *query.Request
	qresp    *query.Response
	qmd      *query.Metadata
	qerr     *query.Error
	modified bool

	rec audit.Record // the audit record (record)
}

func newExchange(g *Gateway, rc *fasthttp.RequestCtx, snap *Snapshot, r *route, sub string) *exchange {
	x := &exchange{g: g, rc: rc, snap: snap, route: r, subPath: sub, start: time.Now(), decisionID: newDecisionID()}
	x.latency = x.latencyBuf[:0]
	if id := rc.Request.Header.Peek("X-Request-Id"); len(id) > 0 && len(id) <= 128 && printable(id) {
		x.requestID = string(id)
	}
	return x
}

// release returns what the exchange borrowed from pools. It is called when the handler
// is done with the exchange: answered, audited and counted.
func (x *exchange) release() {
	if x.upstreamResp != nil {
		fasthttp.ReleaseResponse(x.upstreamResp)
		x.upstreamResp, x.upstreamBody, x.body, x.resp = nil, nil, nil, nil
	}
}

// responseHeader returns the upstream's answer's headers.
func (x *exchange) responseHeader() *fasthttp.ResponseHeader {
	if x.upstreamResp != nil {
		return &x.upstreamResp.Header
	}
	return &x.upstreamHeader
}

func printable(b []byte) bool {
	for _, c := range b {
		if c < 0x21 || c > 0x7e {
			return false
		}
	}
	return true
}

// decode reads the chat request. A stream: true request reaches it only on the stream
// path (serveStream), which inspects the stream as it relays it.
func (x *exchange) decode(context.Context) error {
	req, err := decodeChatRequest(x.rc.Request.Body())
	if err != nil {
		return err
	}
	x.req = req
	x.text = req.lastUserText()
	x.subject = req.User
	return nil
}

func (x *exchange) classify(ctx context.Context) error {
	x.class = x.snap.Classifier.Classify(ctx, x.text)
	x.classified = true
	x.mode = x.route.cfg.ModeFor(x.class.Intent)
	x.g.metrics.countClassification(string(x.class.Source))
	x.input = policies.Input{
		Subject: policies.Subject{ID: x.subject},
		Route:   policies.Route{Name: x.route.cfg.Name, Surface: x.route.cfg.Surface},
		Classification: policies.Classification{
			Intent: x.class.Intent, Confidence: x.class.Confidence, Source: string(x.class.Source),
			Rules: x.class.RuleIDs(), Filters: x.class.Filters,
		},
		ToolsCalled: []string{},
	}
	if x.req != nil {
		x.input.ToolsCalled = x.req.toolsCalled()
	}
	return nil
}

func (x *exchange) monitor() bool { return x.mode == config.ModeMonitor }

// policyFailed turns a decision error into a fail-closed error (enforce) or a recorded
// policy_error violation (monitor).
func (x *exchange) policyFailed(err error) error {
	x.violations = append(x.violations, policies.Violation{Code: policies.CodePolicyError, Message: "policy evaluation failed"})
	if x.monitor() {
		return nil
	}
	return &Error{Kind: KindPolicy, Code: policies.CodePolicyError, Message: "policy evaluation failed; the request is denied", Err: err}
}

// admit evaluates the request decision and narrows the tools offered to the model.
func (x *exchange) admit(ctx context.Context) error {
	d, err := x.snap.Bundle.Request(ctx, &x.input)
	if err != nil {
		return x.policyFailed(err)
	}
	x.admission = d
	x.violations = append(x.violations, d.Violations...)
	if !d.Allow && !x.monitor() {
		v := first(d.Violations, "request_denied")
		return &Error{Kind: KindNotAdmitted, Code: v.Code, Message: v.Message}
	}
	if x.req == nil {
		return nil // the data surface offers no tools
	}
	if x.monitor() {
		// Record what would have been removed; forward unchanged.
		_, x.removedTools = x.req.offeredTools(d.Obligations.AllowedTools)
		return nil
	}
	x.removedTools = x.req.narrowTools(d.Obligations.AllowedTools)
	return nil
}

func first(vs []policies.Violation, fallback string) policies.Violation {
	if len(vs) > 0 {
		return vs[0]
	}
	return policies.Violation{Code: fallback, Message: "denied by policy"}
}
