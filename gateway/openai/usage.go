package openai

import "github.com/weirgw/weir/gateway/internal/strictjson"

// Usage is the token counts of an answer's usage object: what Weir charges to a caller's
// token budget. A count that is absent, negative or not an integer reads as 0.
type Usage struct {
	Prompt, Completion, Total int64
}

// Tokens is the answer's cost in tokens: total_tokens, or prompt plus completion when the
// upstream gives no total.
func (u Usage) Tokens() int64 {
	if u.Total > 0 {
		return u.Total
	}
	return u.Prompt + u.Completion
}

// readUsage reads the counts of a usage object.
func readUsage(v strictjson.Value) Usage {
	if v.Kind() != strictjson.Object {
		return Usage{}
	}
	count := func(key string) int64 {
		n, err := v.Get(key).Int()
		if err != nil || n < 0 {
			return 0
		}
		return n
	}
	return Usage{Prompt: count("prompt_tokens"), Completion: count("completion_tokens"), Total: count("total_tokens")}
}

// Usage returns the completion's token counts (zero without a usage object).
func (c *Completion) Usage() Usage { return c.tokens }

// Usage returns the chunk's token counts: a stream's usage arrives in one chunk, the last,
// when the request asked for it (stream_options.include_usage).
func (c *Chunk) Usage() Usage { return c.tokens }
