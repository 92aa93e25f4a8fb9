package openai

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/weirgw/weir/gateway/internal/strictjson"
)

// Error is a document the codec refuses: a stable code and a message that names where.
// The gateway answers a client's refused request with 400 and an upstream's refused
// answer with 502.
type Error struct {
	Code    string
	Message string
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// The codes of Error.
const (
	CodeInvalidJSON    = "invalid_json"          // not one JSON value, or malformed
	CodeAmbiguous      = "ambiguous_json"        // duplicate keys, case twins, invalid UTF-8: readers could disagree
	CodeInvalid        = "invalid_request"       // valid JSON that is not what the format allows
	CodeUnsupported    = "unsupported_parameter" // a key or a kind Weir does not inspect
	CodeInvalidAnswer  = "upstream_invalid_response"
	CodeAmbiguousAnswr = "upstream_ambiguous_response"
)

func errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// parse parses doc strictly; a refusal is an Error with the given codes for malformed and
// for ambiguous documents.
func parse(src []byte, what, malformed, ambiguous string) (*strictjson.Doc, error) {
	d, err := strictjson.Parse(src)
	if err == nil {
		return d, nil
	}
	var se *strictjson.Error
	if !errors.As(err, &se) {
		return nil, errorf(malformed, "%s: %v", what, err)
	}
	if len(bytes.TrimSpace(src)) == 0 {
		return nil, errorf(malformed, "%s is empty; want a JSON object", what)
	}
	switch se.Reason {
	case strictjson.TooDeep:
		return nil, errorf(malformed, "%s is nested too deeply", what)
	case strictjson.DuplicateKey, strictjson.CaseTwin, strictjson.InvalidUTF8, strictjson.BadSurrogate:
		return nil, errorf(ambiguous, "%s: %v; clients could read it differently", what, se)
	}
	return nil, errorf(malformed, "%s is not valid JSON: %v", what, se)
}
