package gateway

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net"
	"strings"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/weirgw/weir/gateway/audit"
	"github.com/weirgw/weir/gateway/config"
	"github.com/weirgw/weir/policies"
	"github.com/weirgw/weir/policies/grounding"
)

// streamWriteTimeout bounds one write to the client. The server's WriteTimeout is set once
// per response and would cut a long stream; the stream renews this deadline before every
// event instead.
const streamWriteTimeout = 2 * time.Minute

// errClientGone marks a failed write to the client: the stream is abandoned, the upstream
// closed, and nothing more is written.
var errClientGone = &Error{Kind: KindBadRequest, Code: "client_closed", Message: "the client closed the stream"}

// errShuttingDown ends the streams still running when the shutdown's grace period is over.
var errShuttingDown = &Error{Kind: KindNotReady, Code: "shutting_down", Message: "the gateway is shutting down; the stream was ended"}

// wantsStream reports whether a chat request body asks for stream: true. A body that does
// not decode goes the plain path, whose decode stage reports the problem.
func wantsStream(body []byte) bool {
	if !bytes.Contains(body, []byte(`"stream"`)) {
		return false
	}
	var r struct {
		Stream bool `json:"stream"`
	}
	return json.Unmarshal(body, &r) == nil && r.Stream
}

// serveStream runs the stream stages; when the upstream opened a stream, the response is
// an SSE body relayed (and inspected) by a streamer after the handler returns. Anything
// else (a refusal, an upstream error status) is answered like a plain request.
func (g *Gateway) serveStream(rc *fasthttp.RequestCtx, x *exchange) {
	err := x.runStages(g.base, streamStages)
	if err != nil || x.stream == nil {
		g.answer(rc, x, err)
		return
	}
	x.stream.Header.CopyTo(&rc.Response.Header)
	for _, h := range []string{"Content-Length", "Content-Encoding", "Server"} {
		rc.Response.Header.Del(h)
	}
	rc.SetStatusCode(fasthttp.StatusOK)
	rc.SetContentType("text/event-stream; charset=utf-8")
	rc.Response.Header.Set("Cache-Control", "no-cache")
	rc.Response.Header.Set("X-Accel-Buffering", "no")
	setWeirHeaders(rc, x.decisionID, x.class.Intent)
	s := newStreamer(g.base, x, rc.Conn())
	x.rc = nil // the stream writer runs after the handler returns: it must not see rc
	// fasthttp starts the writer at once, whatever becomes of the response; relay calls Done.
	g.streams.Add(1)
	rc.SetBodyStreamWriter(s.relay)
}

// openStream sends the request with stream: true. A 200 event stream is kept open in
// x.stream; any other answer is read whole and passed on like a plain error answer.
func (x *exchange) openStream(context.Context) error {
	body, err := x.req.encode()
	if err != nil {
		return &Error{Kind: KindInternal, Code: "internal_error", Message: "could not encode the request", Err: err}
	}
	req := fasthttp.AcquireRequest()
	defer fasthttp.ReleaseRequest(req)
	resp := fasthttp.AcquireResponse()
	up := x.route.upstream
	up.prepare(&x.rc.Request, req, x.subPath, x.rc.RemoteIP())
	req.SetBody(body)
	if err := up.doStream(req, resp); err != nil {
		fasthttp.ReleaseResponse(resp)
		x.countUpstreamError(err)
		return err
	}
	x.upstreamStatus = resp.StatusCode()
	ct, _, _ := mime.ParseMediaType(string(resp.Header.ContentType()))
	if x.upstreamStatus == fasthttp.StatusOK && ct == "text/event-stream" && len(resp.Header.ContentEncoding()) == 0 {
		x.stream = resp
		return nil
	}
	defer fasthttp.ReleaseResponse(resp)
	raw, rerr := readAllStream(resp)
	if x.upstreamStatus == fasthttp.StatusOK || rerr != nil {
		// An answer Weir cannot inspect as a stream is never forwarded.
		return &Error{Kind: KindUpstreamDown, Code: "upstream_invalid_response", Message: "the upstream did not answer stream: true with an uncompressed event stream", Err: rerr}
	}
	x.upstreamBody, x.body = raw, raw
	resp.Header.CopyTo(&x.upstreamHeader)
	x.outcome = outcomeFor(len(x.violations) > 0, x.monitor(), false)
	return nil
}

func readAllStream(resp *fasthttp.Response) ([]byte, error) {
	defer resp.CloseBodyStream()
	if bs := resp.BodyStream(); bs != nil {
		return io.ReadAll(io.LimitReader(bs, maxUpstreamBody))
	}
	return append([]byte(nil), resp.Body()...), nil
}

// streamer relays one upstream event stream to the client, inspecting it on the way.
type streamer struct {
	ctx    context.Context
	x      *exchange
	conn   net.Conn // only for write deadlines
	w      *bufio.Writer
	parser sseParser
	meta   map[string]json.RawMessage // id, model, created… of the upstream's chunks
	// chunkTail is Weir's own chunks after their choices, encoded from meta at the
	// first (contentChunk); meta is set by the first chunk, before anything is released.
	chunkTail []byte
	choices   map[int]*streamChoice
	order     []int
	gated     bool // text is released sentence by sentence after its check
	opts      grounding.Options

	modified             bool
	inspectDur, validDur time.Duration
}

func newStreamer(ctx context.Context, x *exchange, conn net.Conn) *streamer {
	ob := x.admission.Obligations
	return &streamer{
		ctx: ctx, x: x, conn: conn, choices: map[int]*streamChoice{},
		gated: !x.monitor() && (ob.BlockNumericGeneration || ob.RequireToolCall),
		opts:  policies.GroundingOptions(ob),
	}
}

// relay is the response's body writer: it pumps the upstream stream through the
// inspection, then audits and ends the stream.
func (s *streamer) relay(w *bufio.Writer) {
	defer s.x.g.streams.Done()
	s.w = w
	start := time.Now()
	// At shutdown (s.ctx ends) the upstream read is aborted, so that the stream ends, is
	// recorded and cancels the generation before the audit trail closes.
	up, laddr := s.x.route.upstream, s.x.stream.LocalAddr()
	stop := context.AfterFunc(s.ctx, func() { up.abortStream(laddr) })
	err := s.pump()
	stop()
	// What was released before the end goes out before the audit record is written.
	if ferr := s.flush(); ferr != nil && err == nil {
		err = ferr
	}
	// Closing the body before it was read to the end closes the upstream connection,
	// which is how an abandoned generation is cancelled.
	s.x.stream.CloseBodyStream()
	fasthttp.ReleaseResponse(s.x.stream)
	s.x.stream = nil
	s.x.latency = append(s.x.latency, stageTime{"stream", time.Since(start)},
		stageTime{"inspect", s.inspectDur}, stageTime{"validate", s.validDur})
	for _, st := range s.x.latency[len(s.x.latency)-3:] {
		s.x.g.metrics.observeStage(st.name, st.d)
	}
	s.end(err)
}

// end writes the audit record and finishes the SSE body: an error event when the stream
// failed or was blocked, then [DONE].
func (s *streamer) end(err error) {
	x, g := s.x, s.x.g
	x.violations = mergeViolations(x.violations)
	x.outcome = outcomeFor(len(x.violations) > 0, x.monitor(), s.modified)
	x.resp = &chatResponse{}
	for _, i := range s.order {
		st := s.choices[i]
		st.c.content = st.released.String()
		x.resp.choices = append(x.resp.choices, st.c)
	}
	rec := x.record(err)
	rec.Status = fasthttp.StatusOK // the status the client got; the error event carries the rest
	if aerr := g.audit.Write(rec); aerr != nil {
		g.metrics.auditErrors.Inc()
		g.log.Error("audit write failed", "decision_id", x.decisionID, "err", aerr)
		if err == nil && x.snap.Config.Audit.OnError == config.OnErrorFailClosed {
			err = &Error{Kind: KindAuditUnavailable, Code: "audit_unavailable", Message: "the decision could not be recorded; the stream is ended", Err: aerr}
			rec.Outcome = audit.OutcomeError
		}
	}
	g.observe(x, rec, err)
	end := streamEnd(err)
	g.metrics.streamEnds(x.route.cfg.Name, end).Inc()
	if end == "client_closed" {
		return
	}
	if err != nil {
		var b errorBody
		b.Error.Message, b.Error.Type, b.Error.Code, b.Error.DecisionID = publicMessage(err), errorType(err), codeOf(err), x.decisionID
		data, _ := json.Marshal(&b)
		if s.write(data) != nil {
			return
		}
	}
	if s.write([]byte("[DONE]")) == nil {
		_ = s.flush()
	}
}

// streamEnd names how a stream ended, for weir_stream_ends_total.
func streamEnd(err error) string {
	var e *Error
	switch {
	case err == nil:
		return "done"
	case errors.Is(err, errClientGone):
		return "client_closed"
	case errors.As(err, &e) && (e.Kind == KindToolBlocked || e.Kind == KindAnswerRejected):
		return "blocked"
	case errors.As(err, &e) && (e.Kind == KindUpstreamDown || e.Kind == KindUpstreamTimeout):
		return "upstream_error"
	default:
		return "error"
	}
}

// pump reads the upstream body and handles its events until [DONE], the end of the body,
// or an error.
func (s *streamer) pump() error {
	body := s.x.stream.BodyStream()
	if body == nil {
		body = bytes.NewReader(s.x.stream.Body())
	}
	buf := make([]byte, 16<<10)
	total := 0
	for {
		n, rerr := body.Read(buf)
		if total += n; total > maxUpstreamBody {
			return upstreamBroken("the upstream stream is larger than the gateway accepts", nil)
		}
		if n > 0 {
			evs, perr := s.parser.feed(buf[:n])
			if done, err := s.events(evs); done || err != nil {
				return err
			}
			// What the read's events released goes out before the next read, which may
			// wait on the upstream: one flush (one chunk to the client) per read, not
			// per event.
			if err := s.flush(); err != nil {
				return err
			}
			if perr != nil {
				return upstreamBroken("the upstream stream is malformed", perr)
			}
		}
		switch {
		case errors.Is(rerr, io.EOF):
			evs, perr := s.parser.end()
			if done, err := s.events(evs); done || err != nil {
				return err
			}
			if perr != nil {
				return upstreamBroken("the upstream stream is malformed", perr)
			}
			// A stream may lack [DONE]; one whose choices did not all finish was cut
			// (an upstream dying between two chunks looks like a clean end of body).
			if !s.allFinished() {
				return upstreamBroken("the upstream stream ended before the answer was complete", io.ErrUnexpectedEOF)
			}
			return nil
		case rerr != nil && s.ctx.Err() != nil:
			return errShuttingDown
		case rerr != nil:
			err := s.x.route.upstream.transportError(rerr)
			s.x.countUpstreamError(err)
			return upstreamBroken("the upstream failed mid-stream: "+publicMessage(err), rerr)
		}
	}
}

// events handles parsed events; done reports [DONE].
func (s *streamer) events(evs []sseEvent) (done bool, err error) {
	for _, ev := range evs {
		switch {
		case ev.name == "error":
			return true, upstreamBroken("the upstream reported an error mid-stream", errors.New(ev.data))
		case strings.TrimSpace(ev.data) == "[DONE]":
			return true, s.finishAll()
		}
		if err := s.chunk([]byte(ev.data)); err != nil {
			return true, err
		}
	}
	return false, nil
}

func (s *streamer) allFinished() bool {
	for _, st := range s.choices {
		if !st.finished {
			return false
		}
	}
	return len(s.choices) > 0
}

func upstreamBroken(msg string, cause error) error {
	return &Error{Kind: KindUpstreamDown, Code: "upstream_error", Message: msg, Err: cause}
}

// write buffers one data event; flush sends it. The buffer is flushed on its own when
// it fills, so the write deadline is renewed before a write as well as before a flush.
func (s *streamer) write(data []byte) error {
	if bytes.ContainsAny(data, "\r\n") {
		var b bytes.Buffer
		if json.Compact(&b, data) == nil {
			data = b.Bytes()
		}
	}
	if s.w.Available() < len(data)+8 {
		s.renewDeadline()
	}
	if err := writeSSE(s.w, data); err != nil {
		return errClientGone
	}
	return nil
}

// flush sends the buffered events to the client, renewing the connection's write deadline
// first.
func (s *streamer) flush() error {
	if s.w.Buffered() == 0 {
		return nil
	}
	s.renewDeadline()
	if s.w.Flush() != nil {
		return errClientGone
	}
	return nil
}

func (s *streamer) renewDeadline() {
	if s.conn != nil {
		_ = s.conn.SetWriteDeadline(time.Now().Add(streamWriteTimeout))
	}
}
