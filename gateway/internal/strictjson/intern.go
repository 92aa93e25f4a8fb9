package strictjson

// internTable holds the keys and short string values of the OpenAI wire formats, so that
// Members and Str return them without allocating: a chat request or a stream chunk is
// mostly made of these.
var internTable, maxIntern = func() (map[string]string, int) {
	words := []string{
		// keys
		"id", "object", "created", "model", "choices", "index", "message", "delta",
		"role", "content", "refusal", "reasoning_content", "tool_calls", "tool_call_id",
		"function", "functions", "function_call", "name", "arguments", "type", "custom",
		"input", "finish_reason", "logprobs", "usage", "prompt_tokens",
		"completion_tokens", "total_tokens", "prompt_tokens_details",
		"completion_tokens_details", "cached_tokens", "reasoning_tokens",
		"system_fingerprint", "service_tier", "messages", "tools", "tool_choice",
		"parallel_tool_calls", "stream", "stream_options", "include_usage",
		"temperature", "top_p", "max_tokens", "max_completion_tokens", "n", "stop",
		"seed", "user", "response_format", "json_schema", "schema", "strict",
		"description", "parameters", "properties", "required", "items", "enum",
		"additionalProperties", "text", "image_url", "url", "detail", "annotations",
		"audio", "error", "code", "param", "metadata", "store", "modalities",
		"reasoning_effort", "presence_penalty", "frequency_penalty", "logit_bias",
		"top_logprobs", "format",
		// values
		"system", "developer", "user", "assistant", "tool", "chat.completion",
		"chat.completion.chunk", "length", "content_filter", "auto", "none",
		"string", "number", "integer", "boolean", "array", "null", "output_text",
		"json_object", "high", "low", "medium", "default",
	}
	m := make(map[string]string, len(words))
	longest := 0
	for _, w := range words {
		m[w] = w
		longest = max(longest, len(w))
	}
	return m, longest
}()

// intern returns b as a string, without allocating when it is in internTable. A string
// longer than its longest word (maxIntern) is not looked up: hashing a long answer to
// find it absent would cost more than the copy.
func intern(b []byte) string {
	if len(b) <= maxIntern {
		if s, ok := internTable[string(b)]; ok {
			return s
		}
	}
	return string(b)
}
