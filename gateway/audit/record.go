// Package audit writes and checks Weir's audit trail: one JSON line per decision,
// hash-chained so that a reviewer can prove no record was altered, removed or reordered.
//
// Each record carries seq (1, 2, 3, ...), prev (the hash of the previous record, "" for the
// first) and hash: the hex SHA-256 of prev, a newline, and the record's canonical JSON
// without the hash field. The canonical JSON is the record re-encoded with sorted keys and
// numbers as written, so a verifier needs no knowledge of the record's schema. Removing the
// last records of a file cannot be detected from the file alone; ship records off the host
// (a log collector) if that matters.
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
	Subject    string    `json:"subject,omitempty"`
	Mode       string    `json:"mode,omitempty"`

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

// ToolCall is a tool call the model proposed and the verdict on it.
type ToolCall struct {
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name"`
	Allowed   bool            `json:"allowed"`
	Reason    string          `json:"reason,omitempty"`
	Arguments json.RawMessage `json:"arguments,omitempty"` // only with include_content
}

// Violation is one policy violation of the decision.
type Violation struct {
	Code    string `json:"code"`
	Message string `json:"message,omitempty"`
	Rule    string `json:"rule,omitempty"`
}

// Content is what the exchange said, recorded only with include_content.
type Content struct {
	Prompt string `json:"prompt,omitempty"`
	Answer string `json:"answer,omitempty"`
}
