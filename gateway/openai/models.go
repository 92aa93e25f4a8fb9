package openai

import (
	"github.com/weirgw/weir/gateway/internal/strictjson"
)

var (
	modelsKeys = newKeys("object", "data")
	modelKeys  = newKeys("id", "object", "created", "owned_by")
)

// EncodeModels reads an upstream's models list ({"object": "list", "data": [{"id",
// "object", "created", "owned_by"}]}) and writes it again with only those fields: a models
// list carries no model output, but Weir forwards nothing it did not read.
func EncodeModels(body []byte) ([]byte, error) {
	doc, err := parse(body, "the upstream's models list", CodeInvalidAnswer, CodeAmbiguousAnswr)
	if err != nil {
		return nil, err
	}
	defer doc.Release()
	var w strictjson.Writer
	w.Reset(make([]byte, 0, len(body)))
	w.ObjectStart()
	w.Key("object")
	w.String("list")
	w.Key("data")
	w.ArrayStart()
	var inner error
	err = object(doc.Root(), root, modelsKeys, CodeInvalidAnswer, func(k string, v strictjson.Value) error {
		if k != "data" {
			return nil
		}
		if v.Kind() != strictjson.Array {
			return errorf(CodeInvalidAnswer, "data must be an array")
		}
		for i, m := range v.Elems() {
			w.ObjectStart()
			inner = object(m, root.key("data").idx(i), modelKeys, CodeInvalidAnswer, func(mk string, mv strictjson.Value) error {
				if mv.Kind() == strictjson.String || (mk == "created" && mv.Kind() == strictjson.Number) {
					w.Key(mk)
					w.Value(mv)
				}
				return nil
			}, drop)
			if inner != nil {
				return inner
			}
			w.ObjectEnd()
		}
		return nil
	}, drop)
	if err != nil {
		return nil, err
	}
	w.ArrayEnd()
	w.ObjectEnd()
	return w.Bytes(), nil
}

// UpstreamError is what Weir reads of an upstream's error answer: identifiers, never its
// message, which is text Weir does not judge (it may echo the prompt, or anything).
type UpstreamError struct {
	Type, Code, Param string
}

// DecodeUpstreamError reads {"error": {"type", "code", "param"}} from an error answer;
// values that are not short identifiers are left out.
func DecodeUpstreamError(body []byte) UpstreamError {
	var e UpstreamError
	doc, err := strictjson.Parse(body)
	if err != nil {
		return e
	}
	defer doc.Release()
	obj := doc.Root().Get("error")
	e.Type = identifier(obj.Get("type"))
	e.Code = identifier(obj.Get("code"))
	e.Param = identifier(obj.Get("param"))
	return e
}

// identifier returns v when it is a short string of letters, digits, '_', '-', '.', '[' or
// ']', "" otherwise.
func identifier(v strictjson.Value) string {
	s := v.Str()
	if len(s) > 64 {
		return ""
	}
	for _, c := range []byte(s) {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			c == '_' || c == '-' || c == '.' || c == '[' || c == ']'
		if !ok {
			return ""
		}
	}
	return s
}

// EncodeError writes an error in the OpenAI format with Weir's decision id; param is left
// out when empty.
func EncodeError(message, typ, code, param, decisionID string) []byte {
	var w strictjson.Writer
	w.Reset(make([]byte, 0, 128+len(message)))
	w.ObjectStart()
	w.Key("error")
	w.ObjectStart()
	w.Key("message")
	w.String(message)
	w.Key("type")
	w.String(typ)
	w.Key("code")
	w.String(code)
	if param != "" {
		w.Key("param")
		w.String(param)
	}
	if decisionID != "" {
		w.Key("decision_id")
		w.String(decisionID)
	}
	w.ObjectEnd()
	w.ObjectEnd()
	return w.Bytes()
}
