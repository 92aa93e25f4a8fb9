package gateway

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/weirgw/weir/policies"
)

// chatRequest is the part of an OpenAI chat completion request Weir reads. The request is
// forwarded with every field it had: the client's bytes as they are (fast path) or, when
// the body had to be decoded by encoding/json, its re-encoded top-level fields.
type chatRequest struct {
	raw       map[string]json.RawMessage // the encoding/json path's top-level fields
	body      []byte                     // the fast path: the client's body (a copy)
	members   []member                   // the fast path: the body's top-level members
	omit      uint8                      // the fast path: members narrowTools removed (omit* bits)
	narrowed  bool                       // the fast path: tools were narrowed
	Messages  []policies.Message
	Tools     []json.RawMessage
	toolNames []string // the fast path: the names of Tools, read in the same pass (nil: not read)
	Stream    bool
	User      string
}

// Members of the request narrowTools may remove.
const (
	omitTools = 1 << iota
	omitToolChoice
	omitParallelToolCalls
)

// decodeChatRequest parses body strictly enough to serve it: a JSON object with a
// non-empty messages array. The request keeps a copy of body, never body itself: body
// belongs to the fasthttp.RequestCtx.
func decodeChatRequest(body []byte) (*chatRequest, error) {
	own := bytes.Clone(body)
	if req, ok := scanChatRequest(own); ok {
		return req, nil
	}
	return decodeChatRequestJSON(own)
}

// decodeChatRequestJSON is decodeChatRequest with encoding/json: the reference the fast
// path (scanChatRequest) agrees with, and the path that reports every error.
func decodeChatRequestJSON(body []byte) (*chatRequest, error) {
	if !utf8.Valid(body) {
		return nil, errorf(KindBadRequest, "invalid_json", "the request body is not valid UTF-8")
	}
	req := &chatRequest{}
	if err := json.Unmarshal(body, &req.raw); err != nil || req.raw == nil {
		return nil, errorf(KindBadRequest, "invalid_json", "%s", bodyProblem(body, err))
	}
	if err := legacyFunctions(req.raw); err != nil {
		return nil, err
	}
	msgs, ok := req.raw["messages"]
	if !ok {
		return nil, errorf(KindBadRequest, "invalid_request", "messages is required")
	}
	if err := json.Unmarshal(msgs, &req.Messages); err != nil {
		return nil, errorf(KindBadRequest, "invalid_request", "messages: %s", jsonProblem(err))
	}
	if key := caseTwin(msgs); key != "" {
		return nil, errorf(KindBadRequest, "invalid_request", "messages: the key %q appears twice in one object, in different case; Weir would classify one and the model read the other", key)
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

// caseTwin returns a key that appears in one object of doc next to another spelling of it
// in different case ("content" and "Content"), or "". encoding/json matches keys without
// regard to case and keeps the last, while the model's server reads the exact key: with
// both, a client could have Weir classify text the model never reads.
func caseTwin(doc []byte) string {
	dec := json.NewDecoder(bytes.NewReader(doc))
	type frame struct {
		object bool
		keys   map[string]string // folded → as written
		key    bool              // the next string token is a key
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return ""
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{':
				stack = append(stack, &frame{object: true, keys: map[string]string{}, key: true})
				continue
			case '[':
				stack = append(stack, &frame{})
				continue
			default:
				stack = stack[:len(stack)-1]
				if len(stack) > 0 && stack[len(stack)-1].object {
					stack[len(stack)-1].key = true
				}
				continue
			}
		case string:
			if top != nil && top.object && top.key {
				folded := strings.ToLower(t)
				if prev, ok := top.keys[folded]; ok && prev != t {
					return t
				}
				top.keys[folded] = t
				top.key = false
				continue
			}
		}
		if top != nil && top.object {
			top.key = true // a scalar value ends the member
		}
	}
}

func isNull(b json.RawMessage) bool { return len(b) == 0 || string(bytes.TrimSpace(b)) == "null" }

// jsonProblem describes a decoding error without echoing the body.
func jsonProblem(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		at := ""
		if te.Field != "" {
			at = " at " + te.Field
		}
		return "wrong type" + at + ": got " + te.Value + ", want " + jsonKind(te.Field, te.Type)
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
	if name, ok := scanToolName(raw); ok {
		return name
	}
	return toolNameJSON(raw)
}

// toolNameJSON is toolName with encoding/json, for what scanToolName does not take.
func toolNameJSON(raw json.RawMessage) string {
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

// offeredTools splits the offered tools into those allowed names and the names of the
// others.
func (r *chatRequest) offeredTools(allowed []string) (kept []json.RawMessage, removed []string) {
	if len(r.Tools) == 0 {
		return nil, nil
	}
	kept = r.Tools[:0:0]
	for i, t := range r.Tools {
		if name := r.toolName(i); contains(allowed, name) {
			kept = append(kept, t)
		} else {
			removed = append(removed, name)
		}
	}
	return kept, removed
}

// toolName returns the name of the i-th offered tool.
func (r *chatRequest) toolName(i int) string {
	if len(r.toolNames) == len(r.Tools) {
		return r.toolNames[i]
	}
	return toolName(r.Tools[i])
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// narrowTools keeps the offered tools that allowed names and returns the names removed.
// With no tool left, tools, tool_choice and parallel_tool_calls are dropped (the API
// refuses a tool_choice without tools); a tool_choice forcing a removed tool is dropped.
func (r *chatRequest) narrowTools(allowed []string) (removed []string) {
	kept, removed := r.offeredTools(allowed)
	if len(removed) == 0 {
		return nil
	}
	r.Tools, r.toolNames = kept, nil
	if r.raw == nil {
		r.narrowFast(allowed)
		return removed
	}
	if len(kept) == 0 {
		delete(r.raw, "tools")
		delete(r.raw, "tool_choice")
		delete(r.raw, "parallel_tool_calls")
		return removed
	}
	r.raw["tools"], _ = json.Marshal(kept)
	if tc, has := r.raw["tool_choice"]; has {
		if forced := toolName(tc); forced != "" && !contains(allowed, forced) {
			delete(r.raw, "tool_choice")
		}
	}
	return removed
}

// narrowFast marks the members the fast path's encode leaves out or replaces.
func (r *chatRequest) narrowFast(allowed []string) {
	r.narrowed = true
	if len(r.Tools) == 0 {
		r.omit |= omitTools | omitToolChoice | omitParallelToolCalls
		return
	}
	for _, m := range r.members {
		if string(r.memberKey(m)) == "tool_choice" {
			if forced := toolName(r.body[m.val:m.end]); forced != "" && !contains(allowed, forced) {
				r.omit |= omitToolChoice
			}
		}
	}
}

func (r *chatRequest) memberKey(m member) []byte { return r.body[m.key+1 : m.keyEnd-1] }

// encode returns the request to forward: the client's body when nothing was narrowed.
func (r *chatRequest) encode() ([]byte, error) {
	if r.raw != nil {
		return json.Marshal(r.raw)
	}
	if !r.narrowed {
		return r.body, nil
	}
	return r.spliced(), nil
}

// spliced is the client's body with the narrowed tools and without the removed members.
func (r *chatRequest) spliced() []byte {
	b := r.body
	out := make([]byte, 0, len(b))
	out = append(out, b[:r.members[0].key]...) // '{' and white space
	wrote := false
	for _, m := range r.members {
		bit := 0
		switch string(r.memberKey(m)) {
		case "tools":
			bit = omitTools
		case "tool_choice":
			bit = omitToolChoice
		case "parallel_tool_calls":
			bit = omitParallelToolCalls
		}
		if r.omit&uint8(bit) != 0 {
			continue
		}
		if wrote {
			out = append(out, ',')
		}
		wrote = true
		if bit != omitTools {
			out = append(out, b[m.key:m.end]...)
			continue
		}
		out = append(out, b[m.key:m.val]...)
		out = append(out, '[')
		for i, t := range r.Tools {
			if i > 0 {
				out = append(out, ',')
			}
			out = append(out, t...)
		}
		out = append(out, ']')
	}
	return append(out, b[r.members[len(r.members)-1].end:]...) // white space and '}'
}

// toolsCalled returns the tools the model already used in the conversation.
func (r *chatRequest) toolsCalled() []string { return policies.ToolsCalled(r.Messages) }
