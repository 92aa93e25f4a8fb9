// Package policies loads a Rego policy bundle, prepares Weir's three decisions once and
// evaluates them many times concurrently.
//
// A bundle is a directory of .rego files (Rego v1), _test.rego files and an optional
// data.yaml or data.json mounted at data.weir. Unless the bundle switches it off, the
// embedded built-in library (lib/*.rego) computes the decisions from the per-intent matrix
// in data.weir.intents; bundles extend it with their own violation rules. The three queries
// are
//
//	data.weir.request.decision   admit: intent admitted? obligations for the exchange
//	data.weir.tools.decision     inspect: one verdict per proposed tool call
//	data.weir.response.decision  validate: tool call made where required, numbers grounded
//
// Every result is decoded into a typed Go value. Undefined, conflicting or malformed results
// and evaluation errors are returned as *Error and callers deny: policies fail closed.
//
// OPA is imported by this package only; its API exposes no OPA types. See README.md for
// the contract policy authors write against.
package policies
