// Package replay re-decides recorded exchanges with a candidate rule pack and policy
// bundle, and reports what would change: the intent, the tools the intent may be offered,
// each tool call's verdict, and the request and tools violations.
//
// An exchange recorded with its content (include_content) is classified again from its
// prompt, and its tool calls are judged with their arguments. Without content the recorded
// intent is kept and calls are judged without arguments: such exchanges are partial.
// Response checks (the numbers of an answer) are not replayed: they are grounded in tool
// results, which the trail does not hold.
package replay

import (
	"context"
	"fmt"

	"github.com/weirgw/weir/policies"
	"github.com/weirgw/weir/rules"
)

// Candidate is the rule pack and policy bundle exchanges are replayed against.
type Candidate struct {
	classifier *rules.Classifier
	bundle     *policies.Bundle
}

// Load compiles the candidate pack and bundle; errors carry file:line.
func Load(ctx context.Context, rulesDir, policiesDir string) (*Candidate, error) {
	pack, err := rules.LoadDir(rulesDir)
	if err != nil {
		return nil, fmt.Errorf("rules: %w", err)
	}
	bundle, err := policies.Load(ctx, policiesDir)
	if err != nil {
		return nil, fmt.Errorf("policies: %w", err)
	}
	return &Candidate{classifier: rules.NewClassifier(pack), bundle: bundle}, nil
}

// Result is one exchange re-decided, and what changed.
type Result struct {
	DecisionID string   `json:"decision_id"`
	Time       string   `json:"time"`
	Route      string   `json:"route"`
	Partial    []string `json:"partial,omitempty"` // why the replay is partial
	Intent     Change   `json:"intent"`
	// Tools are the tools the record names (offered and removed, or called) whose place in
	// the intent's allowed list changed: Was and Now say whether each is allowed.
	Tools      []ToolChange `json:"tools,omitempty"`
	Calls      []CallChange `json:"calls,omitempty"` // tool calls whose verdict changed
	Added      []string     `json:"violations_added,omitempty"`
	Removed    []string     `json:"violations_removed,omitempty"`
	Admitted   Flip         `json:"admitted"`
	Error      string       `json:"error,omitempty"` // the candidate failed to decide
	AllowedNow []string     `json:"allowed_tools"`   // the candidate's allowed tools
}

// Change is a recorded value and the replayed one.
type Change struct {
	Was string `json:"was"`
	Now string `json:"now"`
}

// Flip is a recorded verdict and the replayed one.
type Flip struct {
	Was bool `json:"was"`
	Now bool `json:"now"`
}

// ToolChange is a tool whose allowance changed.
type ToolChange struct {
	Name string `json:"name"`
	Flip
}

// CallChange is a tool call whose verdict changed.
type CallChange struct {
	ID     string `json:"id,omitempty"`
	Name   string `json:"name"`
	Reason string `json:"reason,omitempty"` // the candidate's reason
	Flip
}

// Changed reports whether anything of the exchange would be decided differently.
func (r *Result) Changed() bool {
	return r.Intent.Was != r.Intent.Now || len(r.Tools) > 0 || len(r.Calls) > 0 ||
		len(r.Added) > 0 || len(r.Removed) > 0 || r.Admitted.Was != r.Admitted.Now || r.Error != ""
}
