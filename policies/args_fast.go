package policies

import (
	"encoding/json"
	"unicode/utf8"
)

// parseObjectFast decodes src (already trimmed) when it is one JSON object that needs none
// of encoding/json's special handling, and returns what encoding/json with UseNumber makes
// of it: map[string]any, []any, string, json.Number, bool and nil, a repeated key keeping
// its last value. ParseArguments ran encoding/json's Decoder for every tool call, which
// validated the input and then decoded it through reflection (~2% of the gateway's CPU).
//
// It accepts a subset of what encoding/json accepts, never more: anything with an escape,
// a non-UTF-8 or control byte in a string, nesting deeper than maxFastDepth or a syntax
// error reports !ok, and ParseArguments runs encoding/json, which also writes the error
// message. FuzzParseArguments compares the two.
func parseObjectFast(src string) (map[string]any, bool) {
	p := argParser{s: src}
	if p.peek() != '{' {
		return nil, false
	}
	v, ok := p.object()
	if !ok || p.i != len(p.s) {
		return nil, false
	}
	return v, true
}

// maxFastDepth bounds nesting on the fast path; deeper input goes to encoding/json.
const maxFastDepth = 64

type argParser struct {
	s     string
	i     int
	depth int
}

func (p *argParser) peek() byte {
	for p.i < len(p.s) {
		switch c := p.s[p.i]; c {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return c
		}
	}
	return 0
}

func (p *argParser) value() (any, bool) {
	switch c := p.peek(); {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		return p.str()
	case c == 't':
		return true, p.literal("true")
	case c == 'f':
		return false, p.literal("false")
	case c == 'n':
		return nil, p.literal("null")
	case c == '-' || '0' <= c && c <= '9':
		return p.number()
	}
	return nil, false
}

func (p *argParser) object() (map[string]any, bool) {
	if p.depth >= maxFastDepth {
		return nil, false
	}
	p.depth++
	p.i++ // '{'
	m := map[string]any{}
	if p.peek() == '}' {
		p.i++
		p.depth--
		return m, true
	}
	for {
		if p.peek() != '"' {
			return nil, false
		}
		k, ok := p.str()
		if !ok || p.peek() != ':' {
			return nil, false
		}
		p.i++
		v, ok := p.value()
		if !ok {
			return nil, false
		}
		m[k] = v
		switch p.peek() {
		case ',':
			p.i++
		case '}':
			p.i++
			p.depth--
			return m, true
		default:
			return nil, false
		}
	}
}

func (p *argParser) array() ([]any, bool) {
	if p.depth >= maxFastDepth {
		return nil, false
	}
	p.depth++
	p.i++ // '['
	a := []any{}
	if p.peek() == ']' {
		p.i++
		p.depth--
		return a, true
	}
	for {
		v, ok := p.value()
		if !ok {
			return nil, false
		}
		a = append(a, v)
		switch p.peek() {
		case ',':
			p.i++
		case ']':
			p.i++
			p.depth--
			return a, true
		default:
			return nil, false
		}
	}
}

// str reads a string token whose bytes are its value: no escape, no control byte, valid
// UTF-8 (encoding/json would replace invalid bytes).
func (p *argParser) str() (string, bool) {
	start := p.i + 1 // after '"'
	high := false
	for i := start; i < len(p.s); i++ {
		switch c := p.s[i]; {
		case c == '"':
			v := p.s[start:i]
			if high && !utf8.ValidString(v) {
				return "", false
			}
			p.i = i + 1
			return v, true
		case c == '\\' || c < 0x20:
			return "", false
		case c >= 0x80:
			high = true
		}
	}
	return "", false
}

func (p *argParser) literal(lit string) bool {
	if len(p.s)-p.i < len(lit) || p.s[p.i:p.i+len(lit)] != lit {
		return false
	}
	p.i += len(lit)
	return true
}

// number reads -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? as a json.Number.
func (p *argParser) number() (any, bool) {
	s, i := p.s, p.i
	if s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && '1' <= s[i] && s[i] <= '9':
		i = argDigits(s, i)
	default:
		return nil, false
	}
	if i < len(s) && s[i] == '.' {
		j := argDigits(s, i+1)
		if j == i+1 {
			return nil, false
		}
		i = j
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j := argDigits(s, i)
		if j == i {
			return nil, false
		}
		i = j
	}
	n := json.Number(s[p.i:i])
	p.i = i
	return n, true
}

func argDigits(s string, i int) int {
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	return i
}
