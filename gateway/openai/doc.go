// Package openai is the codec of the OpenAI chat completions wire format: it reads a chat
// request, a chat completion, a stream chunk, a models list and an upstream error into the
// protocol-neutral types of package chat, and writes Weir's own bytes back from the values
// it judged. It knows nothing of HTTP, policies or grounding.
//
// Every document is parsed by gateway/internal/strictjson, which refuses what two readers
// could read differently (duplicate keys, keys equal under case folding, invalid UTF-8, lone
// surrogates). On top of that, each object is read against an explicit allowlist of its
// keys, exact and case-sensitive; a key that differs only in case from a known key is
// refused even alone (`Tool_calls`, `Content`, `ſtream`): Go clients built on encoding/json
// would read it as the known field, Python and JavaScript clients would not. What happens to
// other keys depends on who sent them:
//
//   - A client's request: unknown keys are refused (400, naming the key), at the top level,
//     in messages, content parts, tools and tool_choice; subtrees Weir does not judge but
//     the model reads (response_format, tools[].function.parameters, metadata, …) are
//     passed on as parsed. The legacy functions / function_call API is refused.
//   - An upstream's answer: unknown keys are dropped, never forwarded; Weir encodes the
//     answer from what it read. Readable text — content (a string, or parts of type text
//     or output_text), refusal, reasoning_content — is read for the answer check; other
//     content part types, unknown tool-call types and a legacy function_call are refused
//     (502). logprobs, annotations and audio are dropped: they carry text Weir does not
//     judge. usage keeps only numbers.
//
// Tool calls are function calls {id, type: function, function: {name, arguments}} or custom
// calls {id, type: custom, custom: {name, input}}; arguments that are JSON are parsed
// strictly too and forwarded as Weir re-encoded them, so the client runs what the policy
// read.
package openai
