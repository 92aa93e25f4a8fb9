package clientview

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
)

// decodeExact decodes one JSON object the way openai-python and openai-node do: exact
// keys, the last of duplicates kept, numbers as written.
func decodeExact(data []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("data after the JSON document")
	}
	return m, nil
}

// exactChunk reads a completion (key "message") or a stream event (key "delta").
func exactChunk(m map[string]any, key string) chunk {
	var c chunk
	for _, e := range list(m["choices"]) {
		cm := obj(e)
		c.choices = append(c.choices, choicePart{
			index:  num(cm["index"]),
			msg:    exactMessage(obj(cm[key])),
			finish: str(cm["finish_reason"]),
		})
	}
	c.err = exactError(m["error"])
	return c
}

func exactMessage(m map[string]any) message {
	msg := message{refusal: str(m["refusal"]), reasoning: str(m["reasoning_content"])}
	msg.content, msg.parts = exactContent(m["content"])
	for _, e := range list(m["tool_calls"]) {
		msg.calls = append(msg.calls, exactCall(obj(e)))
	}
	return msg
}

// exactContent reads a content: a string, or parts whose texts are joined with "\n".
func exactContent(v any) (string, []string) {
	if s, ok := v.(string); ok {
		return s, nil
	}
	var texts, types []string
	for _, e := range list(v) {
		p := obj(e)
		if typ := str(p["type"]); textPart(typ) {
			texts = append(texts, str(p["text"]))
		} else {
			types = append(types, typ)
		}
	}
	return strings.Join(texts, "\n"), types
}

func exactCall(m map[string]any) callPart {
	fn, custom := obj(m["function"]), obj(m["custom"])
	_, hasIndex := m["index"].(json.Number)
	return callPart{
		index: num(m["index"]), hasIndex: hasIndex,
		id: str(m["id"]), typ: str(m["type"]),
		fnName: str(fn["name"]), args: str(fn["arguments"]),
		customName: str(custom["name"]), input: str(custom["input"]),
	}
}

// exactError reads an error member as the SDKs test it: null and false are no error.
func exactError(v any) errorPart {
	switch v := v.(type) {
	case nil:
		return errorPart{}
	case bool:
		return errorPart{present: v, message: "true"}
	case map[string]any:
		if msg, ok := v["message"].(string); ok {
			return errorPart{present: true, message: msg, falsy: len(v) == 0}
		}
		raw, _ := json.Marshal(v)
		return errorPart{present: true, message: string(raw), falsy: len(v) == 0}
	}
	raw, _ := json.Marshal(v)
	falsy := string(raw) == `""` || string(raw) == "[]" || string(raw) == "0"
	return errorPart{present: true, message: string(raw), falsy: falsy}
}

func obj(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

func list(v any) []any {
	l, _ := v.([]any)
	return l
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

func num(v any) int {
	n, _ := v.(json.Number)
	i, _ := n.Int64()
	return int(i)
}
