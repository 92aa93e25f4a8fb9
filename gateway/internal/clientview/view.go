package clientview

// View is what one reader sees of a chat completion or of an assembled stream.
type View struct {
	// Choices holds one entry per choice index, sorted by index.
	Choices []Choice
	// Error is the message of an error the body carried (a stream's error event), "" for
	// none. Clients stop reading a stream at an error.
	Error string
	// Notes lists constructs the client libraries read differently among themselves
	// (see the package doc); a body Weir produced should have none.
	Notes []string
}

// Choice is one assembled choice.
type Choice struct {
	Index int
	// Content is the message content: the string, or the text of the parts of type
	// "text" and "output_text" joined with "\n", as Weir joins them when it judges.
	Content string
	// PartTypes lists, in order, the types of content parts that are not text, so a test
	// can see content the texts do not show (images, audio, refusal parts).
	PartTypes []string
	Refusal   string
	// Reasoning is the reasoning_content some providers send beside the content.
	Reasoning    string
	Calls        []Call
	FinishReason string
}

// Call is one tool call.
type Call struct {
	ID   string
	Type string
	Name string
	// Arguments is a function call's arguments string.
	Arguments string
	// Input is a custom tool call's input string.
	Input string
}

// Texts returns every text of the choice a person or a program acting on it reads:
// content, refusal, reasoning, and each call's arguments and input, skipping empty ones.
func (c Choice) Texts() []string {
	var out []string
	add := func(s string) {
		if s != "" {
			out = append(out, s)
		}
	}
	add(c.Content)
	add(c.Refusal)
	add(c.Reasoning)
	for _, call := range c.Calls {
		add(call.Arguments)
		add(call.Input)
	}
	return out
}

// Texts returns the texts of all choices, in order of index.
func (v View) Texts() []string {
	var out []string
	for _, c := range v.Choices {
		out = append(out, c.Texts()...)
	}
	return out
}

// Diff says what differs between two views, one difference per line
// (`Choices[0].Content: "safe" != "evil"`), "" when they are equal.
func Diff(a, b View) string { return diff(a, b) }
