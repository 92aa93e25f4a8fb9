package strictjson

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// The structs encoding/json decodes into in the comparison: what a Go client of the
// OpenAI API declares.
type (
	benchRequest struct {
		Model    string `json:"model"`
		Messages []struct {
			Role       string          `json:"role"`
			Content    json.RawMessage `json:"content"`
			ToolCalls  []benchCall     `json:"tool_calls"`
			ToolCallID string          `json:"tool_call_id"`
		} `json:"messages"`
		Tools []struct {
			Type     string `json:"type"`
			Function struct {
				Name        string          `json:"name"`
				Description string          `json:"description"`
				Parameters  json.RawMessage `json:"parameters"`
				Strict      bool            `json:"strict"`
			} `json:"function"`
		} `json:"tools"`
		ToolChoice  any     `json:"tool_choice"`
		Temperature float64 `json:"temperature"`
		MaxTokens   int     `json:"max_tokens"`
		Stream      bool    `json:"stream"`
		User        string  `json:"user"`
	}
	benchCall struct {
		ID       string `json:"id"`
		Type     string `json:"type"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
		Custom struct {
			Name  string `json:"name"`
			Input string `json:"input"`
		} `json:"custom"`
	}
	benchCompletion struct {
		ID      string `json:"id"`
		Object  string `json:"object"`
		Created int64  `json:"created"`
		Model   string `json:"model"`
		Choices []struct {
			Index   int `json:"index"`
			Message struct {
				Role      string      `json:"role"`
				Content   *string     `json:"content"`
				Refusal   *string     `json:"refusal"`
				ToolCalls []benchCall `json:"tool_calls"`
			} `json:"message"`
			Delta struct {
				Role    string  `json:"role"`
				Content *string `json:"content"`
			} `json:"delta"`
			FinishReason *string `json:"finish_reason"`
		} `json:"choices"`
		Usage map[string]any `json:"usage"`
	}
)

type benchDoc struct {
	name   string
	doc    []byte
	target func() any // a fresh struct to decode into
}

func benchDocs(b *testing.B) []benchDoc {
	read := func(name string) []byte {
		doc, err := os.ReadFile("testdata/" + name + ".json")
		if err != nil {
			b.Fatal(err)
		}
		return doc
	}
	req := func() any { return new(benchRequest) }
	comp := func() any { return new(benchCompletion) }
	return []benchDoc{
		{"chat_request_2KB", read("chat_request"), req},
		{"completion_tools_4KB", read("completion_tools"), comp},
		{"stream_chunk_200B", read("stream_chunk"), comp},
		{"answer_1MB", bigAnswer(1 << 20), comp},
	}
}

// bigAnswer returns a chat completion whose content is about n bytes of prose: lines of
// text with quotes, newlines and a few non-ASCII letters, as a long generated answer.
func bigAnswer(n int) []byte {
	line := `The "eu-w2-b" pool served 1,284 requests/s at 14:00 and 97 at 14:06; the 502 rate peaked at 38.5% (café, naïve).` + "\n"
	content := strings.Repeat(line, n/len(line))
	var w Writer
	w.ObjectStart()
	w.Key("id")
	w.String("chatcmpl-1")
	w.Key("object")
	w.String("chat.completion")
	w.Key("choices")
	w.ArrayStart()
	w.ObjectStart()
	w.Key("index")
	w.Int(0)
	w.Key("message")
	w.ObjectStart()
	w.Key("role")
	w.String("assistant")
	w.Key("content")
	w.String(content)
	w.ObjectEnd()
	w.Key("finish_reason")
	w.String("stop")
	w.ObjectEnd()
	w.ArrayEnd()
	w.ObjectEnd()
	return w.Bytes()
}

func BenchmarkParse(b *testing.B) {
	for _, bd := range benchDocs(b) {
		b.Run(bd.name, func(b *testing.B) {
			b.SetBytes(int64(len(bd.doc)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Parse(bd.doc); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkParseRead parses and reads every string, as a caller judging the whole
// document does.
func BenchmarkParseRead(b *testing.B) {
	for _, bd := range benchDocs(b) {
		b.Run(bd.name, func(b *testing.B) {
			b.SetBytes(int64(len(bd.doc)))
			b.ReportAllocs()
			for b.Loop() {
				d, err := Parse(bd.doc)
				if err != nil {
					b.Fatal(err)
				}
				readAll(d.Root())
			}
		})
	}
}

func readAll(v Value) (n int) {
	for k, m := range v.Members() {
		n += len(k) + readAll(m)
	}
	for _, e := range v.Elems() {
		n += readAll(e)
	}
	return n + len(v.Str())
}

func BenchmarkUnmarshalMap(b *testing.B) {
	for _, bd := range benchDocs(b) {
		b.Run(bd.name, func(b *testing.B) {
			b.SetBytes(int64(len(bd.doc)))
			b.ReportAllocs()
			for b.Loop() {
				var m map[string]any
				if err := json.Unmarshal(bd.doc, &m); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkUnmarshalStruct(b *testing.B) {
	for _, bd := range benchDocs(b) {
		b.Run(bd.name, func(b *testing.B) {
			b.SetBytes(int64(len(bd.doc)))
			b.ReportAllocs()
			for b.Loop() {
				if err := json.Unmarshal(bd.doc, bd.target()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkAppendValue re-encodes a parsed document, as Weir does before forwarding it.
func BenchmarkAppendValue(b *testing.B) {
	for _, bd := range benchDocs(b) {
		d, err := Parse(bd.doc)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(bd.name, func(b *testing.B) {
			b.SetBytes(int64(len(bd.doc)))
			b.ReportAllocs()
			buf := make([]byte, 0, len(bd.doc)+64)
			for b.Loop() {
				buf = AppendValue(buf[:0], d.Root())
			}
		})
	}
}

// BenchmarkAppendString encodes a long string of prose, the bulk of an answer.
func BenchmarkAppendString(b *testing.B) {
	s := strings.Repeat("The pool served 1,284 requests/s at 14:00; the \"502\" rate peaked at 38.5% (café).\n", 1000)
	b.SetBytes(int64(len(s)))
	b.ReportAllocs()
	buf := make([]byte, 0, 2*len(s))
	for b.Loop() {
		buf = AppendString(buf[:0], s)
	}
}
