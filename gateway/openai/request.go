package openai

import (
	"github.com/weirgw/weir/gateway/chat"
	"github.com/weirgw/weir/gateway/internal/strictjson"
	"github.com/weirgw/weir/policies"
)

// Request is a decoded chat completion request: its neutral form, and the parsed document
// Weir encodes the request it forwards from.
type Request struct {
	Chat chat.Request
	// AskUsage makes Encode ask a stream's upstream for its usage
	// (stream_options.include_usage), which Weir needs to charge a token budget; the usage
	// chunk goes on to the client only when it asked too (ClientUsage).
	AskUsage    bool
	doc         *strictjson.Doc
	clientUsage bool // stream_options.include_usage, as the client sent it
}

// ClientUsage reports whether the client asked a stream's usage itself.
func (r *Request) ClientUsage() bool { return r.clientUsage }

// requestKeys are the top-level parameters Weir forwards. Those it judges are read here;
// the others are passed on as parsed (they steer the model but carry no tools and no text a
// policy reads).
var requestKeys = newKeys(
	"model", "messages", "tools", "tool_choice", "parallel_tool_calls", "stream", "stream_options",
	"user", "temperature", "top_p", "n", "stop", "max_tokens", "max_completion_tokens",
	"presence_penalty", "frequency_penalty", "logit_bias", "logprobs", "top_logprobs", "seed",
	"response_format", "service_tier", "metadata", "store", "reasoning_effort", "modalities",
	"audio", "prediction", "web_search_options", "verbosity", "safety_identifier",
	"prompt_cache_key",
	"functions", "function_call", // known only to be refused with a clear message
)

// DecodeRequest reads a chat completion request strictly: a JSON object with a non-empty
// messages array, every key known, every offered tool named.
func DecodeRequest(body []byte) (*Request, error) {
	doc, err := parse(body, "the request body", CodeInvalidJSON, CodeAmbiguous)
	if err != nil {
		return nil, err
	}
	r := &Request{doc: doc}
	hasMessages := false
	err = object(doc.Root(), root, requestKeys, CodeInvalid, func(k string, v strictjson.Value) error {
		switch k {
		case "messages":
			hasMessages = true
			return r.messages(v)
		case "tools":
			return r.tools(v)
		case "tool_choice":
			return r.toolChoice(v)
		case "stream":
			return r.stream(v)
		case "user":
			u, err := str(v, root.key("user"), CodeInvalid)
			r.Chat.EndUser = u
			return err
		case "functions", "function_call":
			if v.Kind() != strictjson.Null {
				return errorf(CodeUnsupported, "%s belongs to the deprecated function-calling API, which weir does not inspect; use tools and tool_choice", k)
			}
		}
		return nil
	}, refuse)
	if err != nil {
		return nil, err
	}
	if !hasMessages || len(r.Chat.Messages) == 0 {
		return nil, errorf(CodeInvalid, "messages is required and must not be empty")
	}
	r.Chat.Question = lastUserText(r.Chat.Messages)
	r.clientUsage = doc.Root().Get("stream_options").Get("include_usage").Bool()
	return r, nil
}

func (r *Request) stream(v strictjson.Value) error {
	switch v.Kind() {
	case strictjson.Bool:
		r.Chat.Stream = v.Bool()
	case strictjson.Null:
	default:
		return errorf(CodeInvalid, "stream must be a boolean")
	}
	return nil
}

// lastUserText is the text Weir classifies: the last user message's.
func lastUserText(msgs []policies.Message) string {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "user" {
			return string(msgs[i].Content)
		}
	}
	return ""
}

// Encode returns the request to forward, encoded by Weir from the parsed document: the
// offered tools are those offer keeps; with none left, tools, tool_choice and
// parallel_tool_calls are left out (the API refuses a tool_choice without tools); a
// tool_choice forcing a removed tool is left out, and an allowed_tools choice keeps only
// the kept tools.
func (r *Request) Encode(offer func(name string) bool) []byte {
	kept := 0
	for _, t := range r.Chat.Tools {
		if offer(t.Name) {
			kept++
		}
	}
	var w strictjson.Writer
	w.Reset(make([]byte, 0, len(r.doc.Source())+16))
	w.ObjectStart()
	for k, v := range r.doc.Root().Members() {
		switch {
		case k == "tools" && v.Kind() == strictjson.Array:
			if kept == 0 {
				continue
			}
			w.Key(k)
			w.ArrayStart()
			for i, t := range v.Elems() {
				if offer(r.Chat.Tools[i].Name) {
					w.Value(t)
				}
			}
			w.ArrayEnd()
		case (k == "tool_choice" || k == "parallel_tool_calls") && kept == 0 && len(r.Chat.Tools) > 0:
		case k == "tool_choice":
			r.encodeToolChoice(&w, v, offer)
		case k == "stream_options" && r.askUsage():
			encodeStreamOptions(&w, v)
		default:
			w.Key(k)
			w.Value(v)
		}
	}
	if r.askUsage() && r.doc.Root().Get("stream_options").Kind() == strictjson.Missing {
		encodeStreamOptions(&w, strictjson.Value{})
	}
	w.ObjectEnd()
	return w.Bytes()
}

// Release hands the parsed document back for reuse: call it once the request was encoded
// (the neutral Chat form stays valid); Encode may not be called afterwards.
func (r *Request) Release() {
	if r.doc != nil {
		r.doc.Release()
		r.doc = nil
	}
}

// askUsage reports whether the forwarded stream must ask the upstream for usage (a token
// budget applies) when the client did not.
func (r *Request) askUsage() bool { return r.AskUsage && r.Chat.Stream }

// encodeStreamOptions writes the client's stream_options with include_usage set.
func encodeStreamOptions(w *strictjson.Writer, v strictjson.Value) {
	w.Key("stream_options")
	w.ObjectStart()
	if v.Kind() == strictjson.Object {
		for k, f := range v.Members() {
			if k != "include_usage" {
				w.Key(k)
				w.Value(f)
			}
		}
	}
	w.Key("include_usage")
	w.Bool(true)
	w.ObjectEnd()
}

// encodeToolChoice writes tool_choice unless it forces a tool offer removes.
func (r *Request) encodeToolChoice(w *strictjson.Writer, v strictjson.Value, offer func(string) bool) {
	tc := r.Chat.ToolChoice
	switch {
	case tc.Mode == "named" && !offer(tc.Name):
		return
	case tc.Mode == "allowed_tools":
		at := v.Get("allowed_tools")
		var names []strictjson.Value
		for _, t := range at.Get("tools").Elems() {
			if offer(choiceToolName(t)) {
				names = append(names, t)
			}
		}
		if len(names) == 0 {
			return
		}
		w.Key("tool_choice")
		w.ObjectStart()
		w.Key("type")
		w.String("allowed_tools")
		w.Key("allowed_tools")
		w.ObjectStart()
		if m := at.Get("mode"); m.Kind() != strictjson.Missing {
			w.Key("mode")
			w.Value(m)
		}
		w.Key("tools")
		w.ArrayStart()
		for _, t := range names {
			w.Value(t)
		}
		w.ArrayEnd()
		w.ObjectEnd()
		w.ObjectEnd()
		return
	}
	w.Key("tool_choice")
	w.Value(v)
}

// roles are the message roles Weir reads; "function" messages belong to the legacy API.
var roles = []string{"system", "developer", "user", "assistant", "tool"}

func isRole(s string) bool {
	for _, r := range roles {
		if s == r {
			return true
		}
	}
	return false
}
