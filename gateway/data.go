package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"mime"
	"strings"

	"github.com/valyala/fasthttp"
)

// dataStages is the request path of a data route: a reverse proxy in front of an existing
// data API that classifies the route's natural-language parameter and admits or denies.
var dataStages = []stage{
	{"decode", (*exchange).decodeData},    // the route's param from the query, a form or a JSON body
	{"classify", (*exchange).classify},    // → intent and filters
	{"admit", (*exchange).admit},          // request decision (403 in enforce)
	{"upstream", (*exchange).forwardData}, // forwarded with X-Weir-Intent and X-Weir-Filters
}

// serveData serves one request of a data route.
func (g *Gateway) serveData(rc *fasthttp.RequestCtx, snap *Snapshot, r *route, sub string) {
	g.serve(rc, newExchange(g, rc, snap, r, sub), dataStages)
}

// decodeData finds the text to classify: the route's parameter in the query string, a
// form body, or as the top-level string field of a JSON body. A request without it is
// classified as empty text, which gives the pack's default intent, and the policy decides.
// Weir must classify the text the data API reads, so a parameter given more than once
// (the API may read another copy) and a JSON body Weir cannot read are refused.
func (x *exchange) decodeData(context.Context) error {
	param := x.route.cfg.Param
	var found []string
	for _, v := range x.rc.QueryArgs().PeekMulti(param) {
		found = append(found, string(v))
	}
	body := x.rc.Request.Body()
	ct, _, _ := mime.ParseMediaType(string(x.rc.Request.Header.ContentType()))
	switch {
	case len(body) == 0:
	case ct == "application/x-www-form-urlencoded":
		for _, v := range x.rc.PostArgs().PeekMulti(param) {
			found = append(found, string(v))
		}
	case ct == "multipart/form-data":
		f, err := x.rc.MultipartForm()
		if err != nil {
			return errorf(KindBadRequest, "invalid_request", "the multipart/form-data body could not be read")
		}
		found = append(found, f.Value[param]...)
	case ct == "application/json" || strings.HasSuffix(ct, "+json") || bytes.HasPrefix(bytes.TrimSpace(body), []byte("{")):
		v, err := jsonParam(body, param)
		if err != nil {
			return err
		}
		found = append(found, v...)
	}
	switch len(found) {
	case 0:
		return nil
	case 1:
		x.text = found[0]
		return nil
	default:
		return errorf(KindBadRequest, "ambiguous_parameter", "%s is given %d times; give it once, so that the text weir classifies is the text the data API reads", param, len(found))
	}
}

// jsonParam returns the top-level string field param of a JSON body (none when the body
// is not an object or lacks it).
func jsonParam(body []byte, param string) ([]string, error) {
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(body, &doc); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return nil, nil // valid JSON, not an object
		}
		return nil, errorf(KindBadRequest, "invalid_json", "%s", bodyProblem(body, err))
	}
	raw, ok := doc[param]
	if !ok {
		return nil, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, errorf(KindBadRequest, "invalid_request", "%s must be a string", param)
	}
	return []string{s}, nil
}

// forwardData proxies the request unchanged but for the Weir headers and passes the answer
// through.
func (x *exchange) forwardData(ctx context.Context) error {
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
	if err := up.do(ctx, req, resp); err != nil {
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
