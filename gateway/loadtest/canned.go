package loadtest

import (
	"bytes"
	"net"
	"time"

	"github.com/valyala/fasthttp"
)

// UpstreamHeader marks every answer of the canned upstream. The harness checks that the
// gateway's answers carry it, so a config whose upstream is not the canned server (a real
// model, billed per token) is refused before any load is sent.
const UpstreamHeader = "X-Weir-Bench-Upstream"

// canned is an OpenAI-compatible upstream that answers at once with pre-encoded bodies: the
// cheapest possible model, so the numbers measure the proxy and not the model. It does not
// parse requests; the answer is chosen by the AnswerHeader request header.
type canned struct {
	answers map[string][]byte
	models  []byte
}

func newCanned() *canned {
	return &canned{
		answers: cannedAnswers(),
		models:  []byte(`{"object":"list","data":[{"id":"gpt-4o-mini","object":"model","created":1767225600,"owned_by":"weir-bench"}]}`),
	}
}

func (c *canned) handle(rc *fasthttp.RequestCtx) {
	rc.Response.Header.Set(UpstreamHeader, "canned")
	path := rc.Path()
	switch {
	case rc.IsGet() && bytes.HasSuffix(path, []byte("/models")):
		rc.SetContentType("application/json")
		rc.SetBody(c.models)
	case rc.IsPost() && bytes.HasSuffix(path, []byte("/chat/completions")):
		name := rc.Request.Header.Peek(AnswerHeader)
		body, ok := c.answers[string(name)]
		switch {
		case !ok:
			rc.SetStatusCode(fasthttp.StatusBadRequest)
			rc.SetContentType("application/json")
			rc.SetBodyString(`{"error":{"message":"the canned upstream has no answer named in ` + AnswerHeader + `","type":"invalid_request_error"}}`)
		case string(name) == "stream":
			rc.SetContentType("text/event-stream")
			rc.SetBody(body)
		default:
			rc.SetContentType("application/json")
			rc.SetBody(body)
		}
	default:
		rc.SetStatusCode(fasthttp.StatusNotFound)
		rc.SetContentType("application/json")
		rc.SetBodyString(`{"error":{"message":"the canned upstream serves POST /v1/chat/completions and GET /v1/models","type":"not_found"}}`)
	}
}

// serveCanned serves the canned upstream on ln until the server is shut down.
func serveCanned(ln net.Listener) *fasthttp.Server {
	srv := &fasthttp.Server{
		Name:                  "weir-bench-upstream",
		Handler:               newCanned().handle,
		ReadTimeout:           time.Minute,
		IdleTimeout:           time.Minute,
		NoDefaultServerHeader: true,
	}
	go func() { _ = srv.Serve(ln) }() // returns when Shutdown closes ln
	return srv
}
