package gateway

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"sync"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/weirgw/weir/gateway/audit"
	"github.com/weirgw/weir/gateway/config"
	"github.com/weirgw/weir/gateway/openai"
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

// serveStream answers a request whose upstream opened a stream: the response is an SSE
// body that the relay writes after the handler returns, running the pipeline's segment
// stages on every released segment.
func (g *Gateway) serveStream(rc *fasthttp.RequestCtx, x *exchange) {
	s := x.surface.(*openaiChat)
	rc.SetStatusCode(fasthttp.StatusOK)
	rc.SetContentType("text/event-stream; charset=utf-8")
	rc.Response.Header.Set("Cache-Control", "no-cache")
	rc.Response.Header.Set("X-Accel-Buffering", "no")
	for _, h := range s.headers {
		rc.Response.Header.Add(h.key, h.value)
	}
	setWeirHeaders(&rc.Response.Header, x.decisionID, x.class.Intent)
	s.relay = &streamer{ctx: g.base, x: x, conn: rc.Conn(), hideUsage: s.req.AskUsage && !s.req.ClientUsage()}
	x.ungated = !gated(x)
	x.rc = nil // the relay runs after the handler returns: it must not see rc
	// fasthttp starts the writer at once, whatever becomes of the response; relay calls Done.
	g.streams.Add(1)
	rc.SetBodyStreamWriter(s.relay.relay)
}

// gated reports whether a stream's texts must wait, sentence by sentence, for the answer
// check before they go on: in enforce mode whenever the response decision could deny them —
// numbers to ground, a tool call required, response rules of the bundle's own, or
// violations the request already has. Otherwise (monitor mode, or a decision that allows
// whatever the text says) they go on as they come and the whole is judged at the end.
func gated(x *exchange) bool {
	ob := x.admission.Obligations
	return !x.monitor() && (ob.BlockNumericGeneration || ob.RequireToolCall ||
		!x.pol.Bundle.ResponseLibraryOnly() || len(x.admission.Violations) > 0)
}

// streamer relays one upstream event stream to the client: it decodes each chunk, cuts the
// texts into segments (sentences) and each choice's end, runs the segment stages on them,
// and writes the chunks Weir encodes.
type streamer struct {
	ctx     context.Context
	x       *exchange
	conn    net.Conn // only for write deadlines
	w       *bufio.Writer
	parser  sseParser
	enc     *openai.StreamEncoder // set by the first chunk
	later   openai.Chunk          // the chunk after the first being handled, reused
	choices []*streamChoice
	buf     []byte // a chunk being encoded, reused
	// hideUsage drops the usage chunk Weir asked for (a token budget) and the client did not.
	hideUsage bool
}

// relay is the response's body writer: it pumps the upstream stream through the segment
// stages, then audits and ends the stream.
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
	_ = s.x.stream.CloseBodyStream()
	fasthttp.ReleaseResponse(s.x.stream)
	s.x.stream = nil
	for _, st := range s.x.latency {
		if st.name == "inspect" || st.name == "validate" || st.name == "encode" {
			s.x.g.metrics.observeStage(st.name, st.d)
		}
	}
	s.x.observeStage("stream", time.Since(start))
	s.end(err)
}

// end writes the audit record and finishes the SSE body: an error event when the stream
// failed or was refused, then [DONE].
func (s *streamer) end(err error) {
	x, g := s.x, s.x.g
	x.out.status = fasthttp.StatusOK // the status the client got; the error event carries the rest
	x.chargeTokens()
	rec := x.record(err)
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
		if s.write(openaiError(x, err).body) != nil {
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

// readBufs recycles the buffers the streams read their upstream's body into: nothing
// keeps a read's bytes past the parser's feed, which copies what it keeps.
var readBufs = sync.Pool{New: func() any { return new([16 << 10]byte) }}

// pump reads the upstream body and handles its events until [DONE], the end of the body,
// or an error.
func (s *streamer) pump() error {
	body := s.x.stream.BodyStream()
	if body == nil {
		body = bytes.NewReader(s.x.stream.Body())
	}
	rb := readBufs.Get().(*[16 << 10]byte)
	defer readBufs.Put(rb)
	buf := rb[:]
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
			// wait on the upstream: one flush (one chunk to the client) per read.
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
			return true, upstreamBroken("the upstream reported an error mid-stream", nil)
		case string(bytes.TrimSpace(ev.data)) == "[DONE]":
			return true, s.finishAll()
		}
		if err := s.chunk(ev.data); err != nil {
			return true, err
		}
	}
	return false, nil
}

func upstreamBroken(msg string, cause error) error {
	return &Error{Kind: KindUpstreamDown, Code: "upstream_error", Message: msg, Err: cause}
}

// write buffers one data event; flush sends it. The buffer is flushed on its own when it
// fills, so the write deadline is renewed before a write as well as before a flush.
func (s *streamer) write(data []byte) error {
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
