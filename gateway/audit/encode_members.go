package audit

// The record's nested objects in canonical form: members in key order, omitempty as
// their JSON tags say.

func appendContent(b []byte, c *Content) []byte {
	o := obj{b: append(b, '{')}
	o.str("answer", c.Answer, true)
	if len(c.Choices) > 0 {
		o.key("choices")
		o.b = append(o.b, '[')
		for i, ch := range c.Choices {
			if i > 0 {
				o.b = append(o.b, ',')
			}
			c2 := obj{b: append(o.b, '{')}
			c2.str("content", ch.Content, true)
			c2.int("index", int64(ch.Index))
			c2.str("reasoning", ch.Reasoning, true)
			c2.str("refusal", ch.Refusal, true)
			o.b = c2.close()
		}
		o.b = append(o.b, ']')
	}
	o.str("prompt", c.Prompt, true)
	return o.close()
}

func appendFallback(b []byte, f *Fallback) []byte {
	o := obj{b: append(b, '{')}
	if f.Cached {
		o.key("cached")
		o.b = append(o.b, "true"...)
	}
	o.str("error", f.Error, true)
	o.str("intent", f.Intent, true)
	o.int("latency_us", f.LatencyUS)
	o.str("model", f.Model, true)
	if f.Tokens != 0 {
		o.int("tokens", int64(f.Tokens))
	}
	return o.close()
}

func appendSubject(b []byte, s *Subject) []byte {
	o := obj{b: append(b, '{')}
	o.str("auth_method", s.AuthMethod, true)
	o.str("id", s.ID, false)
	if len(s.Roles) > 0 {
		o.key("roles")
		o.b = appendStrings(o.b, s.Roles)
	}
	o.str("tenant", s.Tenant, true)
	return o.close()
}

func appendSources(b []byte, ss []Source) []byte {
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		o := obj{b: append(b, '{')}
		o.str("error", s.Error, true)
		o.str("name", s.Name, false)
		o.int("rows", int64(s.Rows))
		o.str("tool", s.Tool, true)
		o.key("used")
		o.b = appendBool(o.b, s.Used)
		b = o.close()
	}
	return append(b, ']')
}

func appendToolCalls(b []byte, calls []ToolCall) []byte {
	if calls == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i := range calls {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendToolCall(b, &calls[i])
	}
	return append(b, ']')
}

func appendToolCall(b []byte, c *ToolCall) []byte {
	o := obj{b: append(b, '{')}
	o.str("action", c.Action, true)
	o.key("allowed")
	o.b = appendBool(o.b, c.Allowed)
	if len(c.Arguments) > 0 {
		o.key("arguments")
		o.b = append(o.b, canonicalArguments(c.Arguments)...)
	}
	if c.Choice != 0 {
		o.int("choice", int64(c.Choice))
	}
	o.str("id", c.ID, true)
	o.str("name", c.Name, false)
	o.str("origin", c.Origin, true)
	o.str("reason", c.Reason, true)
	if c.Rows != nil {
		o.int("rows", int64(*c.Rows))
	}
	o.str("type", c.Type, true)
	return o.close()
}

func appendViolations(b []byte, vs []Violation) []byte {
	if vs == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, v := range vs {
		if i > 0 {
			b = append(b, ',')
		}
		o := obj{b: append(b, '{')}
		o.str("code", v.Code, false)
		o.str("message", v.Message, true)
		o.str("rule", v.Rule, true)
		b = o.close()
	}
	return append(b, ']')
}

func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, "true"...)
	}
	return append(b, "false"...)
}
