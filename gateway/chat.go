package gateway

import (
	"bytes"
	"encoding/json"
	"errors"

	"github.com/weirgw/weir/policies"
)

// chatRequest is the part of an OpenAI chat completion request Weir reads. The raw
// top-level fields are kept so the request is forwarded with every field it had.
type chatRequest struct {
	raw      map[string]json.RawMessage
	Messages []policies.Message
	Tools    []json.RawMessage
	Stream   bool
	User     string
}

// decodeChatRequest parses body strictly enough to serve it: a JSON object with a
// non-empty messages array.
func decodeChatRequest(body []byte) (*chatRequest, error) {
	req := &chatRequest{}
	if err := json.Unmarshal(body, &req.raw); err != nil || req.raw == nil {
		return nil, errorf(KindBadRequest, "invalid_json", "the request body is not a JSON object")
	}
	msgs, ok := req.raw["messages"]
	if !ok {
		return nil, errorf(KindBadRequest, "invalid_request", "messages is required")
	}
	if err := json.Unmarshal(msgs, &req.Messages); err != nil {
		return nil, errorf(KindBadRequest, "invalid_request", "messages: %s", jsonProblem(err))
	}
	if len(req.Messages) == 0 {
		return nil, errorf(KindBadRequest, "invalid_request", "messages must not be empty")
	}
	if t, ok := req.raw["tools"]; ok && !isNull(t) {
		if err := json.Unmarshal(t, &req.Tools); err != nil {
			return nil, errorf(KindBadRequest, "invalid_request", "tools: %s", jsonProblem(err))
		}
	}
	if s, ok := req.raw["stream"]; ok && !isNull(s) {
		if err := json.Unmarshal(s, &req.Stream); err != nil {
			return nil, errorf(KindBadRequest, "invalid_request", "stream must be a boolean")
		}
	}
	if u, ok := req.raw["user"]; ok {
		_ = json.Unmarshal(u, &req.User)
	}
	return req, nil
}

func isNull(b json.RawMessage) bool { return len(b) == 0 || string(bytes.TrimSpace(b)) == "null" }

// jsonProblem describes a decoding error without echoing the body.
func jsonProblem(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return "wrong type at " + te.Field + ": want " + te.Type.String()
	}
	return "malformed JSON"
}

// lastUserText is the text Weir classifies: the last user message.
func (r *chatRequest) lastUserText() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "user" {
			return string(r.Messages[i].Content)
		}
	}
	return ""
}

// toolName returns the function name of an OpenAI tool definition.
func toolName(raw json.RawMessage) string {
	var t struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
		Name string `json:"name"`
	}
	_ = json.Unmarshal(raw, &t)
	if t.Function.Name != "" {
		return t.Function.Name
	}
	return t.Name
}

// narrowTools keeps the offered tools that allowed names and returns the names removed.
// With no tool left, tools, tool_choice and parallel_tool_calls are dropped (the API
// refuses a tool_choice without tools); a tool_choice forcing a removed tool is dropped.
func (r *chatRequest) narrowTools(allowed []string) (removed []string) {
	if len(r.Tools) == 0 {
		return nil
	}
	ok := make(map[string]bool, len(allowed))
	for _, a := range allowed {
		ok[a] = true
	}
	kept := r.Tools[:0:0]
	for _, t := range r.Tools {
		if name := toolName(t); ok[name] {
			kept = append(kept, t)
		} else {
			removed = append(removed, name)
		}
	}
	if len(removed) == 0 {
		return nil
	}
	r.Tools = kept
	if len(kept) == 0 {
		delete(r.raw, "tools")
		delete(r.raw, "tool_choice")
		delete(r.raw, "parallel_tool_calls")
		return removed
	}
	r.raw["tools"], _ = json.Marshal(kept)
	if tc, has := r.raw["tool_choice"]; has {
		if forced := toolName(tc); forced != "" && !ok[forced] {
			delete(r.raw, "tool_choice")
		}
	}
	return removed
}

// encode returns the request to forward.
func (r *chatRequest) encode() ([]byte, error) { return json.Marshal(r.raw) }

// toolsCalled returns the tools the model already used in the conversation.
func (r *chatRequest) toolsCalled() []string { return policies.ToolsCalled(r.Messages) }
