package gateway

// scanChatResponse is decodeChatResponse's fast path: one pass over body, reading what
// Weir inspects (each choice's content and tool calls) without the raw maps, which only a
// rewrite needs (chatResponse.loadRaw). It reports !ok for anything it does not decode
// exactly like the encoding/json path: a syntax or type error, an escaped key, a
// duplicate choices, message, content or tool_calls, a function_call, a tool call key in
// another case.
func scanChatResponse(body []byte) (*chatResponse, bool) {
	s := newScan(body)
	r := &chatResponse{body: body}
	if !s.enter('{') {
		return nil, false
	}
	hasChoices := false
	for n := 0; s.more(n, '}'); n++ {
		key := s.key()
		switch {
		case !s.ok:
		case string(key) != "choices":
			s.skip()
		case hasChoices:
			s.fail()
		default:
			hasChoices = true
			r.choices = s.choices()
		}
	}
	if !s.end() || !hasChoices {
		return nil, false
	}
	return r, true
}

func (s *jscan) choices() []*choice {
	if s.null() || !s.enter('[') {
		return nil
	}
	var out []*choice
	for n := 0; s.more(n, ']'); n++ {
		c := &choice{}
		if !s.enter('{') { // null too: the encoding/json path reports it
			return nil
		}
		hasMessage := false
		for k := 0; s.more(k, '}'); k++ {
			key := s.key()
			switch {
			case !s.ok:
			case string(key) != "message":
				s.skip()
			case hasMessage:
				s.fail()
			default:
				hasMessage = true
				s.choiceMessage(c)
			}
		}
		if !hasMessage {
			s.fail()
		}
		out = append(out, c)
	}
	return out
}

func (s *jscan) choiceMessage(c *choice) {
	if !s.enter('{') {
		return
	}
	var hasContent, hasCalls bool
	for n := 0; s.more(n, '}'); n++ {
		key := s.key()
		switch {
		case !s.ok:
		case string(key) == "content" && !hasContent:
			hasContent = true
			c.content = string(s.content())
		case string(key) == "tool_calls" && !hasCalls:
			hasCalls = true
			c.calls, c.rawCalls = s.toolCallsRaw(true)
		case string(key) == "content" || string(key) == "tool_calls" || string(key) == "function_call":
			s.fail() // a duplicate, or the legacy format, which the encoding/json path refuses
		default:
			s.skip()
		}
	}
}
