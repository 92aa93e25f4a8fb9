package grounding

// SourceKind says where a source text came from.
type SourceKind string

// The kinds of source a number may be grounded in.
const (
	Tool   SourceKind = "tool"
	User   SourceKind = "user"
	System SourceKind = "system"
)

// Source is one text the model's answer may take numbers from.
type Source struct {
	Kind    SourceKind
	Name    string // e.g. the tool name "execute_metric" for a tool result; "" for user/system
	Content string // raw content: tool results are often JSON, sometimes text
}

// Number is one quantity found in a text, with its grounding once checked.
type Number struct {
	Text       string     `json:"text"`  // exactly as written in the answer, e.g. "21.956,62 €"
	Value      float64    `json:"value"` // numeric value; a percentage keeps its written value: "35,02%" → 35.02
	Start      int        `json:"start"` // byte span in the answer
	End        int        `json:"end"`
	Percent    bool       `json:"percent,omitempty"`
	Currency   string     `json:"currency,omitempty"` // "EUR", "USD", ...
	Decimals   int        `json:"-"`                  // precision as written (digits after the decimal separator, before scale)
	Grounded   bool       `json:"grounded"`
	Source     string     `json:"source,omitempty"` // "tool:execute_metric $.value", "user", "system"
	SourceKind SourceKind `json:"source_kind,omitempty"`
	Derivation string     `json:"derivation,omitempty"` // e.g. "21956.62 × (1 + 50%)"; "" when matched directly
	// Trivial marks a bare small integer (|value| ≤ 10, no decimals, percent,
	// currency or scale) such as "3 leve". It is checked like any other number;
	// the flag lets a policy exempt counts like these without guessing.
	Trivial bool `json:"trivial,omitempty"`
}

// Options control a check. Policies set them per intent.
type Options struct {
	AllowDerivations bool         // allow one arithmetic step between two source numbers
	Kinds            []SourceKind // which source kinds may ground a number; empty = all
	// Names are the words the answer may use for the quantities of the tool
	// results ("fatturato" for revenue): with AllowDerivations, a quantity the
	// answer names counts as a visible operand, like a number it shows. nil:
	// only the quantities' own names, none.
	Names *Names
}

// kindBit maps a kind to its bit in a kind mask; unknown kinds count as tool
// output because that is what an adapter most likely meant.
func kindBit(k SourceKind) uint8 {
	switch k {
	case User:
		return 2
	case System:
		return 4
	default:
		return 1
	}
}

// kindOrder lists the kinds in the order a label is preferred when a value
// appears in several sources: data beats the user's words beats the prompt.
var kindOrder = [3]SourceKind{Tool, User, System}

func kindMask(kinds []SourceKind) uint8 {
	if len(kinds) == 0 {
		return 7
	}
	var m uint8
	for _, k := range kinds {
		m |= kindBit(k)
	}
	return m
}
