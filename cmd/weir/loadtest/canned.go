package loadtest

import (
	"bytes"
	"net"
	"time"

	"github.com/valyala/fasthttp"
)

// UpstreamHeader and UpstreamMark mark every answer of the canned upstream: a header both
// the gateway (its response allowlist keeps an upstream's request id) and the passthrough
// forward. The harness checks that the answers carry it, so a config whose upstream is not
// the canned server (a real model, billed per token) is refused before any load is sent.
const (
	UpstreamHeader = "X-Request-Id"
	UpstreamMark   = "weir-bench-canned"
)

// canned is an OpenAI-compatible upstream that answers at once with pre-encoded bodies: the
// cheapest possible model, so the numbers measure the proxy and not the model. It does not
// parse requests; the answer is named in the request's user field (answerName).
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
	rc.Response.Header.Set(UpstreamHeader, UpstreamMark)
	path := rc.Path()
	switch {
	case rc.IsGet() && bytes.HasSuffix(path, []byte("/models")):
		rc.SetContentType("application/json")
		rc.SetBody(c.models)
	case rc.IsPost() && bytes.HasSuffix(path, []byte("/chat/completions")):
		name := answerName(rc.PostBody())
		body, ok := c.answers[name]
		switch {
		case !ok:
			rc.SetStatusCode(fasthttp.StatusBadRequest)
			rc.SetContentType("application/json")
			rc.SetBodyString(`{"error":{"message":"the canned upstream has no answer named in the request's user field","type":"invalid_request_error"}}`)
		case name == "stream":
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

// answerPrefix starts the user field of the harness's requests; the answer's name follows.
const answerPrefix = `"user":"` + answerUser

// answerUser is the user the harness's requests name, before the answer's name.
const answerUser = "weir-bench:"

// answerName returns the answer a request names: the rest of its user field after
// answerUser, "" when it names none (the fallback classifier's question).
func answerName(body []byte) string {
	i := bytes.Index(body, []byte(answerPrefix))
	if i < 0 {
		return ""
	}
	rest := body[i+len(answerPrefix):]
	j := bytes.IndexByte(rest, '"')
	if j < 0 {
		return ""
	}
	return string(rest[:j])
}
