package audit

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// A record is written as a line in the field order of Record, and hashed over its
// canonical form: the same JSON with the keys sorted at every level (see canonical). The
// gateway writes one record per request, so both are encoded here directly, in one pass
// each and without reflection; the result is byte for byte what json.Marshal and
// canonical produce (encode_test.go checks records with every field set, and fuzzes
// strings). Records this encoder does not take (a Record whose fields changed without it,
// latency keys that are not valid UTF-8) are sealed by sealJSON instead.

// encoded is a record encoded without its chain fields, which only the writer's lock
// knows: canon is the canonical form with prev's and seq's values left out at prevAt and
// seqAt; rest is the line after seq, prev and hash, from "time" to the closing brace.
type encoded struct {
	canon         []byte
	prevAt, seqAt int
	rest          []byte
	hashed        []byte    // link's scratch: what the hash is computed over
	latency       []latency // the record's LatencyUS in key order, for both encodings
}

// encodeRecord encodes r for sealing; ok is false when r is one for sealJSON.
func (e *encoded) encode(r *Record) (ok bool, err error) {
	if !layoutKnown || !validKeys(r.LatencyUS) {
		return false, nil
	}
	e.latency = sortedLatency(e.latency[:0], r.LatencyUS)
	e.canon, err = e.appendCanonical(e.canon[:0], r)
	if err != nil {
		return false, err
	}
	e.rest, err = appendLineRest(e.rest[:0], r, e.latency)
	return err == nil, err
}

func validKeys(m map[string]int64) bool {
	for k := range m {
		if !utf8.ValidString(k) {
			return false
		}
	}
	return true
}

// appendCanonical appends r's canonical form, keys in byte order, and notes where prev's
// and seq's values go.
func (e *encoded) appendCanonical(b []byte, r *Record) ([]byte, error) {
	var err error
	b = append(b, `{"confidence":`...)
	if b, err = appendFloat(b, r.Confidence); err != nil {
		return nil, err
	}
	if r.Content != nil {
		b = append(b, `,"content":{`...)
		c := obj{b: b}
		c.str("answer", r.Content.Answer, true, true)
		c.str("prompt", r.Content.Prompt, true, true)
		b = append(c.b, '}')
	}
	o := obj{b: b, n: 1}
	o.str("decision_id", r.DecisionID, false, true)
	o.str("error", r.Error, true, true)
	if f := r.Fallback; f != nil {
		o.key("fallback")
		f2 := obj{b: append(o.b, '{')}
		if f.Cached {
			f2.key("cached")
			f2.b = append(f2.b, "true"...)
		}
		f2.str("error", f.Error, true, true)
		f2.str("intent", f.Intent, true, true)
		f2.key("latency_us")
		f2.b = strconv.AppendInt(f2.b, f.LatencyUS, 10)
		f2.str("model", f.Model, true, true)
		if f.Tokens != 0 {
			f2.key("tokens")
			f2.b = strconv.AppendInt(f2.b, int64(f.Tokens), 10)
		}
		o.b = append(f2.b, '}')
	}
	o.str("intent", r.Intent, true, true)
	o.key("latency_us")
	o.b = appendLatency(o.b, r.LatencyUS == nil, e.latency, true)
	o.str("mode", r.Mode, true, true)
	o.str("outcome", r.Outcome, false, true)
	o.str("pack_revision", r.PackRevision, true, true)
	o.str("policy_revision", r.PolicyRevision, true, true)
	o.key("prev")
	e.prevAt = len(o.b)
	o.str("reason", r.Reason, true, true)
	o.str("request_id", r.RequestID, true, true)
	o.str("route", r.Route, false, true)
	o.key("rules")
	o.b = appendStrings(o.b, r.Rules, true)
	o.key("seq")
	e.seqAt = len(o.b)
	o.str("source", r.Source, true, true)
	o.key("status")
	o.b = strconv.AppendInt(o.b, int64(r.Status), 10)
	o.str("subject", r.Subject.ID, true, true)
	o.str("surface", r.Surface, false, true)
	o.key("time")
	if o.b, err = appendTime(o.b, r.Time); err != nil {
		return nil, err
	}
	o.key("tool_calls")
	if o.b, err = appendToolCalls(o.b, r.ToolCalls, true); err != nil {
		return nil, err
	}
	if len(r.ToolsRemoved) > 0 {
		o.key("tools_removed")
		o.b = appendStrings(o.b, r.ToolsRemoved, true)
	}
	if r.UpstreamStatus != 0 {
		o.key("upstream_status")
		o.b = strconv.AppendInt(o.b, int64(r.UpstreamStatus), 10)
	}
	o.key("violations")
	o.b = appendViolations(o.b, r.Violations, true)
	return append(o.b, '}'), nil
}

// appendLineRest appends r's line from "time" on, in Record's field order; latency is
// r.LatencyUS sorted (sortedLatency).
func appendLineRest(b []byte, r *Record, latency []latency) ([]byte, error) {
	var err error
	b = append(b, `"time":`...)
	if b, err = appendTime(b, r.Time); err != nil {
		return nil, err
	}
	o := obj{b: b, n: 1}
	o.str("decision_id", r.DecisionID, false, false)
	o.str("request_id", r.RequestID, true, false)
	o.str("surface", r.Surface, false, false)
	o.str("route", r.Route, false, false)
	o.str("subject", r.Subject.ID, true, false)
	o.str("mode", r.Mode, true, false)
	o.str("intent", r.Intent, true, false)
	o.key("confidence")
	if o.b, err = appendFloat(o.b, r.Confidence); err != nil {
		return nil, err
	}
	o.str("source", r.Source, true, false)
	o.key("rules")
	o.b = appendStrings(o.b, r.Rules, false)
	o.str("reason", r.Reason, true, false)
	if f := r.Fallback; f != nil {
		o.key("fallback")
		f2 := obj{b: append(o.b, '{')}
		f2.str("model", f.Model, true, false)
		f2.key("latency_us")
		f2.b = strconv.AppendInt(f2.b, f.LatencyUS, 10)
		if f.Tokens != 0 {
			f2.key("tokens")
			f2.b = strconv.AppendInt(f2.b, int64(f.Tokens), 10)
		}
		if f.Cached {
			f2.key("cached")
			f2.b = append(f2.b, "true"...)
		}
		f2.str("intent", f.Intent, true, false)
		f2.str("error", f.Error, true, false)
		o.b = append(f2.b, '}')
	}
	o.str("policy_revision", r.PolicyRevision, true, false)
	o.str("pack_revision", r.PackRevision, true, false)
	o.key("tool_calls")
	if o.b, err = appendToolCalls(o.b, r.ToolCalls, false); err != nil {
		return nil, err
	}
	if len(r.ToolsRemoved) > 0 {
		o.key("tools_removed")
		o.b = appendStrings(o.b, r.ToolsRemoved, false)
	}
	o.key("violations")
	o.b = appendViolations(o.b, r.Violations, false)
	o.str("outcome", r.Outcome, false, false)
	o.key("status")
	o.b = strconv.AppendInt(o.b, int64(r.Status), 10)
	if r.UpstreamStatus != 0 {
		o.key("upstream_status")
		o.b = strconv.AppendInt(o.b, int64(r.UpstreamStatus), 10)
	}
	o.str("error", r.Error, true, false)
	o.key("latency_us")
	o.b = appendLatency(o.b, r.LatencyUS == nil, latency, false)
	if c := r.Content; c != nil {
		o.key("content")
		c2 := obj{b: append(o.b, '{')}
		c2.str("prompt", c.Prompt, true, false)
		c2.str("answer", c.Answer, true, false)
		o.b = append(c2.b, '}')
	}
	return append(o.b, '}'), nil
}

// obj appends the members of an object whose opening brace is written; n counts them,
// for the commas.
type obj struct {
	b []byte
	n int
}

func (o *obj) key(k string) {
	if o.n > 0 {
		o.b = append(o.b, ',')
	}
	o.n++
	o.b = append(o.b, '"')
	o.b = append(o.b, k...)
	o.b = append(o.b, '"', ':')
}

// str appends a string member; omitempty leaves out "".
func (o *obj) str(k, v string, omitempty, canonical bool) {
	if omitempty && v == "" {
		return
	}
	o.key(k)
	o.b = appendString(o.b, v, canonical)
}

func appendStrings(b []byte, ss []string, canonical bool) []byte {
	if ss == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, s, canonical)
	}
	return append(b, ']')
}

func appendViolations(b []byte, vs []Violation, canonical bool) []byte {
	if vs == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, v := range vs {
		if i > 0 {
			b = append(b, ',')
		}
		o := obj{b: append(b, '{')}
		o.str("code", v.Code, false, canonical)
		o.str("message", v.Message, true, canonical)
		o.str("rule", v.Rule, true, canonical)
		b = append(o.b, '}')
	}
	return append(b, ']')
}

func appendToolCalls(b []byte, calls []ToolCall, canonical bool) ([]byte, error) {
	if calls == nil {
		return append(b, "null"...), nil
	}
	b = append(b, '[')
	for i, c := range calls {
		if i > 0 {
			b = append(b, ',')
		}
		o := obj{b: append(b, '{')}
		var args []byte
		if len(c.Arguments) > 0 {
			var err error
			if args, err = encodeArguments(c.Arguments, canonical); err != nil {
				return nil, err
			}
		}
		if canonical {
			o.key("allowed")
			o.b = strconv.AppendBool(o.b, c.Allowed)
			if args != nil {
				o.key("arguments")
				o.b = append(o.b, args...)
			}
			o.str("id", c.ID, true, true)
			o.str("name", c.Name, false, true)
			o.str("reason", c.Reason, true, true)
		} else {
			o.str("id", c.ID, true, false)
			o.str("name", c.Name, false, false)
			o.key("allowed")
			o.b = strconv.AppendBool(o.b, c.Allowed)
			o.str("reason", c.Reason, true, false)
			if args != nil {
				o.key("arguments")
				o.b = append(o.b, args...)
			}
		}
		b = append(o.b, '}')
	}
	return append(b, ']'), nil
}

// encodeArguments encodes a tool call's arguments (only recorded with include_content)
// the way json.Marshal does, or as their canonical form.
func encodeArguments(raw json.RawMessage, canonical bool) ([]byte, error) {
	line, err := json.Marshal(raw)
	if err != nil || !canonical {
		return line, err
	}
	return canonicalValue(line)
}

// latency is one entry of Record.LatencyUS.
type latency struct {
	stage string
	us    int64
}

// sortedLatency appends m's entries to buf, keys sorted as json.Marshal sorts them. Both
// encodings of a record write them; this sorts them once.
func sortedLatency(buf []latency, m map[string]int64) []latency {
	buf = slices.Grow(buf, len(m))
	for k, v := range m {
		buf = append(buf, latency{k, v})
	}
	slices.SortFunc(buf, func(a, b latency) int { return strings.Compare(a.stage, b.stage) })
	return buf
}

// appendLatency appends the per-stage latencies (null for a nil map), sorted.
func appendLatency(b []byte, isNil bool, sorted []latency, canonical bool) []byte {
	if isNil {
		return append(b, "null"...)
	}
	o := obj{b: append(b, '{')}
	for _, l := range sorted {
		if o.n > 0 {
			o.b = append(o.b, ',')
		}
		o.n++
		o.b = appendString(o.b, l.stage, canonical)
		o.b = append(o.b, ':')
		o.b = strconv.AppendInt(o.b, l.us, 10)
	}
	return append(o.b, '}')
}

// appendTime appends t as time.Time's MarshalJSON does.
func appendTime(b []byte, t time.Time) ([]byte, error) {
	b = append(b, '"')
	b, err := t.AppendText(b)
	if err != nil {
		return nil, err
	}
	return append(b, '"'), nil
}

// appendFloat appends f as json.Marshal does (ES6 number formatting); NaN and infinities
// are errors.
func appendFloat(b []byte, f float64) ([]byte, error) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return nil, &json.UnsupportedValueError{Str: strconv.FormatFloat(f, 'g', -1, 64)}
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// clean up e-09 to e-9
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, nil
}

const hexDigits = "0123456789abcdef"

// appendString appends s quoted as json.Marshal quotes it: <, > and & escaped, U+2028
// and U+2029 escaped. An invalid UTF-8 byte becomes the escape \ufffd, or with canonical
// the character U+FFFD itself, which is what canonical makes of the escape.
func appendString(b []byte, s string, canonical bool) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			if canonical {
				b = append(b, "\uFFFD"...)
			} else {
				b = append(b, `\ufffd`...)
			}
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// layoutKnown reports whether Record and the structs in it have exactly the fields, types
// and JSON tags this encoder writes. A field added to Record without teaching the encoder
// about it sends every record through sealJSON (correct, slower) instead of leaving the
// field out of the hash; encode_test.go fails until the encoder is updated.
var layoutKnown = layout() == knownLayout

const knownLayout = `Record{Seq uint64 "seq";Prev string "prev";Hash string "hash,omitempty";` +
	`Time time.Time "time";DecisionID string "decision_id";RequestID string "request_id,omitempty";` +
	`Surface string "surface";Route string "route";Subject string "subject,omitempty";Mode string "mode,omitempty";` +
	`Intent string "intent,omitempty";Confidence float64 "confidence";Source string "source,omitempty";` +
	`Rules []string "rules";Reason string "reason,omitempty";Fallback *audit.Fallback "fallback,omitempty";` +
	`PolicyRevision string "policy_revision,omitempty";PackRevision string "pack_revision,omitempty";` +
	`ToolCalls []audit.ToolCall "tool_calls";ToolsRemoved []string "tools_removed,omitempty";` +
	`Violations []audit.Violation "violations";Outcome string "outcome";Status int "status";` +
	`UpstreamStatus int "upstream_status,omitempty";Error string "error,omitempty";` +
	`LatencyUS map[string]int64 "latency_us";Content *audit.Content "content,omitempty";}` +
	`Fallback{Model string "model,omitempty";LatencyUS int64 "latency_us";Tokens int "tokens,omitempty";` +
	`Cached bool "cached,omitempty";Intent string "intent,omitempty";Error string "error,omitempty";}` +
	`ToolCall{ID string "id,omitempty";Name string "name";Allowed bool "allowed";Reason string "reason,omitempty";` +
	`Arguments json.RawMessage "arguments,omitempty";}` +
	`Violation{Code string "code";Message string "message,omitempty";Rule string "rule,omitempty";}` +
	`Content{Prompt string "prompt,omitempty";Answer string "answer,omitempty";}`

// layout describes the fields of Record and the structs in it, in knownLayout's form.
func layout() string {
	var b strings.Builder
	for _, t := range []reflect.Type{reflect.TypeFor[Record](), reflect.TypeFor[Fallback](),
		reflect.TypeFor[ToolCall](), reflect.TypeFor[Violation](), reflect.TypeFor[Content]()} {
		b.WriteString(t.Name() + "{")
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			fmt.Fprintf(&b, "%s %s %q;", f.Name, f.Type, f.Tag.Get("json"))
		}
		b.WriteString("}")
	}
	return b.String()
}
