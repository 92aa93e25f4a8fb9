package clientview

import (
	"bytes"
	"encoding/json"
	"strings"
)

// The typed structs of the Fold reader: what a Go client built on encoding/json declares.
// encoding/json matches keys to their fields regardless of case, so these structs are
// the reader.
type (
	foldChunk struct {
		Choices []foldChoice `json:"choices"`
		Error   foldError    `json:"error"`
	}
	foldChoice struct {
		Index        int         `json:"index"`
		Message      foldMessage `json:"message"`
		Delta        foldMessage `json:"delta"`
		FinishReason string      `json:"finish_reason"`
	}
	foldMessage struct {
		Content          foldContent `json:"content"`
		Refusal          string      `json:"refusal"`
		ReasoningContent string      `json:"reasoning_content"`
		ToolCalls        []foldCall  `json:"tool_calls"`
	}
	foldCall struct {
		Index    *int   `json:"index"`
		ID       string `json:"id"`
		Type     string `json:"type"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
		Custom struct {
			Name  string `json:"name"`
			Input string `json:"input"`
		} `json:"custom"`
	}
	foldPart struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
)

// foldContent is a content field: a string, or an array of parts.
type foldContent struct {
	text  string
	parts []string
}

// UnmarshalJSON reads a string or an array of parts; null leaves the content as it was,
// as encoding/json does for a string field.
func (c *foldContent) UnmarshalJSON(b []byte) error {
	switch b = bytes.TrimSpace(b); {
	case string(b) == "null":
		return nil
	case len(b) > 0 && b[0] == '[':
		var parts []foldPart
		if err := json.Unmarshal(b, &parts); err != nil {
			return err
		}
		c.text, c.parts = foldParts(parts)
		return nil
	}
	c.parts = nil
	return json.Unmarshal(b, &c.text)
}

func foldParts(parts []foldPart) (string, []string) {
	var texts, types []string
	for _, p := range parts {
		if textPart(p.Type) {
			texts = append(texts, p.Text)
		} else {
			types = append(types, p.Type)
		}
	}
	return strings.Join(texts, "\n"), types
}

// foldError is an error member: an object with a message, or any other JSON value.
type foldError struct{ part errorPart }

// UnmarshalJSON records an error unless it is null or false. Like a pointer field, null
// clears an error read before.
func (e *foldError) UnmarshalJSON(b []byte) error {
	var v any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return err
	}
	e.part = exactError(v) // the same reading of null, false and message-less errors
	if _, ok := v.(map[string]any); ok {
		var withMessage struct {
			Message *string `json:"message"` // but the message is matched by folding
		}
		if json.Unmarshal(b, &withMessage) == nil && withMessage.Message != nil {
			e.part.message = *withMessage.Message
		}
	}
	return nil
}

// chunk converts a decoded completion (key "message") or stream event (key "delta").
func (f *foldChunk) chunk(key string) chunk {
	c := chunk{err: f.Error.part}
	for _, fc := range f.Choices {
		m := fc.Message
		if key == "delta" {
			m = fc.Delta
		}
		c.choices = append(c.choices, choicePart{index: fc.Index, msg: m.message(), finish: fc.FinishReason})
	}
	return c
}

func (m foldMessage) message() message {
	msg := message{content: m.Content.text, parts: m.Content.parts, refusal: m.Refusal, reasoning: m.ReasoningContent}
	for _, fc := range m.ToolCalls {
		cp := callPart{
			id: fc.ID, typ: fc.Type,
			fnName: fc.Function.Name, args: fc.Function.Arguments,
			customName: fc.Custom.Name, input: fc.Custom.Input,
		}
		if fc.Index != nil {
			cp.index, cp.hasIndex = *fc.Index, true
		}
		msg.calls = append(msg.calls, cp)
	}
	return msg
}
