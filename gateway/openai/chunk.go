package openai

import (
	"github.com/weirgw/weir/gateway/chat"
	"github.com/weirgw/weir/gateway/internal/strictjson"
)

// Chunk is one decoded chunk of a chat completion stream.
type Chunk struct {
	Deltas []chat.Delta
	// Error reports a chunk that carries an error instead of choices: the upstream failed
	// mid-stream.
	Error  bool
	usage  []byte   // encoded, numbers only; nil without usage
	tokens Usage    // the counts read from usage
	meta   metadata // id, created, model…
}

// HasUsage reports whether the chunk carries usage counts.
func (c *Chunk) HasUsage() bool { return c.usage != nil }

// The keys Weir reads of a chunk, a choice of a chunk, a delta and a tool-call fragment;
// others are dropped.
var (
	chunkKeys       = newKeys("id", "object", "created", "model", "system_fingerprint", "service_tier", "usage", "choices", "error")
	deltaChoiceKeys = newKeys("index", "delta", "finish_reason", "logprobs")
	deltaKeys       = newKeys("role", "content", "refusal", "reasoning_content", "tool_calls", "function_call")
)

// DecodeChunk reads a stream's first chunk (an SSE event's data) strictly, with the same
// rules as DecodeCompletion, keeping its metadata for NewStreamEncoder.
func DecodeChunk(data []byte) (*Chunk, error) {
	c := &Chunk{}
	if err := c.decode(data, true); err != nil {
		return nil, err
	}
	return c, nil
}

// DecodeLaterChunk reads a chunk after a stream's first into c, reusing c's memory; c's
// earlier contents are lost. It reads and refuses exactly as DecodeChunk does, every member
// matched against the same allowlist, but does not encode the metadata's values (id,
// created, model…): a stream's encoder writes the first chunk's, never a later one's.
func DecodeLaterChunk(c *Chunk, data []byte) error {
	*c = Chunk{Deltas: c.Deltas[:0]}
	return c.decode(data, false)
}

// decode reads data into the zero c (but for the capacity of its Deltas); keepMeta says
// whether the metadata is encoded into c.meta.
func (c *Chunk) decode(data []byte, keepMeta bool) error {
	doc, err := parse(data, "a stream chunk", CodeInvalidAnswer, CodeAmbiguousAnswr)
	if err != nil {
		return err
	}
	defer doc.Release() // everything kept is copied out
	return object(doc.Root(), root, chunkKeys, CodeInvalidAnswer, func(k string, v strictjson.Value) error {
		switch k {
		case "choices":
			return c.choices(v)
		case "usage":
			c.usage, c.tokens = numbersOnly(nil, v, 0), readUsage(v)
		case "error":
			c.Error = v.Kind() != strictjson.Null
		case "object":
		default:
			if keepMeta {
				c.meta.add(k, v)
			}
		}
		return nil
	}, drop)
}

func (c *Chunk) choices(v strictjson.Value) error {
	switch v.Kind() {
	case strictjson.Null:
		return nil
	case strictjson.Array:
	default:
		return errorf(CodeInvalidAnswer, "choices must be an array")
	}
	for i, ch := range v.Elems() {
		path := root.key("choices").idx(i)
		d := chat.Delta{Choice: i}
		err := object(ch, path, deltaChoiceKeys, CodeInvalidAnswer, func(k string, f strictjson.Value) error {
			switch k {
			case "index":
				n, err := index(f, path)
				d.Choice = n
				return err
			case "delta":
				return delta(f, path.key(k), &d)
			case "finish_reason":
				s, err := str(f, path.key(k), CodeInvalidAnswer)
				d.Finish = s
				return err
			}
			return nil
		}, drop)
		if err != nil {
			return err
		}
		for _, prev := range c.Deltas {
			if prev.Choice == d.Choice {
				return errorf(CodeAmbiguousAnswr, "%s: two choices of one chunk have index %d", path, d.Choice)
			}
		}
		c.Deltas = append(c.Deltas, d)
	}
	return nil
}

func delta(v strictjson.Value, path loc, d *chat.Delta) error {
	if v.Kind() == strictjson.Null {
		return nil
	}
	return object(v, path, deltaKeys, CodeInvalidAnswer, func(k string, f strictjson.Value) error {
		if k == "tool_calls" {
			var err error
			d.Calls, err = fragments(f, path.key(k))
			return err
		}
		return messageMember(k, f, path, &d.Role, &d.Texts)
	}, drop)
}

// fragments reads a delta's tool-call fragments. A fragment without an index continues the
// choice's last call (Index -1).
func fragments(v strictjson.Value, path loc) ([]chat.CallFragment, error) {
	switch v.Kind() {
	case strictjson.Null:
		return nil, nil
	case strictjson.Array:
	default:
		return nil, errorf(CodeInvalidAnswer, "%s must be an array", path)
	}
	out := make([]chat.CallFragment, 0, v.Len())
	for i, e := range v.Elems() {
		fp := path.idx(i)
		f := chat.CallFragment{Index: -1}
		if n := e.Get("index"); n.Kind() != strictjson.Missing {
			k, err := index(n, fp)
			if err != nil {
				return nil, err
			}
			f.Index = k
		}
		c, err := readFragment(e, fp)
		if err != nil {
			return nil, err
		}
		f.ID, f.Type, f.Name, f.Arguments = c.ID, c.Type, c.Name, c.Arguments
		out = append(out, f)
	}
	return out, nil
}

// readFragment reads a fragment like readCall reads a call, without requiring a type (only
// the first fragment of a call carries it) and keeping the arguments' piece as written.
func readFragment(v strictjson.Value, path loc) (chat.Call, error) {
	var c chat.Call
	var part strictjson.Value
	err := object(v, path, callKeys, CodeInvalidAnswer, func(k string, f strictjson.Value) error {
		var err error
		switch k {
		case "id":
			c.ID, err = str(f, path.key(k), CodeInvalidAnswer)
		case "type":
			c.Type, err = str(f, path.key(k), CodeInvalidAnswer)
		case "function", "custom":
			if part.Kind() != strictjson.Missing && f.Kind() != strictjson.Null {
				return errorf(CodeAmbiguousAnswr, "%s has both function and custom", path)
			}
			if f.Kind() != strictjson.Null {
				part = f
				if c.Type == "" {
					c.Type = k
				}
			}
		case "name":
			c.Name, err = str(f, path.key(k), CodeInvalidAnswer)
		case "arguments":
			c.Arguments, err = str(f, path.key(k), CodeInvalidAnswer)
		}
		return err
	}, drop)
	if err != nil {
		return c, err
	}
	if c.Type != "" && c.Type != "function" && c.Type != "custom" {
		return c, errorf(CodeInvalidAnswer, "%s: tool calls of type %q are not ones weir inspects (function, custom)", path, c.Type)
	}
	if part.Kind() == strictjson.Missing {
		return c, nil
	}
	keys := functionKeys
	if c.Type == "custom" {
		keys = customKeys
	}
	err = object(part, path.key(c.Type), keys, CodeInvalidAnswer, func(k string, f strictjson.Value) error {
		s, err := str(f, path.key(c.Type).key(k), CodeInvalidAnswer)
		if k == "name" {
			c.Name += s
		} else {
			c.Arguments += s
		}
		return err
	}, drop)
	return c, err
}

// StreamEncoder writes Weir's own stream chunks with the stream's metadata (the first
// chunk's id, created, model…).
type StreamEncoder struct {
	meta metadata
}

// NewStreamEncoder returns the encoder of a stream whose first chunk is first.
func NewStreamEncoder(first *Chunk) *StreamEncoder { return &StreamEncoder{meta: first.meta} }

// Delta appends one chunk with one choice's delta: a role, texts, whole tool calls (their
// indexes from firstCall on) and a finish reason, each written only when present.
func (e *StreamEncoder) Delta(dst []byte, choice int, role string, texts *chat.Texts, calls []chat.Call, firstCall int, finish string) []byte {
	var w strictjson.Writer
	w.Reset(dst)
	w.ObjectStart()
	writeMeta(&w, &e.meta, "chat.completion.chunk")
	w.Key("choices")
	w.ArrayStart()
	w.ObjectStart()
	w.Key("index")
	w.Int(int64(choice))
	w.Key("delta")
	w.ObjectStart()
	if role != "" {
		w.Key("role")
		w.String(role)
	}
	if texts != nil {
		for _, f := range chat.Fields {
			if texts.Has[f] {
				w.Key(deltaKey(f))
				w.String(texts.Value[f])
			}
		}
	}
	if len(calls) > 0 {
		w.Key("tool_calls")
		w.ArrayStart()
		for i, c := range calls {
			writeCall(&w, c, firstCall+i)
		}
		w.ArrayEnd()
	}
	w.ObjectEnd()
	w.Key("finish_reason")
	nullable(&w, finish)
	w.ObjectEnd()
	w.ArrayEnd()
	w.ObjectEnd()
	return w.Bytes()
}

// Usage appends a chunk without choices that carries the usage of c.
func (e *StreamEncoder) Usage(dst []byte, c *Chunk) []byte {
	var w strictjson.Writer
	w.Reset(dst)
	w.ObjectStart()
	writeMeta(&w, &e.meta, "chat.completion.chunk")
	w.Key("choices")
	w.ArrayStart()
	w.ArrayEnd()
	w.Key("usage")
	w.Raw(c.usage)
	w.ObjectEnd()
	return w.Bytes()
}

func deltaKey(f chat.Field) string {
	switch f {
	case chat.Refusal:
		return "refusal"
	case chat.Reasoning:
		return "reasoning_content"
	}
	return "content"
}
