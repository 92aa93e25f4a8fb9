package openai

import (
	"strings"

	"github.com/weirgw/weir/gateway/chat"
	"github.com/weirgw/weir/gateway/internal/strictjson"
	"github.com/weirgw/weir/policies"
)

// messageKeys are the keys of a message Weir forwards.
var messageKeys = newKeys("role", "content", "name", "tool_calls", "tool_call_id", "refusal", "audio", "reasoning_content", "function_call")

func (r *Request) messages(v strictjson.Value) error {
	if v.Kind() != strictjson.Array {
		return errorf(CodeInvalid, "messages must be an array")
	}
	r.Chat.Messages = make([]policies.Message, 0, v.Len())
	for i, m := range v.Elems() {
		msg, err := message(m, root.key("messages").idx(i))
		if err != nil {
			return err
		}
		r.Chat.Messages = append(r.Chat.Messages, msg)
	}
	return nil
}

// message reads one message: its role, its text (text parts only), the assistant's tool
// calls and a tool result's call id.
func message(v strictjson.Value, path loc) (policies.Message, error) {
	var m policies.Message
	err := object(v, path, messageKeys, CodeInvalid, func(k string, f strictjson.Value) error {
		var err error
		switch k {
		case "role":
			m.Role, err = str(f, path.key(k), CodeInvalid)
			if err == nil && !isRole(m.Role) {
				err = errorf(CodeUnsupported, "%s: role %q is not one weir reads (system, developer, user, assistant, tool)", path.key(k), m.Role)
			}
		case "content":
			var text string
			text, err = content(f, path.key(k))
			m.Content = policies.Content(text)
		case "name":
			m.Name, err = str(f, path.key(k), CodeInvalid)
		case "tool_call_id":
			m.ToolCallID, err = str(f, path.key(k), CodeInvalid)
		case "tool_calls":
			m.ToolCalls, err = historyCalls(f, path.key(k))
		case "function_call":
			if f.Kind() != strictjson.Null {
				err = errorf(CodeUnsupported, "%s belongs to the deprecated function-calling API, which weir does not inspect", path.key(k))
			}
		}
		return err
	}, refuse)
	if err == nil && m.Role == "" {
		err = errorf(CodeInvalid, "%s.role is required", path)
	}
	return m, err
}

// partKeys are the keys of a content part, by type; "type" is read by content.
var partKeys = map[string]*keys{
	"text":        newKeys("type", "text"),
	"image_url":   newKeys("type", "image_url"),
	"input_audio": newKeys("type", "input_audio"),
	"file":        newKeys("type", "file"),
	"refusal":     newKeys("type", "refusal"),
}

// The keys of tool_choice's objects.
var (
	namedChoiceKeys = map[string]*keys{"function": newKeys("type", "function"), "custom": newKeys("type", "custom")}
	choiceNameKeys  = newKeys("name")
	allowedKeys     = newKeys("type", "allowed_tools")
	allowedToolKeys = newKeys("mode", "tools")
)

// content reads a message's content: a string, null, or an array of typed parts, of which
// only the text parts are the message's text (joined with newlines) — the text field of an
// image part is not a question anyone asked.
func content(v strictjson.Value, path loc) (string, error) {
	switch v.Kind() {
	case strictjson.String:
		return v.Str(), nil
	case strictjson.Null:
		return "", nil
	case strictjson.Array:
	default:
		return "", errorf(CodeInvalid, "%s must be a string or an array of content parts", path)
	}
	var texts []string
	for i, p := range v.Elems() {
		pp := path.idx(i)
		typ, err := str(p.Get("type"), pp.key("type"), CodeInvalid)
		if err != nil {
			return "", err
		}
		keys, ok := partKeys[typ]
		if !ok {
			return "", errorf(CodeUnsupported, "%s: content parts of type %q are not ones weir reads (text, image_url, input_audio, file, refusal)", pp, typ)
		}
		err = object(p, pp, keys, CodeInvalid, func(k string, f strictjson.Value) error {
			if typ == "text" && k == "text" {
				t, err := str(f, pp.key("text"), CodeInvalid)
				texts = append(texts, t)
				return err
			}
			return nil
		}, refuse)
		if err != nil {
			return "", err
		}
	}
	return strings.Join(texts, "\n"), nil
}

// historyCalls reads the tool calls of an assistant message of the conversation: the
// tools already called, and the calls tool results answer (grounding names results by them).
func historyCalls(v strictjson.Value, path loc) ([]policies.ChatToolCall, error) {
	if v.Kind() == strictjson.Null {
		return nil, nil
	}
	if v.Kind() != strictjson.Array {
		return nil, errorf(CodeInvalid, "%s must be an array", path)
	}
	out := make([]policies.ChatToolCall, 0, v.Len())
	for i, c := range v.Elems() {
		call, err := readCall(c, path.idx(i), CodeInvalid, refuse)
		if err != nil {
			return nil, err
		}
		var tc policies.ChatToolCall
		tc.ID, tc.Function.Name = call.ID, call.Name
		tc.Function.Arguments = []byte(quote(call.Arguments))
		out = append(out, tc)
	}
	return out, nil
}

// quote returns s as a JSON string.
func quote(s string) string { return string(strictjson.AppendString(nil, s)) }

// toolKeys are the keys of an offered tool and of its definition, by type.
var (
	toolKeys     = newKeys("type", "function", "custom")
	functionDefs = newKeys("name", "description", "parameters", "strict")
	customDefs   = newKeys("name", "description", "format")
)

// tools reads the offered tools: one chat.Tool per element, each named.
func (r *Request) tools(v strictjson.Value) error {
	if v.Kind() == strictjson.Null {
		return nil
	}
	if v.Kind() != strictjson.Array {
		return errorf(CodeInvalid, "tools must be an array")
	}
	for i, t := range v.Elems() {
		path := root.key("tools").idx(i)
		typ, err := str(t.Get("type"), path.key("type"), CodeInvalid)
		if err != nil {
			return err
		}
		if typ != "function" && typ != "custom" {
			return errorf(CodeUnsupported, "%s: tools of type %q are not ones weir narrows (function, custom)", path, typ)
		}
		tool := chat.Tool{Type: typ}
		err = object(t, path, toolKeys, CodeInvalid, func(k string, def strictjson.Value) error {
			if k == "type" {
				return nil
			}
			if k != typ {
				return errorf(CodeInvalid, "%s: a tool of type %s has no %q", path, typ, k)
			}
			keys := functionDefs
			if typ == "custom" {
				keys = customDefs
			}
			return object(def, path.key(k), keys, CodeInvalid, func(dk string, dv strictjson.Value) error {
				if dk == "name" {
					var err error
					tool.Name, err = str(dv, path.key(k).key("name"), CodeInvalid)
					return err
				}
				return nil
			}, refuse)
		}, refuse)
		if err != nil {
			return err
		}
		if tool.Name == "" {
			return errorf(CodeInvalid, "%s.%s.name is required", path, typ)
		}
		r.Chat.Tools = append(r.Chat.Tools, tool)
	}
	return nil
}

// toolChoice reads tool_choice: "none", "auto", "required", a named function or custom
// tool, or an allowed_tools list.
func (r *Request) toolChoice(v strictjson.Value) error {
	switch v.Kind() {
	case strictjson.Null:
		return nil
	case strictjson.String:
		switch s := v.Str(); s {
		case "none", "auto", "required":
			r.Chat.ToolChoice.Mode = s
			return nil
		default:
			return errorf(CodeInvalid, "tool_choice must be none, auto, required or an object, not %q", s)
		}
	case strictjson.Object:
	default:
		return errorf(CodeInvalid, "tool_choice must be a string or an object")
	}
	typ, err := str(v.Get("type"), root.key("tool_choice").key("type"), CodeInvalid)
	if err != nil {
		return err
	}
	switch typ {
	case "function", "custom":
		name := ""
		err := object(v, root.key("tool_choice"), namedChoiceKeys[typ], CodeInvalid, func(k string, f strictjson.Value) error {
			if k == typ {
				return object(f, root.key("tool_choice").key(typ), choiceNameKeys, CodeInvalid, func(_ string, n strictjson.Value) error {
					var err error
					name, err = str(n, root.key("tool_choice").key(typ).key("name"), CodeInvalid)
					return err
				}, refuse)
			}
			return nil
		}, refuse)
		if err == nil && name == "" {
			err = errorf(CodeInvalid, "tool_choice.%s.name is required", typ)
		}
		r.Chat.ToolChoice = chat.ToolChoice{Mode: "named", Name: name}
		return err
	case "allowed_tools":
		r.Chat.ToolChoice.Mode = "allowed_tools"
		return object(v, root.key("tool_choice"), allowedKeys, CodeInvalid, func(k string, f strictjson.Value) error {
			if k != "allowed_tools" {
				return nil
			}
			return object(f, root.key("tool_choice").key("allowed_tools"), allowedToolKeys, CodeInvalid, func(ak string, a strictjson.Value) error {
				if ak != "tools" {
					return nil
				}
				for i, t := range a.Elems() {
					if choiceToolName(t) == "" {
						return errorf(CodeInvalid, "tool_choice.allowed_tools.tools[%d] names no tool", i)
					}
				}
				return nil
			}, refuse)
		}, refuse)
	}
	return errorf(CodeUnsupported, "tool_choice of type %q is not one weir narrows (function, custom, allowed_tools)", typ)
}

// choiceToolName is the name of a tool reference {type, function|custom: {name}}.
func choiceToolName(t strictjson.Value) string {
	typ := t.Get("type").Str()
	if typ != "function" && typ != "custom" {
		return ""
	}
	return t.Get(typ).Get("name").Str()
}
