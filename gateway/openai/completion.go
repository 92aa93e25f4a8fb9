package openai

import (
	"github.com/weirgw/weir/gateway/chat"
	"github.com/weirgw/weir/gateway/internal/strictjson"
)

// Completion is a decoded chat completion: its neutral answer and the metadata Weir writes
// back (id, model, usage…), already encoded, since the upstream's bytes are not kept.
type Completion struct {
	Answer chat.Answer
	meta   metadata // id, created, model…: encoded by Weir from the values read
	usage  []byte   // the usage object, encoded (numbers only), or nil
	tokens Usage    // the counts read from usage
}

// The keys Weir reads of an answer, of a choice and of its message; any other key is
// dropped (see the package doc).
var (
	completionKeys = newKeys("id", "object", "created", "model", "system_fingerprint", "service_tier", "usage", "choices")
	choiceKeys     = newKeys("index", "message", "finish_reason", "logprobs")
	textPartKeys   = newKeys("type", "text")
	messageOutKeys = newKeys("role", "content", "refusal", "reasoning_content", "tool_calls", "function_call", "annotations", "audio")
)

// DecodeCompletion reads an upstream's chat completion strictly. An ambiguous document, a
// legacy function_call, a tool call or content part of a type Weir does not inspect, or two
// choices with one index are refused: the answer cannot be forwarded as Weir judged it.
func DecodeCompletion(body []byte) (*Completion, error) {
	doc, err := parse(body, "the upstream answer", CodeInvalidAnswer, CodeAmbiguousAnswr)
	if err != nil {
		return nil, err
	}
	defer doc.Release() // everything kept is copied out
	c := &Completion{}
	hasChoices := false
	err = object(doc.Root(), root, completionKeys, CodeInvalidAnswer, func(k string, v strictjson.Value) error {
		switch k {
		case "choices":
			hasChoices = true
			return c.choices(v)
		case "usage":
			c.usage, c.tokens = numbersOnly(nil, v, 0), readUsage(v)
			return nil
		case "object":
			return nil // Weir writes its own
		}
		c.meta.add(k, v)
		return nil
	}, drop)
	if err != nil {
		return nil, err
	}
	if !hasChoices {
		return nil, errorf(CodeInvalidAnswer, "the upstream answer is not a chat completion (no choices)")
	}
	return c, nil
}

// metadata is the metadata members of an answer or of a stream's first chunk (id,
// created, model…), their values encoded one after another into one buffer.
type metadata struct {
	members []member
	buf     []byte
}

// member is one metadata member: its key and where its encoded value is in the buffer.
type member struct {
	key        string
	start, end uint32
}

// add appends one metadata member, encoded: a string or an integer as read, null kept;
// another kind is dropped. The first member allocates room for a usual answer's: two
// allocations in all, not two per member.
func (m *metadata) add(k string, v strictjson.Value) {
	switch v.Kind() {
	case strictjson.String, strictjson.Null:
	case strictjson.Number:
		if _, err := v.Int(); err != nil {
			return
		}
	default:
		return
	}
	if m.members == nil {
		m.members, m.buf = make([]member, 0, 5), make([]byte, 0, 128)
	}
	start := len(m.buf)
	m.buf = strictjson.AppendValue(m.buf, v)
	m.members = append(m.members, member{k, uint32(start), uint32(len(m.buf))})
}

// raw returns the encoded value of member i.
func (m *metadata) raw(i int) []byte { return m.buf[m.members[i].start:m.members[i].end] }

// numbersOnly encodes an object keeping only numbers and nested objects of numbers (usage
// and its details): counts, never text.
func numbersOnly(dst []byte, v strictjson.Value, depth int) []byte {
	if v.Kind() != strictjson.Object || depth > 3 {
		return dst
	}
	var w strictjson.Writer
	w.Reset(dst)
	w.ObjectStart()
	for k, f := range v.Members() {
		switch f.Kind() {
		case strictjson.Number:
			w.Key(k)
			w.Value(f)
		case strictjson.Object:
			if inner := numbersOnly(nil, f, depth+1); inner != nil {
				w.Key(k)
				w.Raw(inner)
			}
		}
	}
	w.ObjectEnd()
	return w.Bytes()
}

func (c *Completion) choices(v strictjson.Value) error {
	if v.Kind() != strictjson.Array {
		return errorf(CodeInvalidAnswer, "choices must be an array")
	}
	seen := map[int]bool{}
	for i, ch := range v.Elems() {
		path := root.key("choices").idx(i)
		out := chat.Choice{Index: i, Role: "assistant"}
		err := object(ch, path, choiceKeys, CodeInvalidAnswer, func(k string, f strictjson.Value) error {
			switch k {
			case "index":
				n, err := index(f, path)
				out.Index = n
				return err
			case "message":
				return answerMessage(f, path.key(k), &out)
			case "finish_reason":
				s, err := str(f, path.key(k), CodeInvalidAnswer)
				out.Finish = s
				return err
			}
			return nil // logprobs: dropped, they carry the answer's tokens as text
		}, drop)
		if err != nil {
			return err
		}
		if seen[out.Index] {
			return errorf(CodeAmbiguousAnswr, "%s: two choices have index %d", path, out.Index)
		}
		seen[out.Index] = true
		c.Answer.Choices = append(c.Answer.Choices, out)
	}
	return nil
}

// answerMessage reads a choice's message: every readable text and the tool calls.
// index reads the "index" member of the choice or call at path: a small non-negative integer,
// the same bound for a plain answer's choices, a chunk's choices and a stream's call fragments.
func index(v strictjson.Value, path loc) (int, error) {
	n, err := v.Int()
	if err != nil || n < 0 || n > 1<<16 {
		return 0, errorf(CodeInvalidAnswer, "%s.index must be a small non-negative integer", path)
	}
	return int(n), nil
}

func answerMessage(v strictjson.Value, path loc, out *chat.Choice) error {
	return object(v, path, messageOutKeys, CodeInvalidAnswer, func(k string, f strictjson.Value) error {
		if k == "tool_calls" {
			var err error
			out.Calls, err = answerCalls(f, path.key(k))
			return err
		}
		return messageMember(k, f, path, &out.Role, &out.Texts) // annotations, audio: dropped
	}, drop)
}

// messageMember reads the members a message and a stream delta share: the role, the
// readable texts, a legacy function_call (refused).
func messageMember(k string, f strictjson.Value, path loc, role *string, t *chat.Texts) error {
	switch k {
	case "role":
		if f.Kind() == strictjson.String {
			*role = f.Str()
		}
	case "content":
		return answerText(f, path.key(k), t, chat.Content)
	case "refusal":
		return answerText(f, path.key(k), t, chat.Refusal)
	case "reasoning_content":
		return answerText(f, path.key(k), t, chat.Reasoning)
	case "function_call":
		if f.Kind() != strictjson.Null {
			return errorf(CodeInvalidAnswer, "%s: the upstream answered with a legacy function_call, which weir does not inspect", path)
		}
	}
	return nil
}

// answerText reads a readable text: a string, null, or parts of type text / output_text.
func answerText(v strictjson.Value, path loc, t *chat.Texts, f chat.Field) error {
	switch v.Kind() {
	case strictjson.Null:
		return nil
	case strictjson.String:
		t.Set(f, v.Str())
		return nil
	case strictjson.Array:
	default:
		return errorf(CodeInvalidAnswer, "%s must be a string", path)
	}
	var b []byte
	for i, p := range v.Elems() {
		pp := path.idx(i)
		typ := p.Get("type")
		if !typ.IsStr("text") && !typ.IsStr("output_text") {
			return errorf(CodeInvalidAnswer, "%s: content parts of type %q are not ones weir inspects", pp, typ.Str())
		}
		err := object(p, pp, textPartKeys, CodeInvalidAnswer, func(k string, tv strictjson.Value) error {
			if k == "text" {
				if tv.Kind() != strictjson.String {
					return errorf(CodeInvalidAnswer, "%s.text must be a string", pp)
				}
				if len(b) > 0 {
					b = append(b, '\n')
				}
				b = tv.AppendStr(b)
			}
			return nil
		}, drop)
		if err != nil {
			return err
		}
	}
	t.Set(f, string(b))
	return nil
}

// answerCalls reads a message's complete tool calls.
func answerCalls(v strictjson.Value, path loc) ([]chat.Call, error) {
	switch v.Kind() {
	case strictjson.Null:
		return nil, nil
	case strictjson.Array:
	default:
		return nil, errorf(CodeInvalidAnswer, "%s must be an array", path)
	}
	out := make([]chat.Call, 0, v.Len())
	for i, e := range v.Elems() {
		c, err := readCall(e, path.idx(i), CodeInvalidAnswer, drop)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// EncodeCompletion writes a chat completion from c's metadata and the judged choices.
func EncodeCompletion(c *Completion, choices []chat.Choice) []byte {
	var w strictjson.Writer
	w.Reset(make([]byte, 0, 256+64*len(choices)))
	w.ObjectStart()
	writeMeta(&w, &c.meta, "chat.completion")
	w.Key("choices")
	w.ArrayStart()
	for i := range choices {
		ch := &choices[i]
		w.ObjectStart()
		w.Key("index")
		w.Int(int64(ch.Index))
		w.Key("message")
		writeMessage(&w, ch)
		w.Key("finish_reason")
		nullable(&w, ch.Finish)
		w.ObjectEnd()
	}
	w.ArrayEnd()
	if c.usage != nil {
		w.Key("usage")
		w.Raw(c.usage)
	}
	w.ObjectEnd()
	return w.Bytes()
}

// writeMeta writes the encoded metadata members and Weir's object name.
func writeMeta(w *strictjson.Writer, meta *metadata, object string) {
	for i, m := range meta.members {
		if m.key == "id" {
			w.Key(m.key)
			w.Raw(meta.raw(i))
		}
	}
	w.Key("object")
	w.String(object)
	for i, m := range meta.members {
		if m.key != "id" {
			w.Key(m.key)
			w.Raw(meta.raw(i))
		}
	}
}

func writeMessage(w *strictjson.Writer, ch *chat.Choice) {
	w.ObjectStart()
	w.Key("role")
	w.String(ch.Role)
	w.Key("content")
	if ch.Texts.Has[chat.Content] {
		w.String(ch.Texts.Value[chat.Content])
	} else {
		w.Null()
	}
	w.Key("refusal")
	if ch.Texts.Has[chat.Refusal] {
		w.String(ch.Texts.Value[chat.Refusal])
	} else {
		w.Null()
	}
	if ch.Texts.Has[chat.Reasoning] {
		w.Key("reasoning_content")
		w.String(ch.Texts.Value[chat.Reasoning])
	}
	if len(ch.Calls) > 0 {
		w.Key("tool_calls")
		w.ArrayStart()
		for _, c := range ch.Calls {
			writeCall(w, c, -1)
		}
		w.ArrayEnd()
	}
	w.ObjectEnd()
}

// writeCall writes a tool call; index ≥ 0 adds the index a stream delta carries.
func writeCall(w *strictjson.Writer, c chat.Call, index int) {
	w.ObjectStart()
	if index >= 0 {
		w.Key("index")
		w.Int(int64(index))
	}
	w.Key("id")
	w.String(c.ID)
	w.Key("type")
	w.String(c.Type)
	w.Key(c.Type)
	w.ObjectStart()
	w.Key("name")
	w.String(c.Name)
	if c.Type == "custom" {
		w.Key("input")
	} else {
		w.Key("arguments")
	}
	w.String(c.Arguments)
	w.ObjectEnd()
	w.ObjectEnd()
}

func nullable(w *strictjson.Writer, s string) {
	if s == "" {
		w.Null()
		return
	}
	w.String(s)
}
