// Package chat is the protocol-neutral form of a conversation with a model: what a client
// asked (Request) and what a model answered (Answer, or Deltas of a stream). Surfaces are
// codecs: each translates its wire format (OpenAI chat completions today; the Responses API,
// Anthropic Messages and MCP tools are the next ones) into these types and back, and the
// gateway's stages — classify, admit, the tools check, the answer check, the audit record —
// read and write only these types. A codec owns nothing else; adding a surface means
// writing a codec, never another copy of the checks.
package chat

import "github.com/weirgw/weir/policies"

// Request is what a client asked a model.
type Request struct {
	// Messages is the conversation as policies and grounding read it: each message's role
	// and text (only the parts a model reads as text), the tool calls the assistant made and
	// the tool results; it is the application's claim about the conversation.
	Messages []policies.Message
	// Question is the text Weir classifies: the last user message's text.
	Question string
	// Tools are the tools the client offers the model, in order.
	Tools []Tool
	// ToolChoice is what the client asks of the model's tool use.
	ToolChoice ToolChoice
	// Stream asks for the answer as a stream of deltas.
	Stream bool
	// EndUser is what the application says about its own user (OpenAI's `user`): recorded as
	// such, never believed as the subject of a decision.
	EndUser string
}

// Tool is one tool offered to the model.
type Tool struct {
	Type string // function or custom
	Name string
}

// ToolChoice is the client's tool_choice: Mode is "" (absent), auto, none, required or
// named; Name is the forced tool's name when Mode is named.
type ToolChoice struct {
	Mode string
	Name string
}

// Field names a text of an answer that a user can read.
type Field uint8

// The readable fields of an answer. Every one of them goes through the answer check.
const (
	Content   Field = iota // the answer's text
	Refusal                // the model's refusal text
	Reasoning              // reasoning text some models return beside the answer
	numFields
)

// Fields lists the readable fields in the order they are checked and encoded.
var Fields = [numFields]Field{Content, Refusal, Reasoning}

// String returns the field's name as the audit record and error messages write it.
func (f Field) String() string {
	switch f {
	case Content:
		return "content"
	case Refusal:
		return "refusal"
	case Reasoning:
		return "reasoning"
	}
	return "unknown"
}

// Texts holds one text per readable field; a field never written is "" and Has reports
// whether it was present.
type Texts struct {
	Value [numFields]string
	Has   [numFields]bool
}

// Set sets field f to s.
func (t *Texts) Set(f Field, s string) { t.Value[f], t.Has[f] = s, true }

// Get returns the text of field f.
func (t *Texts) Get(f Field) string { return t.Value[f] }

// Empty reports whether no field holds text.
func (t *Texts) Empty() bool {
	for _, v := range t.Value {
		if v != "" {
			return false
		}
	}
	return true
}

// Call is one tool call a model proposed, complete.
type Call struct {
	ID   string
	Type string // function or custom
	Name string
	// Arguments is the call's input as the model wrote it: a JSON text for a function call,
	// free text for a custom call.
	Arguments string
}

// Choice is one of an answer's alternatives.
type Choice struct {
	Index  int
	Role   string
	Texts  Texts
	Calls  []Call
	Finish string // finish_reason, "" when absent
}

// Answer is a model's complete answer.
type Answer struct {
	Choices []Choice
}

// Delta is one choice's part of one stream chunk.
type Delta struct {
	Choice int
	Role   string
	Texts  Texts
	Calls  []CallFragment
	Finish string
}

// CallFragment is a piece of a tool call in a stream; fragments with the same Index make
// one call, their Arguments concatenated.
type CallFragment struct {
	Index     int
	ID        string
	Type      string
	Name      string
	Arguments string
}
