package gateway

import (
	"context"

	"github.com/valyala/fasthttp"

	"github.com/weirgw/weir/gateway/openai"
)

// modelsList is the surface of GET /v1/models: the upstream's list, read and re-encoded by
// Weir. It carries no question, so it is neither classified nor admitted; it is recorded.
type modelsList struct {
	headers []header
}

func (m *modelsList) decode(*exchange) error { return nil }
func (m *modelsList) decides() bool          { return false }
func (m *modelsList) kind(*exchange) string  { return "models" }

func (m *modelsList) upstream(ctx context.Context, x *exchange) error {
	req := fasthttp.AcquireRequest()
	resp := fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(resp)
	up := x.route.upstream
	up.prepare(&x.rc.Request, req, x.subPath, x.rc.RemoteIP(), chatQuery)
	req.Header.Set("Accept", "application/json")
	if err := up.do(ctx, req, resp); err != nil {
		x.countUpstreamError(err)
		return err
	}
	x.upstreamStatus = resp.StatusCode()
	m.headers = keptResponseHeaders(&resp.Header, forwardedResponseHeaders, forwardedResponsePrefixes)
	raw, err := resp.BodyUncompressedWithLimit(maxUpstreamBody)
	if err != nil {
		return &Error{Kind: KindUpstreamDown, Code: "upstream_invalid_response", Message: "the upstream answer could not be decompressed", Err: err}
	}
	if !success(x.upstreamStatus) {
		return upstreamRefused(x.upstreamStatus, raw)
	}
	body, err := openai.EncodeModels(raw)
	if err != nil {
		return codecError(err, KindUpstreamDown)
	}
	x.out = output{status: fasthttp.StatusOK, contentType: "application/json", body: body, headers: m.headers}
	return nil
}

func (m *modelsList) encode(*exchange) error { return nil } // upstream encoded the list

func (m *modelsList) encodeError(x *exchange, err error) {
	x.out = openaiError(x, err)
	x.out.headers = m.headers
}

// unserved is the surface of a request no route or endpoint serves, and of a request
// fasthttp could not read: answered with an error in the OpenAI format, and recorded.
type unserved struct{}

func (unserved) decode(x *exchange) error {
	return errorf(KindNotFound, "not_found", "%s %s is not served by weir", x.rc.Method(), x.rc.Path())
}
func (unserved) decides() bool                             { return false }
func (unserved) kind(*exchange) string                     { return "" }
func (unserved) upstream(context.Context, *exchange) error { return nil }
func (unserved) encode(*exchange) error                    { return nil }
func (unserved) encodeError(x *exchange, err error)        { x.out = openaiError(x, err) }
