package llm

import (
	"context"
	"fmt"
	"strings"

	"github.com/tmc/langchaingo/llms"
)

// lcModel adapts a langchaingo model to Model.
type lcModel struct {
	cfg Config
	llm llms.Model
	// legacyMaxTokens sends max_tokens instead of max_completion_tokens.
	legacyMaxTokens bool
	// jsonMode: the provider understands response_format json_object.
	jsonMode bool
}

func (m *lcModel) Name() string { return m.cfg.Model }

// Generate makes one call. A call that streams and offers tools is made without
// streaming (see the package doc): its text is then delivered to OnText in one chunk.
func (m *lcModel) Generate(ctx context.Context, msgs []Message, o Options) (Response, error) {
	content, err := toContent(msgs)
	if err != nil {
		return Response{}, err
	}
	stream := o.OnText != nil && len(o.Tools) == 0
	resp, err := m.llm.GenerateContent(ctx, content, m.callOptions(o, stream)...)
	if err != nil {
		return Response{}, fmt.Errorf("llm %s: %w", m.cfg.Model, err)
	}
	out := fromContent(resp)
	out.Model = m.cfg.Model
	if o.OnText != nil && !stream && out.Text != "" {
		if err := o.OnText(out.Text); err != nil {
			return out, err
		}
	}
	return out, nil
}

func (m *lcModel) callOptions(o Options, stream bool) []llms.CallOption {
	maxTokens := o.MaxTokens
	if maxTokens <= 0 {
		maxTokens = m.cfg.MaxTokens
	}
	temp := m.cfg.Temperature
	if o.Temperature != nil {
		temp = *o.Temperature
	}
	opts := []llms.CallOption{llms.WithModel(m.cfg.Model), llms.WithMaxTokens(maxTokens), llms.WithTemperature(temp)}
	if m.legacyMaxTokens {
		opts = append(opts, llms.WithMetadata(map[string]any{"openai:use_legacy_max_tokens": true}))
	}
	if o.JSON && m.jsonMode {
		opts = append(opts, llms.WithJSONMode())
	}
	if len(o.Tools) > 0 {
		tools := make([]llms.Tool, len(o.Tools))
		for i, t := range o.Tools {
			tools[i] = llms.Tool{Type: "function", Function: &llms.FunctionDefinition{
				Name: t.Name, Description: t.Description, Parameters: t.Parameters}}
		}
		opts = append(opts, llms.WithTools(tools))
	}
	if stream {
		onText := o.OnText
		opts = append(opts, llms.WithStreamingFunc(func(_ context.Context, chunk []byte) error {
			if len(chunk) == 0 {
				return nil
			}
			return onText(string(chunk))
		}))
	}
	return opts
}

func toContent(msgs []Message) ([]llms.MessageContent, error) {
	out := make([]llms.MessageContent, 0, len(msgs))
	for _, m := range msgs {
		var mc llms.MessageContent
		switch m.Role {
		case RoleSystem:
			mc = llms.TextParts(llms.ChatMessageTypeSystem, m.Content)
		case RoleUser:
			mc = llms.TextParts(llms.ChatMessageTypeHuman, m.Content)
		case RoleAssistant:
			mc = llms.MessageContent{Role: llms.ChatMessageTypeAI}
			if m.Content != "" {
				mc.Parts = append(mc.Parts, llms.TextContent{Text: m.Content})
			}
			for _, tc := range m.ToolCalls {
				mc.Parts = append(mc.Parts, llms.ToolCall{ID: tc.ID, Type: "function",
					FunctionCall: &llms.FunctionCall{Name: tc.Name, Arguments: tc.Arguments}})
			}
		case RoleTool:
			mc = llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{
				llms.ToolCallResponse{ToolCallID: m.ToolCallID, Name: m.Name, Content: m.Content}}}
		default:
			return nil, fmt.Errorf("llm: unknown message role %q", m.Role)
		}
		out = append(out, mc)
	}
	return out, nil
}

// fromContent joins the choices (Anthropic returns text and each tool use as separate
// choices) and reads the usage under either provider's key names.
func fromContent(resp *llms.ContentResponse) Response {
	var out Response
	var text []string
	for _, c := range resp.Choices {
		if c.Content != "" {
			text = append(text, c.Content)
		}
		for _, tc := range c.ToolCalls {
			if tc.FunctionCall != nil {
				out.ToolCalls = append(out.ToolCalls, ToolCall{ID: tc.ID, Name: tc.FunctionCall.Name, Arguments: tc.FunctionCall.Arguments})
			}
		}
		if c.StopReason != "" {
			out.FinishReason = c.StopReason
		}
		info := c.GenerationInfo
		out.Usage.PromptTokens = max(out.Usage.PromptTokens, intOf(info["PromptTokens"]), intOf(info["InputTokens"]))
		out.Usage.CompletionTokens = max(out.Usage.CompletionTokens, intOf(info["CompletionTokens"]), intOf(info["OutputTokens"]))
	}
	out.Text = strings.Join(text, "")
	return out
}

func intOf(v any) int {
	switch n := v.(type) {
	case int:
		return n
	case int64:
		return int(n)
	case float64:
		return int(n)
	}
	return 0
}
