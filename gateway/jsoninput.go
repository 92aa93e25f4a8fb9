package gateway

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// bodyProblem says why a request body is not a JSON object, echoing at most the offending
// character.
func bodyProblem(body []byte, err error) string {
	var se *json.SyntaxError
	switch {
	case len(bytes.TrimSpace(body)) == 0:
		return "the request body is empty; want a JSON object"
	case errors.As(err, &se) && strings.Contains(se.Error(), "exceeded max depth"):
		return "the request body is nested too deeply"
	case errors.As(err, &se):
		return fmt.Sprintf("the request body is not valid JSON: %s (byte %d)", se.Error(), se.Offset)
	default:
		return "the request body is not a JSON object"
	}
}

// jsonKind names the JSON value a Go type decodes from, for messages to API clients, who
// know JSON, not Go. A message's content (policies.Content) takes a string or an array of
// text parts; its decoder reports only the array.
func jsonKind(field string, t reflect.Type) string {
	if field == "content" || strings.HasSuffix(field, ".content") {
		return "a string or an array of text parts"
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return "a number"
	default:
		return t.String()
	}
}

// legacyFunctions refuses the deprecated function-calling parameters: Weir narrows and
// inspects tools and tool_calls only, so a function offered through them would reach the
// model, and its call the client, unjudged.
func legacyFunctions(raw map[string]json.RawMessage) error {
	for _, k := range []string{"functions", "function_call"} {
		if v, ok := raw[k]; ok && !isNull(v) {
			return errorf(KindBadRequest, "unsupported_parameter",
				"%s belongs to the deprecated function-calling API, which weir does not inspect; use tools and tool_choice", k)
		}
	}
	return nil
}

// uninspectable refuses an answer that decodes but carries a call Weir would not judge as
// the client runs it: a legacy function_call, or a tool call with a key that differs only
// in case from a field Weir reads. It holds for both decodings (scanChatResponse, whose
// choices have no msg map and which refuses escaped keys, and decodeChatResponseJSON).
func uninspectable(r *chatResponse) error {
	legacy := hasQuoted(r.body, "function_call")
	for _, c := range r.choices {
		if c.msg != nil {
			legacy = !isNull(c.msg["function_call"])
		}
		if legacy {
			break
		}
	}
	if legacy {
		full, err := decodeChatResponseJSON(r.body)
		if err != nil {
			return err
		}
		for _, c := range full.choices {
			if !isNull(c.msg["function_call"]) {
				return errLegacyFunctionCall
			}
		}
	}
	for _, c := range r.choices {
		for _, call := range c.rawCalls {
			if foldedKey(call) && caseAmbiguous(call) {
				return errorf(KindUpstreamDown, "upstream_invalid_response",
					"the upstream answer is not a chat completion (message.tool_calls: a key differs only in case from id, type, function, name or arguments)")
			}
		}
	}
	return nil
}

// foldedKeys are the tool-call fields Weir reads; foldedKey is a quick look for any of them
// quoted in another case, before caseAmbiguous decodes the call to be sure.
var foldedKeys = [][]byte{[]byte("id"), []byte("type"), []byte("name"), []byte("function"), []byte("arguments")}

func foldedKey(call []byte) bool {
	for i := bytes.IndexByte(call, '"'); i >= 0 && i < len(call); {
		rest := call[i+1:]
		for _, k := range foldedKeys {
			if len(rest) > len(k) && rest[len(k)] == '"' && bytes.EqualFold(rest[:len(k)], k) && !bytes.Equal(rest[:len(k)], k) {
				return true
			}
		}
		j := bytes.IndexByte(rest, '"')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

// errLegacyFunctionCall refuses an answer in the deprecated function-calling format (a
// message.function_call or a delta.function_call), which Weir does not inspect.
var errLegacyFunctionCall = errorf(KindUpstreamDown, "upstream_invalid_response",
	"the upstream answered with a legacy function_call, which weir does not inspect")

// caseAmbiguous reports whether a tool call object has a key that differs only in case
// from a field Weir reads (id, type, function, and function's name and arguments).
// encoding/json matches keys case-insensitively and keeps the last, clients match them
// exactly: {"function": {"name": "blocked"}, "Function": {"name": "allowed"}} would be
// judged as the allowed tool and run as the blocked one.
func caseAmbiguous(call json.RawMessage) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(call, &m) != nil {
		return true
	}
	for k, v := range m {
		switch lower := strings.ToLower(k); lower {
		case "id", "type", "name", "arguments":
			if k != lower {
				return true
			}
		case "function":
			if k != lower || (!isNull(v) && caseAmbiguous(v)) {
				return true
			}
		}
	}
	return false
}
