package gateway

import (
	"context"
	"errors"
	"io"
	"mime"
	"strconv"

	"github.com/valyala/fasthttp"

	"github.com/weirgw/weir/gateway/chat"
	"github.com/weirgw/weir/gateway/openai"
)

// openaiChat is the surface of POST /v1/chat/completions: the openai codec and the LLM
// upstream, plain and stream.
type openaiChat struct {
	req     *openai.Request
	comp    *openai.Completion
	headers []header  // the upstream's response headers the client may see
	relay   *streamer // a stream's relay, once the stream is open
}

func (s *openaiChat) decides() bool            { return true }
func (s *openaiChat) kind(*exchange) string    { return "model" }
func (s *openaiChat) decode(x *exchange) error { return s.decodeBody(x, x.rc.Request.Body()) }

func (s *openaiChat) decodeBody(x *exchange, body []byte) error {
	r, err := openai.DecodeRequest(body)
	if err != nil {
		return codecError(err, KindBadRequest)
	}
	s.req, x.req = r, r.Chat
	return nil
}

// codecError turns a codec's refusal into a request error of kind (400 for a client's
// request, 502 for an upstream's answer).
func codecError(err error, kind Kind) error {
	var ce *openai.Error
	if errors.As(err, &ce) {
		return &Error{Kind: kind, Code: ce.Code, Message: ce.Message}
	}
	return &Error{Kind: kind, Code: "invalid_request", Message: "the document could not be read", Err: err}
}

// upstream sends the narrowed request, encoded by Weir, and reads the answer: a complete
// answer goes into x.unit for the checks; a stream is opened and left to the relay.
func (s *openaiChat) upstream(ctx context.Context, x *exchange) error {
	req := fasthttp.AcquireRequest()
	defer fasthttp.ReleaseRequest(req)
	up := x.route.upstream
	up.prepare(&x.rc.Request, req, x.subPath, x.rc.RemoteIP(), chatQuery)
	req.Header.SetContentType("application/json")
	s.req.AskUsage = x.snap.limits.countsTokens(x.identity)
	req.SetBodyRaw(s.req.Encode(x.offerTool))
	s.req.Release()
	if x.req.Stream {
		req.Header.Set("Accept", "text/event-stream")
		return s.openStream(x, req)
	}
	req.Header.Set("Accept", "application/json")
	resp := fasthttp.AcquireResponse()
	defer fasthttp.ReleaseResponse(resp)
	if err := up.do(ctx, req, resp); err != nil {
		x.countUpstreamError(err)
		return err
	}
	x.upstreamStatus = resp.StatusCode()
	s.headers = keptResponseHeaders(&resp.Header, forwardedResponseHeaders, forwardedResponsePrefixes)
	// Weir asked for an uncompressed body; an upstream that compresses anyway is decoded.
	raw, err := resp.BodyUncompressedWithLimit(maxUpstreamBody)
	if err != nil {
		return &Error{Kind: KindUpstreamDown, Code: "upstream_invalid_response", Message: "the upstream answer could not be decompressed", Err: err}
	}
	if !success(x.upstreamStatus) {
		return upstreamRefused(x.upstreamStatus, raw)
	}
	if s.comp, err = openai.DecodeCompletion(raw); err != nil {
		return codecError(err, KindUpstreamDown)
	}
	x.tokens = s.comp.Usage().Tokens()
	x.unit.parts = x.unit.parts[:0]
	for _, c := range s.comp.Answer.Choices {
		x.unit.parts = append(x.unit.parts, &part{cs: x.choice(c.Index), role: c.Role, texts: c.Texts, calls: c.Calls, final: true, finish: c.Finish})
	}
	return nil
}

// success reports a 2xx status: every such answer is read and inspected.
func success(status int) bool { return status >= 200 && status < 300 }

// upstreamRefused is the error for an upstream's error answer: its status, and the type,
// code and param it gave when they are identifiers. Its message is not forwarded.
func upstreamRefused(status int, body []byte) error {
	ue := openai.DecodeUpstreamError(body)
	code := ue.Code
	if code == "" {
		code = "upstream_error"
	}
	return &Error{Kind: KindUpstreamStatus, Status: status, Type: ue.Type, Param: ue.Param, Code: code,
		Message: "the upstream answered " + strconv.Itoa(status) + " " + fasthttp.StatusMessage(status) + "; weir does not forward upstream error messages"}
}

// encode writes the judged answer: a completion encoded by Weir, or — on a stream — the
// segment's chunks.
func (s *openaiChat) encode(x *exchange) error {
	if s.relay != nil {
		return s.relay.encode(x)
	}
	choices := make([]chat.Choice, 0, len(x.unit.parts))
	for _, p := range x.unit.parts {
		p.released()
		p.cs.sent = true // a completion lists every choice
		choices = append(choices, chat.Choice{Index: p.cs.index, Role: p.role, Texts: p.out, Calls: p.forward, Finish: finishReason(p)})
	}
	x.out = output{status: fasthttp.StatusOK, contentType: "application/json", body: openai.EncodeCompletion(s.comp, choices), headers: s.headers}
	return nil
}

// finishReason is the finish_reason a part ends with: "stop" when the upstream said
// tool_calls and every call was removed.
func finishReason(p *part) string {
	if p.finish == "tool_calls" && len(p.calls) > 0 && len(p.forward) == 0 {
		return "stop"
	}
	return p.finish
}

// encodeError writes err in the OpenAI error format, with the decision id.
func (s *openaiChat) encodeError(x *exchange, err error) {
	x.out = openaiError(x, err)
	x.out.headers = s.headers
}

func openaiError(x *exchange, err error) output {
	var param string
	var e *Error
	if errors.As(err, &e) {
		param = e.Param
	}
	return output{status: statusOf(err), contentType: "application/json",
		body: openai.EncodeError(publicMessage(err), errorType(err), codeOf(err), param, x.decisionID)}
}

// openStream sends a stream: true request. A 2xx event stream is kept open in x.stream for
// the relay; any other answer is read whole: an error status is answered like a plain
// one, and a 2xx answer that is not an uncompressed event stream is refused — Weir cannot
// inspect it as a stream.
func (s *openaiChat) openStream(x *exchange, req *fasthttp.Request) error {
	resp := fasthttp.AcquireResponse()
	up := x.route.upstream
	if err := up.doStream(req, resp); err != nil {
		fasthttp.ReleaseResponse(resp)
		x.countUpstreamError(err)
		return err
	}
	x.upstreamStatus = resp.StatusCode()
	s.headers = keptResponseHeaders(&resp.Header, forwardedResponseHeaders, forwardedResponsePrefixes)
	ct, _, _ := mime.ParseMediaType(string(resp.Header.ContentType()))
	if success(x.upstreamStatus) && ct == "text/event-stream" && len(resp.Header.ContentEncoding()) == 0 {
		x.stream = resp
		return nil
	}
	defer fasthttp.ReleaseResponse(resp)
	raw, rerr := readAllStream(resp)
	if success(x.upstreamStatus) || rerr != nil {
		return &Error{Kind: KindUpstreamDown, Code: "upstream_invalid_response", Message: "the upstream did not answer stream: true with an uncompressed event stream", Err: rerr}
	}
	return upstreamRefused(x.upstreamStatus, raw)
}

func readAllStream(resp *fasthttp.Response) ([]byte, error) {
	defer func() { _ = resp.CloseBodyStream() }()
	if bs := resp.BodyStream(); bs != nil {
		return io.ReadAll(io.LimitReader(bs, maxUpstreamBody))
	}
	return append([]byte(nil), resp.Body()...), nil
}

func (x *exchange) countUpstreamError(err error) {
	kind := "down"
	if statusOf(err) == fasthttp.StatusGatewayTimeout {
		kind = "timeout"
	}
	x.g.metrics.upstreamErrors.WithLabelValues(x.route.upstream.cfg.Name, kind).Inc()
}
