// Package audit writes and checks Weir's audit trail: one JSON line per decision,
// hash-chained so that a reviewer can prove, with their own tools, that no record was
// altered, removed or reordered.
//
// Each record carries seq (1, 2, 3, … along the chain, across rotated files), prev (the
// previous record's hash, "" for the first) and hash: the lowercase hex SHA-256 of the
// record without its hash member, canonicalised per RFC 8785 (JCS: keys sorted by UTF-16
// code units, no whitespace, minimal string escaping, numbers as ECMAScript writes them).
// Any JCS implementation reproduces it from the parsed line; the README has a Python
// verifier. Trails written before this scheme (FormatLegacy) still verify.
//
// The chain alone cannot show that the last records of a trail were removed. Signed
// checkpoints (checkpoint.go), written apart from the trail, can: a checkpoint names a
// seq and its hash, signed with Ed25519, and Verifier.Finish reports a trail that ends
// before it.
package audit

import (
	"encoding/json"
	"time"
)

// Outcomes of a decision.
const (
	OutcomeAllowed   = "allowed"   // forwarded unchanged, nothing violated
	OutcomeBlocked   = "blocked"   // refused with an error
	OutcomeModified  = "modified"  // forwarded after a rewrite (enforce + rewrite)
	OutcomeMonitored = "monitored" // violations found, forwarded unchanged (monitor mode)
	OutcomeError     = "error"     // the gateway or the upstream failed
)

// Record is one decision. Content fields are filled only when the config says so; the
// gateway never puts headers, keys or tokens into a record.
type Record struct {
	Seq  uint64 `json:"seq"`
	Prev string `json:"prev"`
	Hash string `json:"hash,omitempty"`

	Time       time.Time `json:"time"`
	DecisionID string    `json:"decision_id"`
	RequestID  string    `json:"request_id,omitempty"`
	Surface    string    `json:"surface"`
	Route      string    `json:"route"`
	// RouteKind is how the request was served: on the query surface data, llm, data+llm,
	// agent or known; model on the openai surface; data_api on the data surface; "" when
	// it was refused before routing.
	RouteKind string `json:"route_kind,omitempty"`
	// Subject is who the gateway authenticated. Records written before it was an object
	// carry a string, which UnmarshalJSON reads as the subject's id.
	Subject Subject `json:"subject,omitzero"`
	// EndUser is what the request body's user field claims; it is never the subject.
	EndUser string `json:"end_user,omitempty"`
	Mode    string `json:"mode,omitempty"`
	// RequestedMode is the query surface's options.mode as the client sent it.
	RequestedMode string `json:"requested_mode,omitempty"`

	Intent     string   `json:"intent,omitempty"`
	Confidence float64  `json:"confidence"`
	Source     string   `json:"source,omitempty"`
	Rules      []string `json:"rules"`
	// Reason says why the tier in Source decided (the classification's reason), e.g.
	// "rules confidence 0.46 is below 0.60; the fallback classifier decided".
	Reason string `json:"reason,omitempty"`
	// Fallback describes the call to the LLM fallback, when the classifier asked it.
	Fallback *Fallback `json:"fallback,omitempty"`

	PolicyRevision string `json:"policy_revision,omitempty"`
	PackRevision   string `json:"pack_revision,omitempty"`

	// Sources are the data Weir read itself (query surface).
	Sources      []Source    `json:"sources,omitempty"`
	ToolCalls    []ToolCall  `json:"tool_calls"`
	ToolsRemoved []string    `json:"tools_removed,omitempty"` // offered by the client, not allowed for the intent
	Violations   []Violation `json:"violations"`

	Outcome        string           `json:"outcome"`
	Status         int              `json:"status"`
	UpstreamStatus int              `json:"upstream_status,omitempty"`
	Error          string           `json:"error,omitempty"`
	LatencyUS      map[string]int64 `json:"latency_us"`

	Content *Content `json:"content,omitempty"`
}

// Fallback is the classifier's call to the LLM fallback: the model, how long it took, and
// why it failed when the pack default applied instead.
type Fallback struct {
	Model     string `json:"model,omitempty"`
	LatencyUS int64  `json:"latency_us"`
	Tokens    int    `json:"tokens,omitempty"`
	Cached    bool   `json:"cached,omitempty"`
	Intent    string `json:"intent,omitempty"` // the model's answer, also when it was refused
	Error     string `json:"error,omitempty"`
}

// Subject is the authenticated caller of a decision.
type Subject struct {
	ID         string   `json:"id"`
	Roles      []string `json:"roles,omitempty"`
	Tenant     string   `json:"tenant,omitempty"`
	AuthMethod string   `json:"auth_method,omitempty"` // api_key, jwt, header or none
}

// Source is a dataset Weir read itself to answer (query surface).
type Source struct {
	Name  string `json:"name"`
	Tool  string `json:"tool,omitempty"`
	Rows  int    `json:"rows"`
	Used  bool   `json:"used"`
	Error string `json:"error,omitempty"`
}

// Origins of a tool call.
const (
	OriginModel = "model" // proposed by the model
	OriginWeir  = "weir"  // run by Weir itself (data reads, the agent loop)
)

// Actions taken on a tool call.
const (
	ActionForwarded = "forwarded" // sent to the client
	ActionRemoved   = "removed"   // dropped by a rewrite
	ActionRefused   = "refused"   // the whole answer was refused
	ActionMonitored = "monitored" // denied but forwarded (monitor mode)
	ActionRan       = "ran"       // run by Weir
	ActionDenied    = "denied"    // Weir's own call, denied by the tools policy
)

// ToolCall is a tool call and the verdict on it: proposed by the model, or run by Weir.
type ToolCall struct {
	// Choice is the index of the answer's choice that proposed the call (0 for most
	// answers, which have one choice).
	Choice  int    `json:"choice,omitempty"`
	ID      string `json:"id,omitempty"`
	Type    string `json:"type,omitempty"` // function or custom
	Name    string `json:"name"`
	Origin  string `json:"origin,omitempty"`
	Allowed bool   `json:"allowed"`
	Reason  string `json:"reason,omitempty"`
	Action  string `json:"action,omitempty"`
	// Rows is how many rows a call Weir ran returned; nil for calls it did not run.
	Rows *int `json:"rows,omitempty"`
	// Arguments, only with include_content: the JSON object the model wrote; arguments that
	// are not a JSON object are a JSON string of their text.
	Arguments json.RawMessage `json:"arguments,omitempty"`
}

// Violation is one policy violation of the decision.
type Violation struct {
	Code    string `json:"code"`
	Message string `json:"message,omitempty"`
	Rule    string `json:"rule,omitempty"`
}

// Content is what the exchange said, recorded only with include_content.
// The texts are exactly what was forwarded to the client, after the checks.
type Content struct {
	Prompt  string   `json:"prompt,omitempty"`
	Answer  string   `json:"answer,omitempty"`
	Choices []Choice `json:"choices,omitempty"`
}

// Choice is one choice of a model answer as forwarded.
type Choice struct {
	Index     int    `json:"index"`
	Content   string `json:"content,omitempty"`
	Refusal   string `json:"refusal,omitempty"`
	Reasoning string `json:"reasoning,omitempty"`
}
