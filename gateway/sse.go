package gateway

import (
	"bufio"
	"bytes"
	"errors"
)

// sseEvent is one server-sent event: its data lines joined with "\n" and its event name.
type sseEvent struct {
	name string
	data string
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
}

// feed consumes b and returns the events completed by it.
func (p *sseParser) feed(b []byte) ([]sseEvent, error) {
	p.buf = append(p.buf, b...)
	var out []sseEvent
	done := 0
	for {
		rest := p.buf[done:]
		i := bytes.IndexAny(rest, "\r\n")
		if i < 0 || (rest[i] == '\r' && i == len(rest)-1) {
			break // no complete line yet; a final CR may be the first half of CRLF
		}
		n := i + 1
		if rest[i] == '\r' && rest[i+1] == '\n' {
			n++
		}
		ev, ok, err := p.line(rest[:i])
		if err != nil {
			return out, err
		}
		if ok {
			out = append(out, ev)
		}
		done += n
	}
	p.buf = append(p.buf[:0], p.buf[done:]...)
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
		ev, ok, err := p.line(last)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, ev)
		}
	}
	if ev, ok, _ := p.line(nil); ok {
		out = append(out, ev)
	}
	return out, nil
}

// line interprets one line; an empty line dispatches the pending event.
func (p *sseParser) line(l []byte) (sseEvent, bool, error) {
	if len(l) > maxSSELine {
		return sseEvent{}, false, errSSETooLong
	}
	if len(l) == 0 {
		if !p.hasData {
			p.name = ""
			return sseEvent{}, false, nil
		}
		ev := sseEvent{name: p.name, data: string(p.data)}
		p.data, p.name, p.hasData = p.data[:0], "", false
		return ev, true, nil
	}
	if l[0] == ':' {
		return sseEvent{}, false, nil // a comment, often a keep-alive
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
			return sseEvent{}, false, errSSETooLong
		}
	case "event":
		p.name = string(value)
	}
	return sseEvent{}, false, nil
}

// writeSSE writes one data event to w without flushing it: the caller flushes once the
// events that arrived together are all written. An error is one of an earlier flush.
func writeSSE(w *bufio.Writer, data []byte) error {
	_, _ = w.WriteString("data: ") // bufio errors stick: the last write returns them
	_, _ = w.Write(data)
	_, err := w.WriteString("\n\n")
	return err
}
