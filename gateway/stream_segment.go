package gateway

import (
	"fmt"
	"strings"

	"github.com/weirgw/weir/gateway/chat"
	"github.com/weirgw/weir/gateway/openai"
)

// streamChoice is the relay's state of one choice: its texts not yet released (per field),
// its tool calls being assembled, and what it already sent.
type streamChoice struct {
	cs       *choiceState
	roleSent bool
	pending  [len(chat.Fields)]textBuf // text not yet released, per field
	holding  bool                      // a segment waits for the choice's end: all text after it waits too
	calls    []*callBuilder
	sent     int // calls sent so far: the index of the next one
}

// textBuf is a field's pending text and how far it was scanned for a sentence end, so that
// a long unterminated sentence is scanned once, not once per delta.
type textBuf struct {
	b       []byte
	scanned int
}

// callBuilder assembles one tool call from its fragments.
type callBuilder struct {
	index         int
	id, typ, name string
	args          strings.Builder
}

func (b *callBuilder) call() chat.Call {
	return chat.Call{ID: b.id, Type: b.typ, Name: b.name, Arguments: b.args.String()}
}

func (s *streamer) choice(index int) *streamChoice {
	for _, sc := range s.choices {
		if sc.cs.index == index {
			return sc
		}
	}
	sc := &streamChoice{cs: s.x.choice(index)}
	s.choices = append(s.choices, sc)
	return sc
}

// chunk handles one upstream chunk.
func (s *streamer) chunk(data []byte) error {
	c, err := s.decode(data)
	if err != nil {
		return codecError(err, KindUpstreamDown)
	}
	if c.Error {
		return upstreamBroken("the upstream reported an error mid-stream", nil)
	}
	if s.enc == nil {
		s.enc = openai.NewStreamEncoder(c)
	}
	for _, d := range c.Deltas {
		if err := s.delta(d); err != nil {
			return err
		}
	}
	if c.HasUsage() {
		s.x.tokens = c.Usage().Tokens()
		if s.hideUsage {
			return nil
		}
		return s.emit(s.enc.Usage(s.buf[:0], c))
	}
	return nil
}

// decode reads one upstream chunk: the first with the metadata the stream's encoder
// keeps; a later one, as strictly, into s.later, which the next chunk overwrites.
func (s *streamer) decode(data []byte) (*openai.Chunk, error) {
	if s.enc == nil {
		return openai.DecodeChunk(data)
	}
	return &s.later, openai.DecodeLaterChunk(&s.later, data)
}

// delta handles one choice's delta: its role goes on, its call fragments are assembled,
// its texts are released by segment, and a finish reason ends the choice.
func (s *streamer) delta(d chat.Delta) error {
	sc := s.choice(d.Choice)
	if sc.cs.ended {
		return nil // nothing more after a choice's end
	}
	if d.Role != "" && !sc.roleSent {
		sc.roleSent, sc.cs.sent = true, true
		if err := s.emit(s.enc.Delta(s.buf[:0], sc.cs.index, d.Role, nil, nil, 0, "")); err != nil {
			return err
		}
	}
	if err := sc.addCalls(d.Calls); err != nil {
		return err
	}
	if err := s.text(sc, d.Texts); err != nil {
		return err
	}
	if d.Finish != "" {
		return s.finish(sc, d.Finish)
	}
	return nil
}

// text takes a delta's texts. On an ungated stream (gated) they go on as they come and the
// choice's whole text is judged at its end. Otherwise they are buffered, and every
// complete sentence is released as one segment through the checks.
func (s *streamer) text(sc *streamChoice, t chat.Texts) error {
	if t.Empty() {
		return nil
	}
	if s.x.ungated {
		return s.segment(&part{cs: sc.cs, texts: t})
	}
	if sc.cs.withheld {
		return nil
	}
	var seg chat.Texts
	for _, f := range chat.Fields {
		if !t.Has[f] {
			continue
		}
		tb := &sc.pending[f]
		tb.b = append(tb.b, t.Value[f]...)
		if sc.holding {
			continue
		}
		if n := tb.sentences(); n > 0 {
			seg.Set(f, string(tb.b[:n]))
			// The rest moves to the front: the buffer keeps its room for the next deltas.
			tb.b, tb.scanned = append(tb.b[:0], tb.b[n:]...), tb.scanned-n
		}
	}
	if seg.Empty() {
		return nil
	}
	p := &part{cs: sc.cs, texts: seg}
	if err := s.segment(p); err != nil {
		return err
	}
	if p.held {
		// The segment goes back in front of what is pending; all of it waits for the end.
		sc.holding = true
		for _, f := range chat.Fields {
			if seg.Has[f] {
				tb := &sc.pending[f]
				tb.b = append([]byte(seg.Value[f]), tb.b...)
			}
		}
	}
	return nil
}

// sentences returns the length of the complete sentences at the start of the buffer,
// scanning only what was not scanned before.
func (tb *textBuf) sentences() int {
	n := 0
	for {
		end, resume := sentenceEnd(tb.b[n:], max(tb.scanned-n, 0))
		if end < 0 {
			tb.scanned = n + resume
			return n
		}
		n += end
	}
}

// finish ends a choice: its remaining text and its complete calls are judged as its last
// segment, and the finish reason goes on.
func (s *streamer) finish(sc *streamChoice, reason string) error {
	p := &part{cs: sc.cs, final: true, finish: reason}
	for _, f := range chat.Fields {
		if tb := &sc.pending[f]; len(tb.b) > 0 {
			p.texts.Set(f, string(tb.b))
			tb.b, tb.scanned = nil, 0
		}
	}
	for _, b := range sc.calls {
		c, err := openai.CompleteCall(b.call(), "a streamed tool call")
		if err != nil {
			return codecError(err, KindUpstreamDown)
		}
		p.calls = append(p.calls, c)
	}
	return s.segment(p)
}

// finishAll ends every choice the upstream did not end itself ([DONE]).
func (s *streamer) finishAll() error {
	for _, sc := range s.choices {
		if !sc.cs.ended {
			if err := s.finish(sc, ""); err != nil {
				return err
			}
		}
	}
	return nil
}

func (s *streamer) allFinished() bool {
	for _, sc := range s.choices {
		if !sc.cs.ended {
			return false
		}
	}
	return len(s.choices) > 0
}

// segment runs the pipeline's segment stages (inspect, validate, encode) on one part.
func (s *streamer) segment(p *part) error {
	s.x.unit.parts = append(s.x.unit.parts[:0], p)
	return s.x.runSegment(s.ctx)
}

// encode is the stream's encode stage: it writes the chunks of the judged parts — text,
// then the calls that go on, then the finish reason.
func (s *streamer) encode(x *exchange) error {
	for _, p := range x.unit.parts {
		if p.held {
			continue
		}
		sc := s.choice(p.cs.index)
		if !p.out.Empty() {
			if err := s.emit(s.enc.Delta(s.buf[:0], sc.cs.index, "", &p.out, nil, 0, "")); err != nil {
				return err
			}
		}
		if len(p.forward) > 0 {
			if err := s.emit(s.enc.Delta(s.buf[:0], sc.cs.index, "", nil, p.forward, sc.sent, "")); err != nil {
				return err
			}
			sc.sent += len(p.forward)
		}
		if p.final && p.finish != "" {
			if err := s.emit(s.enc.Delta(s.buf[:0], sc.cs.index, "", nil, nil, 0, finishReason(p))); err != nil {
				return err
			}
			sc.cs.sent = true
		}
		p.released()
	}
	return nil
}

// emit writes one chunk, keeping its buffer for the next.
func (s *streamer) emit(b []byte) error {
	s.buf = b[:0]
	return s.write(b)
}

// addCalls merges tool-call fragments; calls may be interleaved by index, and a fragment
// without an index continues the last call. A fragment that gives a call a second id or a
// second type is refused: one client starts a new call there, another merges it into the
// first, so no reading of it is safe to judge.
func (sc *streamChoice) addCalls(frags []chat.CallFragment) error {
	for _, f := range frags {
		var b *callBuilder
		switch {
		case f.Index >= 0:
			for _, c := range sc.calls {
				if c.index == f.Index {
					b = c
				}
			}
		case len(sc.calls) > 0 && f.ID == "":
			b = sc.calls[len(sc.calls)-1]
		}
		if b == nil {
			b = &callBuilder{index: len(sc.calls)}
			if f.Index >= 0 {
				b.index = f.Index
			}
			sc.calls = append(sc.calls, b)
		}
		if f.ID != "" && b.id != "" && f.ID != b.id || f.Type != "" && b.typ != "" && f.Type != b.typ {
			return &Error{Kind: KindUpstreamDown, Code: openai.CodeAmbiguousAnswr,
				Message: fmt.Sprintf("tool call %d of choice %d: a fragment gives it a second id or type", b.index, sc.cs.index)}
		}
		if f.ID != "" {
			b.id = f.ID
		}
		if f.Type != "" {
			b.typ = f.Type
		}
		b.name += f.Name
		b.args.WriteString(f.Arguments)
	}
	return nil
}
