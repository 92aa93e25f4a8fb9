package fallback

import (
	"context"

	"github.com/weirgw/weir/adapters/llm"
)

// FromModel adapts an adapters/llm model to Completer.
func FromModel(m llm.Model) Completer { return modelCompleter{m} }

type modelCompleter struct{ m llm.Model }

func (c modelCompleter) Complete(ctx context.Context, p Prompt) (Completion, error) {
	temp := p.Temperature
	resp, err := c.m.Generate(ctx, []llm.Message{
		{Role: llm.RoleSystem, Content: p.System},
		{Role: llm.RoleUser, Content: p.User},
	}, llm.Options{MaxTokens: p.MaxTokens, Temperature: &temp, JSON: p.JSON})
	model := resp.Model
	if model == "" {
		model = c.m.Name()
	}
	return Completion{Text: resp.Text, Model: model,
		PromptTokens: resp.Usage.PromptTokens, CompletionTokens: resp.Usage.CompletionTokens}, err
}

// FromConfig builds the model cfg describes and a fallback classifier around it; this is
// what `weir serve` and `weir classify --config` wire.
func FromConfig(cfg llm.Config, opts Options) (*Classifier, error) {
	m, err := llm.New(cfg)
	if err != nil {
		return nil, err
	}
	return New(FromModel(m), opts), nil
}
