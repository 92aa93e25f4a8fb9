package gateway

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/weirgw/weir/policies"
	"github.com/weirgw/weir/policies/grounding"
)

// UnverifiedMarker replaces an ungrounded number in a rewritten answer.
const UnverifiedMarker = "[unverified number]"

// chatResponse is an upstream chat completion, kept raw except for what Weir inspects and
// may rewrite.
type chatResponse struct {
	body    []byte                     // the upstream's answer
	raw     map[string]json.RawMessage // nil until a rewrite needs it (loadRaw)
	choices []*choice
}

// choice is one choice of the response with its verdicts.
type choice struct {
	raw       map[string]json.RawMessage
	msg       map[string]json.RawMessage
	content   string
	calls     []policies.ChatToolCall
	rawCalls  []json.RawMessage
	numbers   []grounding.Number
	tools     policies.ToolsDecision
	response  policies.ResponseDecision
	rewritten bool
}

// decodeChatResponse reads what Weir inspects in an upstream chat completion: each
// choice's content and tool calls.
func decodeChatResponse(body []byte) (*chatResponse, error) {
	r, ok := scanChatResponse(body)
	if !ok {
		var err error
		if r, err = decodeChatResponseJSON(body); err != nil {
			return nil, err
		}
	}
	return r, uninspectable(r)
}

// decodeChatResponseJSON is decodeChatResponse with encoding/json, raw maps included: the
// reference the fast path (scanChatResponse) agrees with, and the path that reports every
// error.
func decodeChatResponseJSON(body []byte) (*chatResponse, error) {
	bad := func(what string) error {
		return errorf(KindUpstreamDown, "upstream_invalid_response", "the upstream answer is not a chat completion (%s)", what)
	}
	r := &chatResponse{body: body}
	if err := json.Unmarshal(body, &r.raw); err != nil || r.raw == nil {
		return nil, bad("not a JSON object")
	}
	var choices []map[string]json.RawMessage
	if err := json.Unmarshal(r.raw["choices"], &choices); err != nil {
		return nil, bad("choices")
	}
	for _, c := range choices {
		ch := &choice{raw: c}
		if err := json.Unmarshal(c["message"], &ch.msg); err != nil || ch.msg == nil {
			return nil, bad("choices[].message")
		}
		if v, ok := ch.msg["content"]; ok && !isNull(v) {
			var content policies.Content
			if err := json.Unmarshal(v, &content); err != nil {
				return nil, bad("message.content")
			}
			ch.content = string(content)
		}
		if v, ok := ch.msg["tool_calls"]; ok && !isNull(v) {
			if json.Unmarshal(v, &ch.rawCalls) != nil || json.Unmarshal(v, &ch.calls) != nil {
				return nil, bad("message.tool_calls")
			}
		}
		r.choices = append(r.choices, ch)
	}
	return r, nil
}

// loadRaw fills the raw maps a rewrite edits, when the fast path left them out.
func (r *chatResponse) loadRaw() error {
	if r.raw != nil {
		return nil
	}
	full, err := decodeChatResponseJSON(r.body)
	if err != nil {
		return err
	}
	if len(full.choices) != len(r.choices) {
		return errors.New("the two decodings of the answer disagree")
	}
	r.raw = full.raw
	for i, c := range r.choices {
		c.raw, c.msg = full.choices[i].raw, full.choices[i].msg
	}
	return nil
}

// encode re-encodes the response after rewrites.
func (r *chatResponse) encode() ([]byte, error) {
	choices := make([]map[string]json.RawMessage, len(r.choices))
	for i, c := range r.choices {
		if c.rewritten {
			c.raw["message"], _ = json.Marshal(c.msg)
		}
		choices[i] = c.raw
	}
	r.raw["choices"], _ = json.Marshal(choices)
	return json.Marshal(r.raw)
}

// rewrite makes the choice compliant (enforce + rewrite): blocked tool calls are removed
// and named in the message, ungrounded numbers are replaced by UnverifiedMarker, and an
// answer with any other response violation is withheld with the reasons.
func (c *choice) rewrite() {
	var notes []string
	if len(c.tools.Calls) > 0 && !c.tools.Allow {
		notes = append(notes, c.removeBlockedCalls()...)
	}
	content := c.content
	var other []string
	if !c.response.Allow {
		ungrounded := map[string]bool{}
		for _, v := range c.response.Violations {
			switch {
			case v.Code == "ungrounded_number" && v.Text != "":
				ungrounded[v.Text] = true
			case v.Code == "tool_call_required" && len(c.calls) > 0:
				// The model is calling a tool; the answer is not final yet.
			default:
				other = append(other, v.Message)
			}
		}
		content = replaceNumbers(content, c.numbers, ungrounded)
	}
	if len(other) > 0 {
		content = "[weir] answer withheld: " + strings.Join(dedupe(other), "; ")
	}
	if len(notes) > 0 {
		if content != "" {
			content += "\n\n"
		}
		content += strings.Join(notes, "\n")
	}
	if content != c.content {
		c.msg["content"], _ = json.Marshal(content)
		c.content = content
	}
	c.rewritten = true
}

// removeBlockedCalls drops the denied tool calls and returns one note per call.
func (c *choice) removeBlockedCalls() []string {
	var keptRaw []json.RawMessage
	var kept []policies.ChatToolCall
	var notes []string
	for i, v := range c.tools.Calls {
		if v.Allow {
			keptRaw = append(keptRaw, c.rawCalls[i])
			kept = append(kept, c.calls[i])
			continue
		}
		notes = append(notes, fmt.Sprintf("[weir] blocked tool call %s: %s", v.Name, v.Reason))
	}
	c.rawCalls, c.calls = keptRaw, kept
	if len(keptRaw) == 0 {
		delete(c.msg, "tool_calls")
		if fr := string(c.raw["finish_reason"]); fr == `"tool_calls"` {
			c.raw["finish_reason"] = json.RawMessage(`"stop"`)
		}
	} else {
		c.msg["tool_calls"], _ = json.Marshal(keptRaw)
	}
	return notes
}

// replaceNumbers replaces the ungrounded numbers of s (by their spans) with the marker.
func replaceNumbers(s string, numbers []grounding.Number, ungrounded map[string]bool) string {
	if len(ungrounded) == 0 {
		return s
	}
	spans := make([]grounding.Number, 0, len(numbers))
	for _, n := range numbers {
		if ungrounded[n.Text] && n.Start >= 0 && n.End <= len(s) && n.Start < n.End {
			spans = append(spans, n)
		}
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].Start > spans[j].Start })
	end := len(s) + 1
	for _, n := range spans {
		if n.End > end {
			continue // overlapping spans: keep the later one
		}
		s = s[:n.Start] + UnverifiedMarker + s[n.End:]
		end = n.Start
	}
	return s
}

func dedupe(ss []string) []string {
	seen := map[string]bool{}
	out := ss[:0:0]
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
