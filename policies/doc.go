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
// A decision is on the request path, so evaluation is kept lean (measured by the
// benchmarks in bench_test.go): the input is built as an AST value directly, its
// request-wide part once per request (input.go); the evaluator's caches are reused across
// evaluations (cache.go); the library's intent helpers are evaluated once per intent at load
// (memo.go); and the library's decisions are assembled in Go from their violation sets
// (direct.go), their library-only violation sets of tool calls and numbers evaluated in Go
// too (golib.go). At load, the input fields each decision can read are found (projection.go):
// a decision, or the request's violation set, that reads only low-cardinality fields is
// memoized by them (decisionmemo.go, memos.go), and fields no decision reads are not built.
// Each fast path gives exactly the result of evaluating the Rego decision, which
// TestDirectMatchesRego, TestGoLibMatchesRego and TestMemoMatchesRego check on every
// example bundle.
//
// Every result is decoded into a typed Go value. Undefined, conflicting or malformed results
// and evaluation errors are returned as *Error and callers deny: policies fail closed.
//
// OPA is imported by this package only; its API exposes no OPA types. See README.md for
// the contract policy authors write against.
package policies
