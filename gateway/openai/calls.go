package openai

import (
	"errors"

	"github.com/weirgw/weir/gateway/chat"
	"github.com/weirgw/weir/gateway/internal/strictjson"
)

// The keys of a tool call and of its function or custom part.
var (
	callKeys     = newKeys("id", "type", "function", "custom", "name", "arguments", "index")
	functionKeys = newKeys("name", "arguments")
	customKeys   = newKeys("name", "input")
)

// readCall reads a tool call: {id, type: function, function: {name, arguments}}, {id, type:
// custom, custom: {name, input}}, or the flat {id, name, arguments} some servers write. A
// call of another type is refused with code: clients would run what Weir did not judge.
func readCall(v strictjson.Value, path loc, code string, unknown others) (chat.Call, error) {
	var c chat.Call
	var fn, custom, flatName, flatArgs strictjson.Value
	err := object(v, path, callKeys, code, func(k string, f strictjson.Value) error {
		var err error
		switch k {
		case "id":
			c.ID, err = str(f, path.key(k), code)
		case "type":
			c.Type, err = str(f, path.key(k), code)
		case "function":
			fn = f
		case "custom":
			custom = f
		case "name":
			flatName = f
		case "arguments":
			flatArgs = f
		}
		return err
	}, unknown)
	if err != nil {
		return c, err
	}
	part, keys := fn, functionKeys
	switch c.Type {
	case "", "function":
		c.Type = "function"
		if fn.Kind() == strictjson.Missing || fn.Kind() == strictjson.Null {
			part = strictjson.Value{} // the flat shape
		}
	case "custom":
		part, keys = custom, customKeys
		if custom.Kind() != strictjson.Object {
			return c, errorf(code, "%s.custom must be an object", path)
		}
	default:
		return c, errorf(code, "%s: tool calls of type %q are not ones weir inspects (function, custom)", path, c.Type)
	}
	if part.Kind() != strictjson.Missing {
		err = object(part, path.key(c.Type), keys, code, func(k string, f strictjson.Value) error {
			if k == "name" {
				flatName = f
			} else {
				flatArgs = f
			}
			return nil
		}, unknown)
	}
	if err != nil {
		return c, err
	}
	if c.Name, err = str(flatName, path.key("name"), code); err != nil {
		return c, err
	}
	c.Arguments, err = arguments(flatArgs, path, code, c.Type == "custom")
	return c, err
}

// arguments reads a call's input. A function call's JSON arguments — a JSON text in a
// string, or, from some servers, the object itself — are parsed strictly and re-encoded
// by Weir, so that the client runs exactly what the tools policy read; arguments that are
// not JSON at all are kept as written (the policy sees that they do not parse, and so does
// the client). Arguments whose JSON is ambiguous are refused. A custom call's input is
// free text.
func arguments(v strictjson.Value, path loc, code string, custom bool) (string, error) {
	switch v.Kind() {
	case strictjson.Missing, strictjson.Null:
		return "", nil
	case strictjson.Object:
		if custom {
			return "", errorf(code, "%s: a custom call's input must be a string", path)
		}
		return string(strictjson.AppendValue(nil, v)), nil
	case strictjson.String:
	default:
		return "", errorf(code, "%s: arguments must be a string", path)
	}
	s := v.Str()
	if custom {
		return s, nil
	}
	return normalizeArguments(s, path, code)
}

// normalizeArguments parses a function call's JSON arguments strictly and re-encodes them;
// text that is not JSON at all is kept, ambiguous JSON refused.
func normalizeArguments(s string, path loc, code string) (string, error) {
	if s == "" {
		return s, nil
	}
	d, err := strictjson.Parse([]byte(s))
	if err == nil {
		return string(strictjson.AppendValue(nil, d.Root())), nil
	}
	var se *strictjson.Error
	if errors.As(err, &se) {
		switch se.Reason {
		case strictjson.DuplicateKey, strictjson.CaseTwin, strictjson.InvalidUTF8, strictjson.BadSurrogate:
			return "", errorf(code, "%s: the arguments are ambiguous JSON (%v); clients could read them differently from the policy", path, se)
		}
	}
	return s, nil
}

// CompleteCall checks a call assembled from stream fragments the way DecodeCompletion
// checks a complete one: a known type (function when the stream gave none), a name, and
// arguments parsed strictly and re-encoded.
func CompleteCall(c chat.Call, where string) (chat.Call, error) {
	path := root.key(where)
	switch c.Type {
	case "":
		c.Type = "function"
	case "function", "custom":
	default:
		return c, errorf(CodeInvalidAnswer, "%s: tool calls of type %q are not ones weir inspects (function, custom)", path, c.Type)
	}
	if c.Name == "" {
		return c, errorf(CodeInvalidAnswer, "%s has no name", path)
	}
	if c.Type == "custom" {
		return c, nil
	}
	var err error
	c.Arguments, err = normalizeArguments(c.Arguments, path, CodeInvalidAnswer)
	return c, err
}
