package policies

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// ParseArguments parses a tool call's arguments as a model sends them: a JSON string that
// must hold one JSON object of at most limit bytes. Empty or blank arguments mean no
// arguments ({}). A problem is returned as a message for ToolCall.ArgumentsError, never a
// panic: the tools decision turns it into a tool_arguments_invalid violation.
func ParseArguments(raw string, limit int) (args any, problem string) {
	if limit > 0 && len(raw) > limit {
		return nil, fmt.Sprintf("arguments are %d bytes, over the limit of %d", len(raw), limit)
	}
	// The decoder reads the string itself: converting it to []byte first would copy it.
	src := strings.TrimSpace(raw)
	if len(src) == 0 {
		return map[string]any{}, ""
	}
	if m, ok := parseObjectFast(src); ok {
		return m, ""
	}
	dec := json.NewDecoder(strings.NewReader(src))
	dec.UseNumber()
	if err := dec.Decode(&args); err != nil {
		return nil, "invalid JSON: " + err.Error()
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, "invalid JSON: data after the arguments object"
	}
	if _, ok := args.(map[string]any); !ok {
		return nil, fmt.Sprintf("arguments must be a JSON object, got %s", typeName(args))
	}
	return args, ""
}

// ToolCall builds a ToolCall from a model's raw arguments with the bundle's size limit.
func (b *Bundle) ToolCall(id, name, rawArguments string) ToolCall {
	args, problem := ParseArguments(rawArguments, b.data.maxArgumentBytes)
	tc := ToolCall{ID: id, Name: name, Arguments: args, ArgumentsError: problem}
	// A bundle whose tools and response decisions both run in Go (golib.go) reads only the
	// call's name and arguments_error: its arguments are converted only if a decision falls
	// back to OPA, which does it then (ToolCall.term).
	tc.cacheArgs(!b.golib.tools || !b.golib.response)
	return tc
}
