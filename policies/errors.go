package policies

import (
	"errors"
	"fmt"

	"github.com/weirgw/weir/rules/located"
)

// Stable error codes. Load errors use the first group; evaluation errors the second.
const (
	CodeBundleEmpty      = "bundle_empty"       // no .rego file in the directory
	CodeBundleRead       = "bundle_read_error"  // a file could not be read
	CodeRegoParse        = "rego_parse_error"   // a .rego file does not parse
	CodeRegoCompile      = "rego_compile_error" // the modules do not compile together
	CodeDataInvalid      = "data_invalid"       // data.yaml / data.json is malformed
	CodeQueryPrepare     = "query_prepare_error"
	CodeEvalError        = "policy_eval_error"  // evaluation failed (builtin error, conflict, timeout)
	CodeDecisionUndef    = "decision_undefined" // the decision rule produced no value
	CodeDecisionConflict = "decision_conflict"  // the query produced more than one result
	CodeDecisionBad      = "decision_malformed" // the value does not match the output document
	CodeTestError        = "rego_test_error"    // the test runner could not run
	CodeTestFailed       = "rego_test_failed"   // a Rego unit test failed
	CodeInputInvalid     = "input_invalid"      // an offline validate line is not a valid exchange
	CodePolicyError      = "policy_error"       // a decision failed; the exchange is denied
)

// Error is a bundle or decision error with a stable code and, when known, the place in a
// policy file that caused it ("file:line:col: code: message"): the one located error type
// of Weir's loaders (rules/located).
type Error = located.Error

// ErrorList collects every error found while loading a bundle; Load reports them together.
type ErrorList = located.List

// Errors returns the individual errors of err: the list of an ErrorList, the single *Error,
// or nil when err is neither.
func Errors(err error) []*Error {
	var l ErrorList
	if errors.As(err, &l) {
		return l
	}
	var e *Error
	if errors.As(err, &e) {
		return []*Error{e}
	}
	return nil
}

// Code returns the stable code of err, or "" when err carries none.
func Code(err error) string {
	if es := Errors(err); len(es) > 0 {
		return es[0].Code
	}
	return ""
}

func errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}
