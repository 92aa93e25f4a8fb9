package gateway

import (
	"context"
	"net/netip"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/weirgw/weir/gateway/auth"
	"github.com/weirgw/weir/gateway/chat"
	"github.com/weirgw/weir/gateway/config"
	"github.com/weirgw/weir/policies"
	"github.com/weirgw/weir/policies/grounding"
	"github.com/weirgw/weir/rules"
)

// exchange is the protocol-neutral state of one request as it moves through the pipeline.
// The surface's codec fills its request side (decode) and reads its judged answer (encode);
// the stages between read and write only these fields. It lives for the handler call — and
// for a stream, until the relay ends: nothing of the fasthttp.RequestCtx is kept after the
// handler returns (rc is set to nil before the relay starts).
type exchange struct {
	g       *Gateway
	rc      *fasthttp.RequestCtx
	snap    *Snapshot
	route   *route
	surface surface
	subPath string

	decisionID, requestID string
	start                 time.Time
	latency               []stageTime
	latencyBuf            [12]stageTime // latency's first backing array: no growth per stage

	// identify: the verified caller, and the pack and bundle that serve it (policyset.go)
	identity auth.Identity
	subject  policies.Subject
	pol      *policySet
	peer     netip.Addr // the address the request came from
	// limit, and the tokens the answer used (charged after it: limit.go)
	tokens int64
	// decode: the request as the codec read it
	req chat.Request
	// classify, admit
	classified   bool
	class        rules.Classification
	mode         string
	input        policies.Input
	admission    policies.RequestDecision
	admitted     bool
	removedTools []string
	// route: how the request is served (audit: route_kind)
	routeKind string
	// upstream
	upstreamStatus int
	stream         *fasthttp.Response // stream: the open upstream event stream (stream.go)
	// the checks: what the upstream produced and is not judged yet, and the verdicts
	unit       unit
	choices    []*choiceState // per choice of the answer, by order of appearance
	calls      []callVerdict  // every proposed or run call with its verdict, in order
	violations []policies.Violation
	modified   bool
	ungated    bool // a stream whose texts go on as they come (stream.go: gated)
	index      *grounding.Index
	// encode: what the client gets
	out output

	q *queryState // the query surface's request and answer (query.go)
}

// output is the answer a surface encoded.
type output struct {
	status      int
	contentType string
	body        []byte
	headers     []header // upstream headers the client may see (headers.go)
}

func newExchange(g *Gateway, rc *fasthttp.RequestCtx, snap *Snapshot, r *route, sub string, s surface) *exchange {
	x := &exchange{g: g, rc: rc, snap: snap, route: r, subPath: sub, surface: s, start: time.Now(), decisionID: newDecisionID()}
	x.latency = x.latencyBuf[:0]
	x.identity, x.subject, x.peer = auth.Anonymous, policies.Subject{Roles: []string{}, AuthMethod: auth.MethodNone}, addrOf(rc)
	x.pol = r.setFor("")
	if x.pol == nil {
		x.pol = snap.top // the unserved route of unknown paths
	}
	if id := rc.Request.Header.Peek("X-Request-Id"); len(id) > 0 && len(id) <= 128 && printable(id) {
		x.requestID = string(id)
	}
	return x
}

func printable(b []byte) bool {
	for _, c := range b {
		if c < 0x21 || c > 0x7e {
			return false
		}
	}
	return true
}

func (x *exchange) monitor() bool { return x.mode == config.ModeMonitor }

func (x *exchange) rewrite() bool { return x.route.cfg.OnViolation == config.OnViolationRewrite }

// decode is the surface's codec reading the request.
func (x *exchange) decode(context.Context) error { return x.surface.decode(x) }

// upstream is the surface calling what the route routes to.
func (x *exchange) upstream(ctx context.Context) error { return x.surface.upstream(ctx, x) }

// encodeAnswer is the surface's codec writing the judged answer.
func (x *exchange) encodeAnswer(context.Context) error { return x.surface.encode(x) }

// chooseRoute names how the request is served: the surface decides (a query route's intent picks
// data, a model, both or the agent loop inside the engine, which reports it).
func (x *exchange) chooseRoute(context.Context) error {
	x.routeKind = x.surface.kind(x)
	return nil
}

// surface is a route's codec and upstream: it translates its wire format into the exchange
// and back, and calls what the route routes to. It owns nothing else: the checks are the
// pipeline's.
type surface interface {
	// decode reads the request into the exchange: the question, the conversation, the
	// offered tools, the end user.
	decode(x *exchange) error
	// decides reports whether the request is classified and admitted (a models list, which
	// carries no question, is not).
	decides() bool
	// kind names the route kind the audit record carries.
	kind(x *exchange) string
	// upstream calls the model, the data API or Weir's own engine, and leaves what it
	// produced in x.unit for the checks.
	upstream(ctx context.Context, x *exchange) error
	// encode writes x's judged answer into x.out.
	encode(x *exchange) error
	// encodeError writes err in the surface's error format into x.out.
	encodeError(x *exchange, err error)
}
