package gateway

import (
	"io"

	"github.com/valyala/fasthttp"

	"github.com/weirgw/weir/gateway/internal/strictjson"
)

// servePassthrough forwards a request to its route's upstream and relays the answer with
// every stage, the audit record and the decision log off: one bare proxy hop through the
// same listener, upstream clients and header handling (prepare, stripHop) as the gateway.
// Options.Passthrough turns it on; the load harness (cmd/weir/loadtest) measures the full
// gateway against it, so the difference is exactly what the stages cost.
func (g *Gateway) servePassthrough(rc *fasthttp.RequestCtx, r *route, sub string) {
	if r.upstream == nil { // a query route answers from data: there is nothing to pass to
		rc.SetStatusCode(fasthttp.StatusNotFound)
		return
	}
	req := fasthttp.AcquireRequest()
	defer fasthttp.ReleaseRequest(req)
	resp := fasthttp.AcquireResponse()
	r.upstream.prepare(&rc.Request, req, sub, rc.RemoteIP(), func([]byte) bool { return true })
	req.Header.SetContentTypeBytes(rc.Request.Header.ContentType())
	req.SetBody(rc.Request.Body())
	var err error
	if streamRequested(rc.Request.Body()) {
		err = r.upstream.doStream(req, resp)
	} else {
		err = r.upstream.do(g.base, req, resp)
	}
	if err != nil {
		fasthttp.ReleaseResponse(resp)
		rc.SetStatusCode(statusOf(err))
		return
	}
	resp.Header.CopyTo(&rc.Response.Header)
	rc.Response.Header.Del("Content-Length")
	rc.Response.Header.Del("Server")
	rc.SetStatusCode(resp.StatusCode())
	if bs := resp.BodyStream(); bs != nil {
		// Relayed as it arrives; fasthttp closes the relay after writing it, which
		// releases the upstream response and its connection.
		rc.SetBodyStream(relayedBody{bs, resp}, resp.Header.ContentLength())
		return
	}
	rc.SetBody(resp.Body())
	fasthttp.ReleaseResponse(resp)
}

// relayedBody is an upstream response body streamed to the client.
type relayedBody struct {
	io.Reader
	resp *fasthttp.Response
}

func (b relayedBody) Close() error {
	err := b.resp.CloseBodyStream()
	fasthttp.ReleaseResponse(b.resp)
	return err
}

// streamRequested reports whether a chat request body asks for stream: true.
func streamRequested(body []byte) bool {
	d, err := strictjson.Parse(body)
	return err == nil && d.Root().Get("stream").Bool()
}
