// Package strictjson is Weir's JSON reader and encoder: the one place where bytes from a
// client or an upstream model become values, and values become the bytes Weir sends.
//
// Weir judges what it parsed and forwards only what it encodes itself from those values, so
// the reader must refuse every document that two JSON readers could read differently:
// invalid UTF-8, lone or misordered surrogate escapes, duplicate keys (Python and
// JavaScript keep the last, a scanner may read the first), keys of one object that are
// equal under Unicode case folding (Go's encoding/json matches "Content", or "ſ" for
// "s", to a struct field "content"), non-JSON literals, a byte order mark, data after
// the document, and nesting deeper than a limit. What it accepts has one meaning for
// every reader that follows RFC 8259.
//
// Parse keeps the source (it does not copy it) and records the document on a flat tape of
// nodes, one per value and per key, in source order; a Value is a handle into that tape.
// Parsing a chat request therefore costs a few allocations, not one per value. The
// source must not change while the Doc is in use; strings returned by a Value are copies
// and may outlive it.
//
// AppendValue and Writer produce Weir's canonical compact form: members in source order,
// strings re-encoded from their decoded values by AppendString, numbers as written.
package strictjson
