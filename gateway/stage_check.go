package gateway

import (
	"context"
	"strings"

	"github.com/weirgw/weir/gateway/chat"
	"github.com/weirgw/weir/policies"
	"github.com/weirgw/weir/policies/grounding"
)

// unit is what an upstream produced that the checks have not judged yet: a whole answer
// (every choice final), or one segment of a stream — a choice's released sentence, or its
// end with its complete tool calls. inspect and validate judge it; encode writes it.
type unit struct {
	parts []*part
}

// part is one choice's share of a unit, and the checks' results on it.
type part struct {
	cs     *choiceState
	role   string
	texts  chat.Texts  // the texts to judge
	calls  []chat.Call // complete calls to judge: a choice's calls come whole, at its end
	final  bool        // the choice ends with this part
	finish string      // the upstream's finish_reason, when final

	// Results: what encode writes.
	forward []chat.Call // the calls that go on
	notes   []string    // Weir's notes on the calls a rewrite removed, after the texts
	out     chat.Texts  // the texts that go on
	held    bool        // the texts wait for the choice's end (stream)
}

// choiceState is what the checks keep about one choice of an answer across a stream's
// segments, and what the audit record shows of it.
type choiceState struct {
	index    int
	calls    []chat.Call // every call proposed in the choice so far
	withheld bool        // rewrite withheld the answer: the rest of the choice is dropped
	released chat.Texts  // everything forwarded, for the record's content
	sent     bool        // the client got something of the choice (the record lists it)
	ended    bool
}

// choice returns the state of the choice with the given index, created at first sight.
func (x *exchange) choice(index int) *choiceState {
	for _, cs := range x.choices {
		if cs.index == index {
			return cs
		}
	}
	cs := &choiceState{index: index}
	x.choices = append(x.choices, cs)
	return cs
}

// inspect runs the tools check on the calls of every part of the unit.
func (x *exchange) inspect(ctx context.Context) error {
	for _, p := range x.unit.parts {
		if len(p.calls) == 0 {
			continue
		}
		p.cs.calls = append(p.cs.calls, p.calls...)
		forward, notes, err := x.forwardCalls(ctx, p.cs.index, p.calls)
		if err != nil {
			return err
		}
		p.forward, p.notes = forward, notes
	}
	return nil
}

// addNotes appends the notes naming the calls a rewrite removed to the part's text: they
// are Weir's own words, after the checked text.
func (p *part) addNotes() {
	if len(p.notes) == 0 {
		return
	}
	s := p.out.Get(chat.Content)
	if s != "" || p.cs.released.Get(chat.Content) != "" {
		s += "\n\n"
	}
	p.out.Set(chat.Content, s+strings.Join(p.notes, "\n"))
}

// validate runs the answer check on the texts of every part of the unit. A withheld choice
// drops its further texts. In monitor mode a stream's texts go on as they come and the
// choice's whole text is judged, for the record, at its end.
func (x *exchange) validate(ctx context.Context) error {
	for _, p := range x.unit.parts {
		if err := x.validatePart(ctx, p); err != nil {
			return err
		}
		p.addNotes()
	}
	return nil
}

func (x *exchange) validatePart(ctx context.Context, p *part) error {
	switch {
	case p.cs.withheld:
		return nil
	case x.ungated && !p.final:
		p.out = p.texts
		return nil
	case x.ungated:
		p.out = p.texts
		whole := p.cs.released
		for _, f := range chat.Fields {
			if p.texts.Has[f] {
				whole.Set(f, whole.Get(f)+p.texts.Get(f))
			}
		}
		return x.judgeSent(ctx, whole, x.textCheck(p))
	case p.texts.Empty() && !p.final:
		return nil
	}
	tv, err := x.checkTexts(ctx, p.texts, x.textCheck(p))
	if err != nil {
		return err
	}
	p.out, p.held = tv.out, tv.hold
	p.cs.withheld = tv.withheld
	return nil
}

// judgeSent runs the answer check on texts already sent (an ungated stream's choice, at its
// end): violations are recorded; in enforce + error mode a denial ends the stream.
func (x *exchange) judgeSent(ctx context.Context, texts chat.Texts, tc textCheck) error {
	_, d, err := x.judgeTexts(ctx, &texts, tc)
	if err != nil {
		return x.policyFailed(err)
	}
	x.violations = append(x.violations, d.Violations...)
	if d.Allow || x.monitor() || x.rewrite() {
		return nil
	}
	return answerRejected(d.Violations)
}

// textCheck is what the answer check needs for a part of a chat answer: the conversation's
// numbers and tool results, and the calls the choice proposed.
func (x *exchange) textCheck(p *part) textCheck {
	return textCheck{conversation: true, called: x.input.ToolsCalled, calls: p.cs.calls, final: p.final}
}

// conversationIndex is the grounding index of the request's conversation, built once, when
// a text first needs it.
func (x *exchange) conversationIndex() *grounding.Index {
	if x.index == nil {
		x.index = grounding.NewIndex(policies.Sources(x.req.Messages))
	}
	return x.index
}

// released notes what a part sent to the client, for the record.
func (p *part) released() {
	p.cs.sent = p.cs.sent || !p.out.Empty() || len(p.forward) > 0
	for _, f := range chat.Fields {
		if p.out.Has[f] {
			p.cs.released.Set(f, p.cs.released.Get(f)+p.out.Get(f))
		}
	}
	if p.final {
		p.cs.ended = true
	}
}
