package gateway

import (
	"bufio"
	"bytes"
	"errors"
)

// sseEvent is one server-sent event: its data lines joined with "\n" and its event name.
// Its data is never written to again: it may be kept.
type sseEvent struct {
	name string
	data []byte
}

// maxSSELine bounds one line and one event's data; an upstream that exceeds it is broken.
const maxSSELine = 1 << 20

var errSSETooLong = errors.New("sse: line or event longer than 1 MiB")

// sseParser reads the text/event-stream format incrementally: bytes may be fed split at
// any point, lines end with LF, CRLF or CR, comments (":…") and unknown fields are
// skipped, and multi-line data is joined. Feeding the same bytes in any split yields the
// same events.
type sseParser struct {
	buf     []byte
	data    []byte
	name    string
	hasData bool
	// arena holds the data of the events of one feed, one after another: one allocation
	// per read instead of one per event. A new one is made for each feed, so that a
	// stream does not keep all its data; an event's data is a full slice of it.
	arena []byte
	evs   []sseEvent // the events of the last feed, reused
}

// feed consumes b and returns the events completed by it. The slice is reused by the
// next feed; the events' data is not. b is not kept: only an unfinished line is copied,
// to be completed by the next feed.
func (p *sseParser) feed(b []byte) ([]sseEvent, error) {
	src := b
	if len(p.buf) > 0 {
		p.buf = append(p.buf, b...)
		src = p.buf
	}
	p.arena = nil
	out := p.evs[:0]
	done := 0
	for {
		rest := src[done:]
		i := bytes.IndexAny(rest, "\r\n")
		if i < 0 || (rest[i] == '\r' && i == len(rest)-1) {
			break // no complete line yet; a final CR may be the first half of CRLF
		}
		n := i + 1
		if rest[i] == '\r' && rest[i+1] == '\n' {
			n++
		}
		dispatch, err := p.line(rest[:i])
		if err != nil {
			return out, err
		}
		if dispatch {
			out = append(out, p.event(len(rest)-n))
			p.evs = out
		}
		done += n
	}
	p.buf = append(p.buf[:0], src[done:]...)
	if len(p.buf) > maxSSELine {
		return out, errSSETooLong
	}
	return out, nil
}

// end is called at the end of the stream: the last line and a pending event are
// dispatched even without the blank line that should close them.
func (p *sseParser) end() ([]sseEvent, error) {
	var out []sseEvent
	if len(p.buf) > 0 {
		last := bytes.TrimSuffix(p.buf, []byte("\r"))
		p.buf = p.buf[:0]
		dispatch, err := p.line(last)
		if err != nil {
			return nil, err
		}
		if dispatch {
			out = append(out, p.event(0))
		}
	}
	if dispatch, _ := p.line(nil); dispatch {
		out = append(out, p.event(0))
	}
	return out, nil
}

// line interprets one line; dispatch reports an empty line that ends a pending event.
func (p *sseParser) line(l []byte) (dispatch bool, err error) {
	if len(l) > maxSSELine {
		return false, errSSETooLong
	}
	if len(l) == 0 {
		if !p.hasData {
			p.name = ""
		}
		return p.hasData, nil
	}
	if l[0] == ':' {
		return false, nil // a comment, often a keep-alive
	}
	field, value := l, []byte(nil)
	if i := bytes.IndexByte(l, ':'); i >= 0 {
		field, value = l[:i], l[i+1:]
		value = bytes.TrimPrefix(value, []byte(" "))
	}
	switch string(field) {
	case "data":
		if p.hasData {
			p.data = append(p.data, '\n')
		}
		p.data = append(p.data, value...)
		p.hasData = true
		if len(p.data) > maxSSELine {
			return false, errSSETooLong
		}
	case "event":
		p.name = string(value)
	}
	return false, nil
}

// event returns the pending event, its data copied into the arena, and clears it. room
// bounds the data of the events still to come from what is buffered: the arena, made at
// a feed's first event, gets room for them all and seldom grows. When it does, the data
// copied before stays in the array it was written to, which no append touches again.
func (p *sseParser) event(room int) sseEvent {
	if p.arena == nil {
		p.arena = make([]byte, 0, len(p.data)+room)
	}
	start := len(p.arena)
	p.arena = append(p.arena, p.data...)
	ev := sseEvent{name: p.name, data: p.arena[start:len(p.arena):len(p.arena)]}
	p.data, p.name, p.hasData = p.data[:0], "", false
	return ev
}

// writeSSE writes one data event to w without flushing it: the caller flushes once the
// events that arrived together are all written. An error is one of an earlier flush.
func writeSSE(w *bufio.Writer, data []byte) error {
	_, _ = w.WriteString("data: ") // bufio errors stick: the last write returns them
	_, _ = w.Write(data)
	_, err := w.WriteString("\n\n")
	return err
}
