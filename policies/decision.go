package policies

// Violation is one reason a decision denies. Code is stable (see README.md); Rule names the
// Rego rule that produced it; Text is the number as written, for number violations.
type Violation struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Rule    string `json:"rule,omitempty"`
	Text    string `json:"text,omitempty"`
}

// Obligations bind the rest of an exchange once the request is admitted.
type Obligations struct {
	AllowedTools           []string `json:"allowed_tools"` // the tools the model may be offered (blocked ones removed)
	BlockedTools           []string `json:"blocked_tools"`
	RequireToolCall        bool     `json:"require_tool_call"`
	BlockNumericGeneration bool     `json:"block_numeric_generation"`
	AllowDerivations       bool     `json:"allow_derivations"` // one arithmetic step from source numbers counts as grounded
	NumberSources          []string `json:"number_sources"`    // tool, user, system: where numbers may come from
}

// RequestDecision is the result of data.weir.request.decision.
type RequestDecision struct {
	Allow       bool        `json:"allow"`
	Violations  []Violation `json:"violations"`
	Obligations Obligations `json:"obligations"`
	Revision    string      `json:"revision"`
}

// CallDecision is the verdict on one proposed tool call, in the order of Input.ToolCalls.
type CallDecision struct {
	ID         string      `json:"id"`
	Name       string      `json:"name"`
	Allow      bool        `json:"allow"`
	Reason     string      `json:"reason"`
	Violations []Violation `json:"violations"`
}

// ToolsDecision is the result of data.weir.tools.decision. Allow holds only when every
// call is allowed and there is no other violation.
type ToolsDecision struct {
	Allow      bool           `json:"allow"`
	Calls      []CallDecision `json:"calls"`
	Violations []Violation    `json:"violations"`
	Revision   string         `json:"revision"`
}

// ResponseDecision is the result of data.weir.response.decision.
type ResponseDecision struct {
	Allow      bool        `json:"allow"`
	Violations []Violation `json:"violations"`
	Revision   string      `json:"revision"`
}
