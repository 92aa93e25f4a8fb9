package clientview

import (
	"encoding/json"
	"fmt"
)

// RequestView is what one reader (an upstream model server, here) sees of a chat
// request.
type RequestView struct {
	Messages []Message
	// Tools lists the names of the offered tools in order: function.name of a function
	// tool, custom.name of a custom tool, and a flat name wherever there is one (so a
	// tool carrying two names shows both).
	Tools []string
	// ToolChoice is the name of the tool tool_choice forces, "" when it forces none.
	ToolChoice string
	// Functions and FunctionCall report the legacy parameters, present and not null.
	Functions    bool
	FunctionCall bool
}

// Message is one message of a request.
type Message struct {
	Role string
	// Text is the content string, or the text of the parts of type "text" (and
	// "output_text") joined with "\n".
	Text string
	// PartTypes lists the types of the content parts that are not text.
	PartTypes []string
	// Calls are the tool calls of an assistant message of the history.
	Calls []Call
}

// DiffRequest says what differs between two request views, one difference per line, ""
// when they are equal.
func DiffRequest(a, b RequestView) string { return diff(a, b) }

// ReadRequest reads a chat request body with both readers. err reports a body either
// reader refuses.
func ReadRequest(body []byte) (exact, fold RequestView, err error) {
	m, err := decodeExact(body)
	if err != nil {
		return RequestView{}, RequestView{}, fmt.Errorf("exact reader: %w", err)
	}
	var f foldRequest
	if err := json.Unmarshal(body, &f); err != nil {
		return RequestView{}, RequestView{}, fmt.Errorf("fold reader: %w", err)
	}
	return exactRequest(m), f.view(), nil
}

// messageView turns a decoded message into a Message; its calls are whole, in order.
func messageView(role string, m message) Message {
	var a assembler
	a.add(chunk{choices: []choicePart{{msg: m}}}, false)
	v := a.finish()
	return Message{Role: role, Text: m.content, PartTypes: m.parts, Calls: v.Choices[0].Calls}
}

// toolNames returns a tool's names: by its type, then a flat name.
func toolNames(typ, fnName, customName, flat string) []string {
	var names []string
	switch {
	case typ == "function" && fnName != "":
		names = append(names, fnName)
	case typ == "custom" && customName != "":
		names = append(names, customName)
	}
	if flat != "" {
		names = append(names, flat)
	}
	return names
}

// forcedName returns the tool a tool_choice object forces, like toolNames.
func forcedName(typ, fnName, customName, flat string) string {
	if names := toolNames(typ, fnName, customName, flat); len(names) > 0 {
		return names[0]
	}
	return ""
}

func exactRequest(m map[string]any) RequestView {
	var v RequestView
	for _, e := range list(m["messages"]) {
		mm := obj(e)
		v.Messages = append(v.Messages, messageView(str(mm["role"]), exactMessage(mm)))
	}
	for _, e := range list(m["tools"]) {
		t := obj(e)
		v.Tools = append(v.Tools, toolNames(str(t["type"]), str(obj(t["function"])["name"]),
			str(obj(t["custom"])["name"]), str(t["name"]))...)
	}
	if tc := obj(m["tool_choice"]); tc != nil {
		v.ToolChoice = forcedName(str(tc["type"]), str(obj(tc["function"])["name"]),
			str(obj(tc["custom"])["name"]), str(tc["name"]))
	}
	v.Functions = m["functions"] != nil
	v.FunctionCall = m["function_call"] != nil
	return v
}

// foldRequest is the Fold reader's request struct.
type foldRequest struct {
	Messages []struct {
		Role string `json:"role"`
		foldMessage
	} `json:"messages"`
	Tools        []foldTool      `json:"tools"`
	ToolChoice   foldToolChoice  `json:"tool_choice"`
	Functions    json.RawMessage `json:"functions"`
	FunctionCall json.RawMessage `json:"function_call"`
}

// foldTool is a tool, or a tool_choice object: both name the tool the same way.
type foldTool struct {
	Type     string `json:"type"`
	Name     string `json:"name"`
	Function struct {
		Name string `json:"name"`
	} `json:"function"`
	Custom struct {
		Name string `json:"name"`
	} `json:"custom"`
}

// foldToolChoice is a tool_choice: a string ("auto"), or an object naming a tool.
type foldToolChoice struct{ name string }

// UnmarshalJSON reads the forced name of an object and nothing of a string.
func (c *foldToolChoice) UnmarshalJSON(b []byte) error {
	if len(b) == 0 || b[0] != '{' {
		c.name = ""
		return nil
	}
	var t foldTool
	if err := json.Unmarshal(b, &t); err != nil {
		return err
	}
	c.name = forcedName(t.Type, t.Function.Name, t.Custom.Name, t.Name)
	return nil
}

func (f *foldRequest) view() RequestView {
	var v RequestView
	for _, m := range f.Messages {
		v.Messages = append(v.Messages, messageView(m.Role, m.message()))
	}
	for _, t := range f.Tools {
		v.Tools = append(v.Tools, toolNames(t.Type, t.Function.Name, t.Custom.Name, t.Name)...)
	}
	v.ToolChoice = f.ToolChoice.name
	v.Functions = present(f.Functions)
	v.FunctionCall = present(f.FunctionCall)
	return v
}

// present reports whether a raw field was set to something other than null.
func present(raw json.RawMessage) bool { return len(raw) > 0 && string(raw) != "null" }
