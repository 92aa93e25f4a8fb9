// Package clientview reads what Weir forwarded the way the client families read it, for
// the differential tests of the enforcement core: each test asserts that every reader
// sees exactly the texts and tool calls Weir judged, no more and no less.
//
// Two readers stand for the two ways JSON becomes values in clients:
//
//   - Exact reads keys exactly and keeps the last of duplicate keys: json.loads in
//     openai-python and JSON.parse in openai-node (and openai-go, whose decoder matches
//     field names exactly through gjson's last-wins Map). It decodes through
//     encoding/json into map[string]any, which behaves the same way.
//   - Fold decodes through encoding/json into typed Go structs, the way Go clients built
//     on it read (go-openai and most hand-written clients): a key matches a field
//     regardless of Unicode case ("Content", "ſ" for "s", KELVIN SIGN for "k"), the
//     last matching key wins, a null leaves a string field as it was, and unknown fields
//     are ignored.
//
// Streams are assembled the way the SDKs' stream accumulators do. Where the SDKs
// assemble a construct differently among themselves (a tool call's id or name repeated
// in a later fragment: openai-python concatenates it, openai-node and openai-go keep the
// last id, openai-go concatenates names), the view takes one reading and records a Note,
// so that a test can require that Weir never sends such a construct.
package clientview
