package strictjson

import (
	"fmt"
	"unicode/utf8"
)

// Reason is the stable snake_case code of a refusal, fit for logs, metrics and audit
// records.
type Reason string

// The reasons Parse refuses a document for.
const (
	// Syntax is anything that is not RFC 8259 JSON and has no more specific reason.
	Syntax Reason = "syntax"
	// InvalidUTF8 is a byte sequence that is not UTF-8, inside a string.
	InvalidUTF8 Reason = "invalid_utf8"
	// BadEscape is a backslash escape that JSON does not define, or a malformed \u.
	BadEscape Reason = "bad_escape"
	// BadSurrogate is a \u escape of a UTF-16 surrogate that is not part of a
	// high-then-low pair: Go reads it as U+FFFD, Python and JavaScript keep it.
	BadSurrogate Reason = "bad_surrogate"
	// ControlChar is a raw byte below 0x20 inside a string.
	ControlChar Reason = "control_char"
	// BadNumber is a number that JSON's grammar does not allow (01, 1., .5, +1, 1e).
	BadNumber Reason = "bad_number"
	// BadLiteral is a word that is not true, false or null (NaN, Infinity, None, True).
	BadLiteral Reason = "bad_literal"
	// DuplicateKey is a key that appears twice in one object, after decoding escapes.
	DuplicateKey Reason = "duplicate_key"
	// CaseTwin is a key equal to another key of its object under Unicode simple case
	// folding but not byte for byte ("Content" beside "content", "ſ" beside "s").
	CaseTwin Reason = "case_twin"
	// TooDeep is nesting of arrays and objects deeper than the limit.
	TooDeep Reason = "too_deep"
	// BOM is a UTF-8 byte order mark before the document.
	BOM Reason = "bom"
	// Trailing is anything but white space after the document.
	Trailing Reason = "trailing_data"
	// TooLarge is a document of 4 GiB or more, beyond the tape's 32-bit offsets.
	TooLarge Reason = "too_large"
)

// Error is Parse's refusal: what was wrong (Reason), where in the source (Offset, a byte
// offset) and where in the document (Path, e.g. "choices[0].message.tool_calls[1]",
// empty for the top level).
type Error struct {
	Offset int
	Path   string
	Reason Reason
	// Key is, for DuplicateKey and CaseTwin, the later of the two keys (decoded).
	Key string
	// Other is, for CaseTwin, the earlier key it folds to.
	Other string

	detail string
}

// maxKeyShown is the length beyond which a key is cut in messages and paths: errors go
// to clients and logs, which must not carry a request's bytes wholesale.
const maxKeyShown = 64

// shortKey returns key cut to at most maxKeyShown bytes, at a rune boundary, with "..."
// after a cut.
func shortKey[T ~string | ~[]byte](key T) T {
	if len(key) <= maxKeyShown {
		return key
	}
	n := maxKeyShown
	for n > 0 && !utf8.RuneStart(key[n]) {
		n--
	}
	return T(string(key[:n]) + "...")
}

// Error reads like `choices[0].message: key "Content" differs only in case from "content"`.
// Keys are quoted with non-ASCII runes escaped, so that "\u212a" (KELVIN SIGN) and "K"
// are told apart on screen.
func (e *Error) Error() string {
	msg := e.message()
	if e.Path == "" {
		return msg
	}
	return e.Path + ": " + msg
}

func (e *Error) message() string {
	switch e.Reason {
	case DuplicateKey:
		return fmt.Sprintf("duplicate key %+q", shortKey(e.Key))
	case CaseTwin:
		return fmt.Sprintf("key %+q differs only in case from %+q", shortKey(e.Key), shortKey(e.Other))
	}
	return e.detail
}
