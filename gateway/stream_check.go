package gateway

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/weirgw/weir/gateway/config"
	"github.com/weirgw/weir/policies"
	"github.com/weirgw/weir/policies/grounding"
)

// addText buffers gated text and releases every complete sentence that passes its check.
func (s *streamer) addText(st *streamChoice, text string) error {
	switch {
	case st.withheld:
		return nil
	case st.held:
		st.hold.WriteString(text) // judged whole at the end; no quadratic concatenation
		return nil
	}
	st.pending += text
	for !st.held && !st.withheld {
		n := sentenceEnd(st.pending)
		if n < 0 {
			return nil
		}
		released, err := s.checkText(st, st.pending[:n], false)
		if err != nil {
			return err
		}
		if !released {
			st.held = true
			return nil
		}
		st.pending = st.pending[n:]
	}
	if st.withheld {
		st.pending = ""
	}
	return nil
}

// checkText grounds text's numbers and evaluates the response decision, then releases
// text (monitor, or no violation), rewrites it (enforce + rewrite) or refuses it (enforce
// + error). Before the end of the choice (final false), a text judged only for lack of a
// tool call is held: the call may still come.
func (s *streamer) checkText(st *streamChoice, text string, final bool) (bool, error) {
	x := s.x
	d, numbers, err := s.judge(st, text)
	if err != nil {
		if perr := x.policyFailed(err); perr != nil {
			return false, perr
		}
		return true, s.release(st, text)
	}
	ungrounded := map[string]bool{}
	var other []string
	toolRequired := false
	for _, v := range d.Violations {
		switch {
		case v.Code == "ungrounded_number" && v.Text != "":
			ungrounded[v.Text] = true
		case v.Code == "tool_call_required" && len(st.calls) == 0:
			toolRequired = true
			other = append(other, v.Message)
		case v.Code == "tool_call_required":
		default:
			other = append(other, v.Message)
		}
	}
	if toolRequired && !final {
		return false, nil
	}
	x.violations = append(x.violations, d.Violations...)
	st.c.response.Violations = append(st.c.response.Violations, d.Violations...)
	switch {
	case d.Allow || x.monitor():
		return true, s.release(st, text)
	case x.route.cfg.OnViolation == config.OnViolationRewrite:
		s.modified = true
		if len(other) > 0 {
			st.withheld = true
			return true, s.release(st, "[weir] answer withheld: "+strings.Join(dedupe(other), "; "))
		}
		return true, s.release(st, replaceNumbers(text, numbers, ungrounded))
	default:
		v := first(d.Violations, "answer_rejected")
		return false, &Error{Kind: KindAnswerRejected, Code: v.Code, Message: v.Message}
	}
}

// judgeReleased evaluates the response decision on the text that already flowed (an
// ungated stream) to record it; in enforce + error mode a violation ends the stream.
func (s *streamer) judgeReleased(st *streamChoice) error {
	d, _, err := s.judge(st, st.released.String())
	if err != nil {
		return s.x.policyFailed(err)
	}
	s.x.violations = append(s.x.violations, d.Violations...)
	if d.Allow || s.x.monitor() || s.x.route.cfg.OnViolation == config.OnViolationRewrite {
		return nil
	}
	v := first(d.Violations, "answer_rejected")
	return &Error{Kind: KindAnswerRejected, Code: v.Code, Message: v.Message}
}

// judge grounds text in the conversation and evaluates the response decision with the
// calls assembled so far.
func (s *streamer) judge(st *streamChoice, text string) (policies.ResponseDecision, []grounding.Number, error) {
	start := time.Now()
	defer func() { s.validDur += time.Since(start) }()
	x := s.x
	in := x.input
	in.ToolCalls = st.callRefs()
	var numbers []grounding.Number
	if text != "" {
		if x.index == nil {
			x.index = grounding.NewIndex(policies.Sources(x.req.Messages))
		}
		numbers = x.index.Check(text, s.opts)
		in.Answer.Numbers = make([]policies.Number, len(numbers))
		for i, n := range numbers {
			in.Answer.Numbers[i] = policies.NumberFrom(n)
		}
	}
	d, err := x.snap.Bundle.Response(s.ctx, &in)
	return d, numbers, err
}

// decideCalls evaluates the tools decision on the complete calls of a choice and returns
// the calls to release and, in rewrite mode, a note per removed call.
func (s *streamer) decideCalls(st *streamChoice) ([]*callBuilder, []string, error) {
	if len(st.calls) == 0 {
		return nil, nil, nil
	}
	start := time.Now()
	defer func() { s.inspectDur += time.Since(start) }()
	x := s.x
	in := x.input
	in.ToolCalls = make([]policies.ToolCall, len(st.calls))
	st.c.calls = make([]policies.ChatToolCall, len(st.calls))
	for i, c := range st.calls {
		in.ToolCalls[i] = x.snap.Bundle.ToolCall(c.id, c.name, c.args.String())
		st.c.calls[i].ID, st.c.calls[i].Function.Name = c.id, c.name
		st.c.calls[i].Function.Arguments, _ = json.Marshal(c.args.String())
	}
	d, err := x.snap.Bundle.Tools(s.ctx, &in)
	st.c.tools = d
	if err != nil {
		return st.calls, nil, x.policyFailed(err) // monitor: released and recorded
	}
	x.violations = append(x.violations, d.Violations...)
	for _, v := range d.Calls {
		x.violations = append(x.violations, v.Violations...)
	}
	switch {
	case d.Allow || x.monitor():
		return st.calls, nil, nil
	case x.route.cfg.OnViolation == config.OnViolationRewrite:
		s.modified = true
		var kept []*callBuilder
		var notes []string
		for i, v := range d.Calls {
			if v.Allow && i < len(st.calls) {
				kept = append(kept, st.calls[i])
			} else {
				notes = append(notes, fmt.Sprintf("[weir] blocked tool call %s: %s", v.Name, v.Reason))
			}
		}
		return kept, notes, nil
	default:
		v := first(callViolations(d), "tool_not_allowed")
		return nil, nil, &Error{Kind: KindToolBlocked, Code: v.Code, Message: v.Message}
	}
}

// release sends text to the client as one content delta of the choice.
func (s *streamer) release(st *streamChoice, text string) error {
	if text == "" {
		return nil
	}
	st.released.WriteString(text)
	content, _ := json.Marshal(text)
	return s.write(s.contentChunk(st.index, content))
}

// emitCall sends a released tool call, whole, as the delta of output index i.
func (s *streamer) emitCall(choiceIndex, i int, c *callBuilder) error {
	call := map[string]any{"index": i, "id": c.id, "type": "function",
		"function": map[string]string{"name": c.name, "arguments": c.args.String()}}
	calls, _ := json.Marshal([]any{call})
	return s.emit(choiceIndex, map[string]json.RawMessage{"tool_calls": calls})
}

// emit sends a chunk of Weir's own with the upstream's id and model and one delta.
func (s *streamer) emit(choiceIndex int, delta map[string]json.RawMessage) error {
	chunk := map[string]json.RawMessage{"object": json.RawMessage(`"chat.completion.chunk"`)}
	for k, v := range s.meta {
		chunk[k] = v
	}
	ch, _ := json.Marshal([]map[string]any{{"index": choiceIndex, "delta": delta, "finish_reason": nil}})
	chunk["choices"] = ch
	b, _ := json.Marshal(chunk)
	return s.write(b)
}
