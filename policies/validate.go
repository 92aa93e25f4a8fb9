package policies

import (
	"context"

	"github.com/weirgw/weir/policies/grounding"
)

// Validate runs one offline exchange through the three decisions the way the gateway
// would: request (admit), tools (for the proposed calls), grounding of the answer's numbers
// with the request's obligations, and response. The verdict allows only when all three
// allow; violations are merged without duplicates. An error means a decision failed: the
// returned verdict denies with a policy_error violation.
func (b *Bundle) Validate(ctx context.Context, ex Exchange) (Verdict, error) {
	if ex.Intent == "" {
		return InvalidInput("intent is required"), nil
	}
	in := &Input{
		Route:          Route{Surface: "offline"},
		Classification: Classification{Intent: ex.Intent, Confidence: 1, Source: "offline"},
		ToolsCalled:    ToolsCalled(ex.Messages),
	}
	for _, c := range ex.ToolCalls {
		in.ToolCalls = append(in.ToolCalls, b.ToolCall(c.ID, c.ToolName(), c.RawArguments()))
	}
	v := Verdict{Violations: []Violation{}, Numbers: []NumberVerdict{}}
	req, err := b.Request(ctx, in)
	if err != nil {
		return policyError(v, err), err
	}
	tools, err := b.Tools(ctx, in)
	if err != nil {
		return policyError(v, err), err
	}
	numbers := ground(ex, b.GroundingOptions(req.Obligations))
	in.Answer.Numbers = make([]Number, len(numbers))
	for i, n := range numbers {
		in.Answer.Numbers[i] = NumberFrom(n)
		v.Numbers = append(v.Numbers, NumberVerdict{Text: n.Text, Value: n.Value, Grounded: n.Grounded, Source: n.Source, Derivation: n.Derivation})
	}
	resp, err := b.Response(ctx, in)
	if err != nil {
		return policyError(v, err), err
	}
	v.Allowed = req.Allow && tools.Allow && resp.Allow
	v.Violations = merge(req.Violations, tools.Violations, resp.Violations)
	return v, nil
}

// NumberFrom converts a grounding result into the response decision's input.
func NumberFrom(n grounding.Number) Number {
	return Number{
		Text: n.Text, Value: n.Value, Grounded: n.Grounded, Source: n.Source,
		SourceKind: string(n.SourceKind), Derivation: n.Derivation, Trivial: n.Trivial,
	}
}

// GroundingOptions turns the request's obligations into grounding options, with the names
// of the bundle's grounding.names (nil when the bundle has none). Callers should prefer it to
// the package-level GroundingOptions, which knows no names.
func (b *Bundle) GroundingOptions(ob Obligations) grounding.Options {
	opt := GroundingOptions(ob)
	if b != nil && b.data != nil {
		opt.Names = b.data.names
	}
	return opt
}

// GroundingOptions turns the request's obligations into grounding options (without the
// bundle's names: see Bundle.GroundingOptions).
func GroundingOptions(ob Obligations) grounding.Options {
	opt := grounding.Options{AllowDerivations: ob.AllowDerivations}
	for _, k := range ob.NumberSources {
		opt.Kinds = append(opt.Kinds, grounding.SourceKind(k))
	}
	return opt
}

// ground checks the answer's numbers against the conversation: tool results (named by the
// assistant tool call they answer), user messages, and system or developer messages.
func ground(ex Exchange, opt grounding.Options) []grounding.Number {
	if ex.Answer == "" {
		return nil
	}
	sources := Sources(ex.Messages)
	return grounding.NewIndex(sources).Check(ex.Answer, opt)
}

// Sources lists the texts an answer's numbers may come from: tool results (named by the
// assistant tool call they answer), user messages, and system or developer messages.
func Sources(msgs []Message) []grounding.Source {
	names := map[string]string{}
	var sources []grounding.Source
	for _, m := range msgs {
		for _, c := range m.ToolCalls {
			names[c.ID] = c.ToolName()
		}
		switch m.Role {
		case "tool", "function":
			name := names[m.ToolCallID]
			if name == "" {
				name = m.Name
			}
			sources = append(sources, grounding.Source{Kind: grounding.Tool, Name: name, Content: string(m.Content)})
		case "user":
			sources = append(sources, grounding.Source{Kind: grounding.User, Content: string(m.Content)})
		case "system", "developer":
			sources = append(sources, grounding.Source{Kind: grounding.System, Content: string(m.Content)})
		}
	}
	return sources
}

// ToolsCalled returns the names of the assistant's tool calls that have a tool result: the
// tools the model already used.
func ToolsCalled(msgs []Message) []string {
	answered := map[string]bool{}
	for _, m := range msgs {
		if m.Role == "tool" && m.ToolCallID != "" {
			answered[m.ToolCallID] = true
		}
	}
	out := []string{}
	for _, m := range msgs {
		if m.Role != "assistant" {
			continue
		}
		for _, c := range m.ToolCalls {
			if answered[c.ID] {
				out = append(out, c.ToolName())
			}
		}
	}
	return out
}

func policyError(v Verdict, err error) Verdict {
	v.Allowed = false
	v.Violations = append(v.Violations, Violation{Code: CodePolicyError, Message: err.Error()})
	return v
}

// merge concatenates violation lists, dropping repeats: the tools and response decisions
// repeat the request's violations.
func merge(lists ...[]Violation) []Violation {
	seen := map[Violation]bool{}
	out := []Violation{}
	for _, l := range lists {
		for _, v := range l {
			if !seen[v] {
				seen[v] = true
				out = append(out, v)
			}
		}
	}
	return out
}
