package clientview

import (
	"bytes"
	"strings"
)

// event is one server-sent event.
type event struct {
	name string // the event field, "" for none
	data string // the data lines joined with "\n"
}

// splitSSE splits a body into events as the SSE parsers of the SDKs (and the
// specification) do: lines end with CRLF, LF or CR; a line starting with ':' is a comment;
// "field: value" loses one space after the colon; data lines accumulate, joined with
// "\n"; a blank line dispatches the event, and an event with no data line is dropped. An
// event not ended by a blank line is dropped too, which gets a note: not every parser
// does so.
func splitSSE(body []byte) (events []event, notes []string) {
	var cur event
	var data []string
	for len(body) > 0 {
		var line []byte
		line, body = nextLine(body)
		if len(line) == 0 {
			if data != nil {
				cur.data = strings.Join(data, "\n")
				events = append(events, cur)
			}
			cur, data = event{}, nil
			continue
		}
		field, value := splitField(line)
		switch field {
		case "data":
			data = append(data, value)
		case "event":
			cur.name = value
		}
	}
	if data != nil {
		notes = append(notes, "the last event has no blank line after it; dropped")
	}
	return events, notes
}

// nextLine returns the first line of b, without its end, and the rest.
func nextLine(b []byte) (line, rest []byte) {
	i := bytes.IndexAny(b, "\r\n")
	if i < 0 {
		return b, nil
	}
	line, rest = b[:i], b[i+1:]
	if b[i] == '\r' && len(rest) > 0 && rest[0] == '\n' {
		rest = rest[1:]
	}
	return line, rest
}

// splitField splits "field: value"; a comment line has the field "".
func splitField(line []byte) (field, value string) {
	if line[0] == ':' {
		return "", ""
	}
	name, val, found := bytes.Cut(line, []byte(":"))
	if !found {
		return string(line), ""
	}
	val = bytes.TrimPrefix(val, []byte(" "))
	return string(name), string(val)
}
