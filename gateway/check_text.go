package gateway

import (
	"context"
	"slices"
	"strings"

	"github.com/weirgw/weir/gateway/chat"
	"github.com/weirgw/weir/policies"
	"github.com/weirgw/weir/policies/grounding"
)

// UnverifiedMarker replaces an ungrounded number in a rewritten answer.
const UnverifiedMarker = "[unverified number]"

// withheldPrefix starts the text that replaces an answer withheld in rewrite mode.
const withheldPrefix = "[weir] answer withheld: "

// The response decision's violation codes the answer check treats specially.
const (
	codeUngroundedNumber = "ungrounded_number"
	codeToolCallRequired = "tool_call_required"
)

// textCheck is what the answer check needs besides the texts: where numbers may come from,
// the tools already called and the calls proposed beside the texts.
type textCheck struct {
	index        *grounding.Index // nil with conversation: the request's conversation, indexed when a text needs it
	conversation bool
	called       []string    // tools called earlier, whose results the answer may use
	calls        []chat.Call // calls proposed in the same choice so far
	final        bool        // the texts end the choice: nothing more will come
}

// textVerdict is the answer check's result for one segment.
type textVerdict struct {
	out      chat.Texts // what to release
	hold     bool       // judged only for lack of a tool call before the choice's end: wait
	withheld bool       // rewrite withheld the answer: drop what follows in this choice
}

// checkTexts is the one answer check: it grounds the numbers of every readable text of a
// segment (a whole answer's texts, or a stream's released sentence) in the sources, evaluates
// the response decision with the choice's calls, and applies the mode. Allowed or monitored
// texts are released as they are; enforce + rewrite replaces ungrounded numbers with
// UnverifiedMarker and withholds an answer with any other violation; enforce + error refuses
// (422). Violations are recorded unless the segment is held.
func (x *exchange) checkTexts(ctx context.Context, texts chat.Texts, tc textCheck) (textVerdict, error) {
	numbers, d, err := x.judgeTexts(ctx, &texts, tc)
	if err != nil {
		if perr := x.policyFailed(err); perr != nil {
			return textVerdict{}, perr
		}
		return textVerdict{out: texts}, nil
	}
	ungrounded := map[string]bool{}
	var other []string
	missingCall := false
	for _, v := range d.Violations {
		switch {
		case v.Code == codeUngroundedNumber && v.Text != "":
			ungrounded[v.Text] = true
		case v.Code == codeToolCallRequired && len(tc.calls) > 0:
			// The model is calling a tool: the answer is not final yet.
		case v.Code == codeToolCallRequired:
			missingCall = true
			other = append(other, v.Message)
		default:
			other = append(other, v.Message)
		}
	}
	if missingCall && !tc.final && !x.monitor() {
		return textVerdict{hold: true}, nil
	}
	x.violations = append(x.violations, d.Violations...)
	switch {
	case d.Allow || x.monitor():
		return textVerdict{out: texts}, nil
	case !x.rewrite():
		return textVerdict{}, answerRejected(d.Violations)
	}
	x.modified = true
	if len(other) > 0 {
		var out chat.Texts
		out.Set(chat.Content, withheldPrefix+strings.Join(dedupe(other), "; "))
		return textVerdict{out: out, withheld: true}, nil
	}
	out := texts
	for _, f := range chat.Fields {
		if texts.Has[f] {
			out.Value[f] = replaceNumbers(texts.Value[f], numbers[f], ungrounded)
		}
	}
	return textVerdict{out: out}, nil
}

// answerRejected is the error that refuses an answer (enforce + error), with the first
// violation's code. Its message never quotes the answer: a violation about a number of the
// answer says so without repeating it, or the refusal would hand the client the very
// number it withholds.
func answerRejected(vs []policies.Violation) error {
	v := first(vs, "answer_rejected")
	return &Error{Kind: KindAnswerRejected, Code: v.Code, Message: violationMessage(v, false)}
}

// ungroundedMessage stands for a violation's message that quotes a number of the answer.
const ungroundedMessage = "the answer has a number that is not grounded in the tool results, the user's or the system's messages"

// violationMessage is a violation's message, or — when it is about a number of the
// answer (it carries the number's text) and content may not be shown — ungroundedMessage.
func violationMessage(v policies.Violation, content bool) string {
	if v.Text != "" && !content {
		return ungroundedMessage
	}
	return v.Message
}

// judgeTexts grounds each field's numbers and evaluates the response decision on all of
// them.
func (x *exchange) judgeTexts(ctx context.Context, texts *chat.Texts, tc textCheck) ([len(chat.Fields)][]grounding.Number, policies.ResponseDecision, error) {
	var numbers [len(chat.Fields)][]grounding.Number
	in := x.input
	in.ToolsCalled = tc.called
	in.ToolCalls = make([]policies.ToolCall, len(tc.calls))
	for i, c := range tc.calls {
		in.ToolCalls[i] = policies.ToolCall{ID: c.ID, Name: c.Name}
	}
	opts := x.snap.Bundle.GroundingOptions(x.admission.Obligations)
	in.Answer.Numbers = []policies.Number{}
	for _, f := range chat.Fields {
		s := texts.Value[f]
		if s != "" && tc.index == nil && tc.conversation {
			tc.index = x.conversationIndex()
		}
		if s != "" && tc.index != nil {
			numbers[f] = tc.index.Check(s, opts)
			for _, n := range numbers[f] {
				in.Answer.Numbers = append(in.Answer.Numbers, policies.NumberFrom(n))
			}
		}
	}
	d, err := x.pol.Bundle.Response(ctx, &in)
	return numbers, d, err
}

// replaceNumbers replaces the ungrounded numbers of s (by their spans, in order) with the
// marker, in one pass: linear in the length of s whatever the count of numbers.
func replaceNumbers(s string, numbers []grounding.Number, ungrounded map[string]bool) string {
	if len(ungrounded) == 0 {
		return s
	}
	if !slices.IsSortedFunc(numbers, byStart) {
		numbers = slices.SortedFunc(slices.Values(numbers), byStart)
	}
	var b strings.Builder
	at := 0
	for _, n := range numbers {
		if !ungrounded[n.Text] || n.Start < at || n.End > len(s) || n.Start >= n.End {
			continue // not to replace, or overlapping one already replaced
		}
		if b.Len() == 0 {
			b.Grow(len(s))
		}
		b.WriteString(s[at:n.Start])
		b.WriteString(UnverifiedMarker)
		at = n.End
	}
	if at == 0 {
		return s
	}
	b.WriteString(s[at:])
	return b.String()
}

func byStart(a, b grounding.Number) int { return a.Start - b.Start }

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
