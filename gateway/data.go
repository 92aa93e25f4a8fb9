package gateway

import (
	"context"
	"encoding/json"

	"github.com/valyala/fasthttp"
)

// dataStages is the request path of a data route: a reverse proxy in front of an existing
// data API that classifies the route's natural-language parameter and admits or denies.
var dataStages = []stage{
	{"decode", (*exchange).decodeData},    // the route's param from the query or a JSON body field
	{"classify", (*exchange).classify},    // → intent and filters
	{"admit", (*exchange).admit},          // request decision (403 in enforce)
	{"upstream", (*exchange).forwardData}, // forwarded with X-Weir-Intent and X-Weir-Filters
}

// serveData serves one request of a data route.
func (g *Gateway) serveData(rc *fasthttp.RequestCtx, snap *Snapshot, r *route, sub string) {
	g.serve(rc, newExchange(g, rc, snap, r, sub), dataStages)
}

// decodeData finds the text to classify: the query parameter named by the route, else the
// top-level string field of that name in a JSON body. A request without it is classified
// as empty text, which gives the pack's default intent, and the policy decides.
func (x *exchange) decodeData(context.Context) error {
	param := x.route.cfg.Param
	if v := x.rc.QueryArgs().Peek(param); len(v) > 0 {
		x.text = string(v)
		return nil
	}
	body := x.rc.Request.Body()
	if len(body) == 0 || !json.Valid(body) {
		return nil
	}
	var doc map[string]json.RawMessage
	if json.Unmarshal(body, &doc) != nil {
		return nil
	}
	if raw, ok := doc[param]; ok {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return errorf(KindBadRequest, "invalid_request", "%s must be a string", param)
		}
		x.text = s
	}
	return nil
}

// forwardData proxies the request unchanged but for the Weir headers and passes the answer
// through.
func (x *exchange) forwardData(context.Context) error {
	req := fasthttp.AcquireRequest()
	resp := fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(resp)
	up := x.route.upstream
	up.prepare(&x.rc.Request, req, x.subPath, x.rc.RemoteIP())
	req.SetBody(x.rc.Request.Body())
	filters, err := json.Marshal(x.class.Filters)
	if err != nil {
		filters = []byte("{}")
	}
	req.Header.Set("X-Weir-Intent", x.class.Intent)
	req.Header.SetBytesV("X-Weir-Filters", filters)
	req.Header.Set("X-Weir-Decision-Id", x.decisionID)
	if err := up.do(req, resp); err != nil {
		x.countUpstreamError(err)
		return err
	}
	x.upstreamStatus = resp.StatusCode()
	raw, err := resp.BodyUncompressedWithLimit(maxUpstreamBody)
	if err != nil {
		return &Error{Kind: KindUpstreamDown, Code: "upstream_invalid_response", Message: "the upstream answer could not be decompressed", Err: err}
	}
	x.body = append([]byte(nil), raw...)
	resp.Header.Del("Content-Encoding")
	resp.Header.CopyTo(&x.upstreamHeader)
	x.violations = mergeViolations(x.violations)
	x.outcome = outcomeFor(len(x.violations) > 0, x.monitor(), false)
	return nil
}
