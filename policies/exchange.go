package policies

import (
	"encoding/json"
	"strings"
)

// Exchange is one offline exchange to validate, as `weir validate` reads it per line:
//
//	{"intent": "...", "messages": [OpenAI chat messages], "answer": "...", "tool_calls": [...]}
type Exchange struct {
	Intent    string         `json:"intent"`
	Messages  []Message      `json:"messages"`
	Answer    string         `json:"answer"`
	ToolCalls []ChatToolCall `json:"tool_calls"` // proposed by the model, optional
}

// Message is an OpenAI chat message. Content may be a string or an array of content parts;
// only the text parts are kept.
type Message struct {
	Role       string         `json:"role"`
	Content    Content        `json:"content"`
	ToolCalls  []ChatToolCall `json:"tool_calls"`
	ToolCallID string         `json:"tool_call_id"`
	Name       string         `json:"name"`
}

// Content is a message's text: a JSON string, or the concatenated text parts of an array.
type Content string

// UnmarshalJSON accepts a string, null, or an array of {"type": "text", "text": ...} parts.
func (c *Content) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*c = Content(s)
		return nil
	}
	var parts []struct {
		Text string `json:"text"`
	}
	if err := json.Unmarshal(b, &parts); err != nil {
		return err
	}
	texts := make([]string, 0, len(parts))
	for _, p := range parts {
		texts = append(texts, p.Text)
	}
	*c = Content(strings.Join(texts, "\n"))
	return nil
}

// ChatToolCall is a tool call in the OpenAI shape {"id", "type": "function", "function":
// {"name", "arguments": "<JSON string>"}}. The flat shape {"id", "name", "arguments"} is
// accepted too, and arguments may then be a JSON object instead of a string.
type ChatToolCall struct {
	ID       string `json:"id"`
	Function struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// ToolName returns the called tool's name: function.name in the OpenAI shape, name in the
// flat one.
func (c *ChatToolCall) ToolName() string {
	if c.Function.Name != "" {
		return c.Function.Name
	}
	return c.Name
}

// RawArguments returns the call's arguments as the JSON text the model sent (models send a
// JSON string; a flat call may carry the object itself); "" when absent or null.
func (c *ChatToolCall) RawArguments() string {
	raw := c.Function.Arguments
	if len(raw) == 0 {
		raw = c.Arguments
	}
	var s string
	if len(raw) > 0 && raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
		return s
	}
	trimmed := strings.TrimSpace(string(raw))
	if trimmed == "null" {
		return ""
	}
	return trimmed
}

// Verdict is the outcome of one exchange: what `weir validate` prints per line.
type Verdict struct {
	Allowed    bool            `json:"allowed"`
	Violations []Violation     `json:"violations"`
	Numbers    []NumberVerdict `json:"numbers"`
}

// NumberVerdict is one number of the answer and its grounding.
type NumberVerdict struct {
	Text       string  `json:"text"`
	Value      float64 `json:"value"`
	Grounded   bool    `json:"grounded"`
	Source     string  `json:"source"`
	Derivation string  `json:"derivation"`
}

// InvalidInput is the verdict for an input that is not a valid exchange: denied, with one
// input_invalid violation.
func InvalidInput(msg string) Verdict {
	return Verdict{Violations: []Violation{{Code: CodeInputInvalid, Message: msg}}, Numbers: []NumberVerdict{}}
}
