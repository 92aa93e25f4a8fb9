package gateway

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/weirgw/weir/policies"
)

// member is one top-level member of the request body: the bounds of its key (quotes
// included) and of its value.
type member struct{ key, keyEnd, val, end int }

// scanChatRequest is decodeChatRequest's fast path: one pass over body (the gateway's own
// copy, which the request keeps and forwards). It reports !ok for anything it does not
// decode exactly like the encoding/json path: invalid UTF-8, a syntax or type error, a
// duplicate or escaped top-level key, the legacy functions parameters, a duplicate field
// or a field name in another case in a message or tool call.
func scanChatRequest(body []byte) (*chatRequest, bool) {
	if !utf8.Valid(body) {
		return nil, false
	}
	s := newScan(body)
	req := &chatRequest{body: body}
	if !s.enter('{') {
		return nil, false
	}
	var buf [16]member
	members := buf[:0]
	hasMessages := false
	for n := 0; s.more(n, '}'); n++ {
		s.ws()
		m := member{key: s.i}
		key := s.key()
		if !s.ok || !plainKey(key) || duplicateKey(body, members, key) {
			return nil, false
		}
		m.keyEnd = m.key + len(key) + 2
		m.val = s.i
		switch string(key) {
		case "messages":
			hasMessages = true
			req.Messages = s.messages()
		case "tools":
			req.Tools, req.toolNames = s.tools()
		case "stream":
			req.Stream = s.boolOrNull()
		case "functions", "function_call":
			s.fail() // the encoding/json path refuses them (legacyFunctions) unless null
		case "user":
			if v := s.peek(); v == '"' {
				req.User, _ = s.stringValue()
			} else {
				s.skip() // not a string: ignored, as before
			}
		default:
			s.skip()
		}
		m.end = s.i
		members = append(members, m)
	}
	if !s.end() || !hasMessages || len(req.Messages) == 0 {
		return nil, false
	}
	req.members = append([]member(nil), members...)
	return req, true
}

// plainKey reports whether a top-level key is printable ASCII: the encoding/json path
// decodes keys into map keys, which changes invalid UTF-8, so any other key goes that path.
func plainKey(k []byte) bool {
	for _, c := range k {
		if c < 0x20 || c >= 0x80 {
			return false
		}
	}
	return true
}

func duplicateKey(body []byte, members []member, key []byte) bool {
	for _, m := range members {
		if string(body[m.key+1:m.keyEnd-1]) == string(key) {
			return true
		}
	}
	return false
}

func (s *jscan) boolOrNull() bool {
	switch s.peek() {
	case 't':
		s.literal(litTrue)
		return true
	case 'f':
		s.literal(litFalse)
	case 'n':
		s.literal(litNull)
	default:
		s.fail()
	}
	return false
}

// rawArray reads an array as its elements' JSON (null: nil).
func (s *jscan) rawArray() []json.RawMessage {
	if s.null() || !s.enter('[') {
		return nil
	}
	out := make([]json.RawMessage, 0, 8)
	for n := 0; s.more(n, ']'); n++ {
		start, end := s.skip()
		out = append(out, s.b[start:end:end])
	}
	return out
}

// messages reads the messages array like json.Unmarshal into []policies.Message.
func (s *jscan) messages() []policies.Message {
	if s.null() || !s.enter('[') {
		return nil
	}
	out := make([]policies.Message, 0, 4)
	for n := 0; s.more(n, ']'); n++ {
		out = append(out, policies.Message{})
		if !s.null() {
			s.message(&out[len(out)-1])
		}
	}
	return out
}

// Fields of policies.Message, as encoding/json matches them.
const (
	fRole = iota
	fContent
	fToolCalls
	fToolCallID
	fName
)

var (
	messageFields = []string{"role", "content", "tool_calls", "tool_call_id", "name"}
	textField     = []string{"text"}
)

// fieldIndex returns the index of the field key names in names, -1 for none. A key that
// differs from a name (or from one of also) only in case fails the scan: encoding/json
// would match it to the field, and the encoding/json path also refuses such keys where
// they are ambiguous (caseAmbiguous).
func (s *jscan) fieldIndex(key []byte, names []string, also ...string) int {
	for i, name := range names {
		if string(key) == name {
			return i
		}
	}
	for _, name := range names {
		if bytes.EqualFold(key, []byte(name)) {
			s.fail()
		}
	}
	for _, name := range also {
		if string(key) != name && bytes.EqualFold(key, []byte(name)) {
			s.fail()
		}
	}
	return -1
}

func (s *jscan) message(m *policies.Message) {
	if !s.enter('{') {
		return
	}
	var seen uint
	for n := 0; s.more(n, '}'); n++ {
		f := s.fieldIndex(s.key(), messageFields)
		if !s.ok || f >= 0 && seen&(1<<f) != 0 {
			s.fail()
			return
		}
		if f >= 0 {
			seen |= 1 << f
		}
		switch f {
		case fRole:
			m.Role = s.role(m.Role)
		case fContent:
			m.Content = s.content()
		case fToolCalls:
			m.ToolCalls = s.toolCalls()
		case fToolCallID:
			m.ToolCallID = s.optString(m.ToolCallID)
		case fName:
			m.Name = s.optString(m.Name)
		default:
			s.skip()
		}
	}
}

// optString reads a string field: a string, or null which leaves cur as it is.
func (s *jscan) optString(cur string) string {
	if s.null() {
		return cur
	}
	v, _ := s.stringValue()
	return v
}

// role reads a message role without allocating for the usual ones.
func (s *jscan) role(cur string) string {
	if s.null() {
		return cur
	}
	start, end, plain := s.str()
	if !s.ok {
		return ""
	}
	if plain {
		switch r := s.b[start:end]; string(r) {
		case "functions", "function_call":
			s.fail() // the encoding/json path refuses them (legacyFunctions) unless null
		case "user":
			return "user"
		case "assistant":
			return "assistant"
		case "system":
			return "system"
		case "tool":
			return "tool"
		default:
			return string(r)
		}
	}
	s.i = start - 1
	v, _ := s.stringValue()
	return v
}

// content reads a message content like policies.Content.UnmarshalJSON: a string, null,
// or an array of parts whose text fields are joined with newlines.
func (s *jscan) content() policies.Content {
	switch s.peek() {
	case 'n':
		s.literal(litNull)
		return ""
	case '"':
		v, _ := s.stringValue()
		return policies.Content(v)
	case '[':
	default:
		s.fail()
		return ""
	}
	s.enter('[')
	var texts []string
	for n := 0; s.more(n, ']'); n++ {
		text := ""
		if !s.null() && s.enter('{') {
			for k := 0; s.more(k, '}'); k++ {
				if key := s.key(); s.fieldIndex(key, textField) == 0 {
					text = s.optString(text)
				} else {
					s.skip()
				}
			}
		}
		texts = append(texts, text)
	}
	return policies.Content(strings.Join(texts, "\n"))
}

// toolCalls reads a tool_calls array like json.Unmarshal into []policies.ChatToolCall.
func (s *jscan) toolCalls() []policies.ChatToolCall {
	calls, _ := s.toolCallsRaw(false)
	return calls
}

// toolCallsRaw reads a tool_calls array, and with raw each element's JSON too.
func (s *jscan) toolCallsRaw(raw bool) ([]policies.ChatToolCall, []json.RawMessage) {
	if s.null() || !s.enter('[') {
		return nil, nil
	}
	calls := []policies.ChatToolCall{}
	var raws []json.RawMessage
	if raw {
		raws = []json.RawMessage{}
	}
	for n := 0; s.more(n, ']'); n++ {
		start := s.i
		calls = append(calls, policies.ChatToolCall{})
		if !s.null() {
			s.toolCall(&calls[len(calls)-1])
		}
		if raw {
			raws = append(raws, s.b[start:s.i:s.i])
		}
	}
	return calls, raws
}

var (
	callFields     = []string{"id", "function", "name", "arguments"}
	functionFields = []string{"name", "arguments"}
)

func (s *jscan) toolCall(c *policies.ChatToolCall) {
	if !s.enter('{') {
		return
	}
	var seen uint
	for n := 0; s.more(n, '}'); n++ {
		f := s.fieldIndex(s.key(), callFields, "type")
		if !s.ok || f >= 0 && seen&(1<<f) != 0 {
			s.fail()
			return
		}
		if f >= 0 {
			seen |= 1 << f
		}
		switch f {
		case 0:
			c.ID = s.optString(c.ID)
		case 1:
			if !s.null() {
				s.function(&c.Function.Name, &c.Function.Arguments)
			}
		case 2:
			c.Name = s.optString(c.Name)
		case 3:
			start, end := s.skip()
			c.Arguments = s.b[start:end:end]
		default:
			s.skip()
		}
	}
}

func (s *jscan) function(name *string, args *json.RawMessage) {
	if !s.enter('{') {
		return
	}
	var seen uint
	for n := 0; s.more(n, '}'); n++ {
		f := s.fieldIndex(s.key(), functionFields, "id", "type", "function")
		if !s.ok || f >= 0 && seen&(1<<f) != 0 {
			s.fail()
			return
		}
		if f >= 0 {
			seen |= 1 << f
		}
		switch f {
		case 0:
			*name = s.optString(*name)
		case 1:
			start, end := s.skip()
			*args = s.b[start:end:end]
		default:
			s.skip()
		}
	}
}

// tools reads the tools array like rawArray and, in the same pass, each tool's name as
// toolName finds it. A tool whose name scanToolName leaves to encoding/json (an escaped
// key) is read again with skip and named by toolNameJSON.
func (s *jscan) tools() ([]json.RawMessage, []string) {
	if s.null() || !s.enter('[') {
		return nil, nil
	}
	raws := make([]json.RawMessage, 0, 8)
	names := make([]string, 0, 8)
	for n := 0; s.more(n, ']'); n++ {
		s.ws()
		start, depth := s.i, s.depth
		name, ok := s.toolName()
		if !ok {
			s.i, s.depth, s.ok = start, depth, true
			s.skip()
			if !s.ok {
				return nil, nil
			}
			name = toolNameJSON(s.b[start:s.i])
		}
		raws = append(raws, s.b[start:s.i:s.i])
		names = append(names, name)
	}
	return raws, names
}

// scanToolName is toolName's fast path over a validated JSON value. encoding/json ignores
// a field of the wrong type and goes on, and toolName ignores its error, so a wrong type
// is skipped here too; only an escaped key goes the encoding/json path.
func scanToolName(raw []byte) (string, bool) {
	s := newScan(raw)
	name, ok := s.toolName()
	return name, ok && s.end()
}

// toolName reads the tool definition at the position and returns scanToolName's name; ok
// is false when the value is not valid JSON or its name is left to encoding/json.
func (s *jscan) toolName() (string, bool) {
	if s.peek() != '{' {
		s.skip()
		return "", s.ok // not an object: no name
	}
	var fn, flat string
	s.enter('{')
	for n := 0; s.more(n, '}'); n++ {
		key := s.key()
		switch {
		case !s.ok:
		case field(key, "function") && s.peek() == '{':
			s.enter('{')
			for k := 0; s.more(k, '}'); k++ {
				if key := s.key(); s.ok && field(key, "name") && s.peek() == '"' {
					fn, _ = s.stringValue()
				} else {
					s.skip()
				}
			}
		case field(key, "name") && s.peek() == '"':
			flat, _ = s.stringValue()
		default:
			s.skip()
		}
	}
	if !s.ok {
		return "", false
	}
	if fn != "" {
		return fn, true
	}
	return flat, true
}

// streamRequested is wantsStream (stream.go) in one pass over body without decoding it:
// whether the top-level stream field is true. ok is false for what it leaves to
// wantsStream: a key that is stream only in another case or with an escape, input it
// cannot scan.
func streamRequested(body []byte) (stream, ok bool) {
	s := newScan(body)
	if !s.enter('{') {
		return false, false
	}
	for n := 0; s.more(n, '}'); n++ {
		key := s.key()
		switch {
		case !s.ok:
		case string(key) == "stream":
			switch s.peek() {
			case 't', 'f':
				stream = s.boolOrNull()
			case 'n':
				s.literal(litNull)
			default:
				return false, true // not a boolean: json.Unmarshal fails, and so does wantsStream
			}
		case bytes.EqualFold(key, []byte("stream")):
			return false, false
		default:
			s.skip()
		}
	}
	return stream, s.end()
}
