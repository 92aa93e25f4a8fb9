package clientview

// The readers decode a body into these parts; the assembly (assemble.go) is shared, so
// the readers differ only in how JSON becomes values.

// chunk is a completion or one stream event, as a reader decoded it.
type chunk struct {
	choices []choicePart
	err     errorPart
}

// choicePart is one element of choices: the message (a completion) or the delta (a
// stream event).
type choicePart struct {
	index  int
	msg    message
	finish string
}

// message is a message or a delta.
type message struct {
	content   string
	parts     []string // types of non-text content parts
	refusal   string
	reasoning string
	calls     []callPart
}

// callPart is a tool call, or a fragment of one in a stream.
type callPart struct {
	index             int
	hasIndex          bool
	id, typ           string
	fnName, args      string
	customName, input string
}

// errorPart is the error member of a body.
type errorPart struct {
	present bool   // present and not null or false
	message string // the error's message, or its JSON when it has none
	falsy   bool   // {} [] "" 0: an error to openai-node, none to openai-python
}

// textPart reports whether a content part type carries text the views count.
func textPart(typ string) bool { return typ == "text" || typ == "output_text" }
