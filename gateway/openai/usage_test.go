package openai

import "testing"

func TestUsage(t *testing.T) {
	tests := []struct {
		name, usage string
		want        Usage
		tokens      int64
	}{
		{"all three", `{"prompt_tokens":12,"completion_tokens":30,"total_tokens":42,"prompt_tokens_details":{"cached_tokens":4}}`, Usage{12, 30, 42}, 42},
		{"no total", `{"prompt_tokens":12,"completion_tokens":30}`, Usage{12, 30, 0}, 42},
		{"not integers", `{"prompt_tokens":1.5,"completion_tokens":-3,"total_tokens":"9"}`, Usage{}, 0},
		{"null", `null`, Usage{}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := DecodeCompletion([]byte(`{"id":"x","choices":[{"index":0,"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}],"usage":` + tc.usage + `}`))
			if err != nil {
				t.Fatal(err)
			}
			if c.Usage() != tc.want || c.Usage().Tokens() != tc.tokens {
				t.Errorf("completion usage = %+v (%d)", c.Usage(), c.Usage().Tokens())
			}
			ch, err := DecodeChunk([]byte(`{"id":"x","choices":[],"usage":` + tc.usage + `}`))
			if err != nil {
				t.Fatal(err)
			}
			if ch.Usage() != tc.want {
				t.Errorf("chunk usage = %+v", ch.Usage())
			}
		})
	}
}
