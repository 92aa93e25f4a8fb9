package rules

import (
	"slices"
	"strings"
	"time"
)

// Source says which tier decided a classification.
type Source string

// The tiers of the classifier.
const (
	SourceRules   Source = "rules"   // the rules reached the pack's threshold
	SourceDefault Source = "default" // below the threshold and no (usable) fallback answer
	SourceLLM     Source = "llm"     // the fallback classifier answered
)

// Classification is the result of classifying one question, with everything needed to
// explain it.
type Classification struct {
	Intent     string  `json:"intent"`
	Confidence float64 `json:"confidence"`
	Source     Source  `json:"source"`
	// PrimaryTool and FallbackTools are the route of the intent (seed 001's tool selection):
	// the tool to try first and the ones to try when it finds nothing. They are the pack's
	// own slices: read them, never modify them.
	PrimaryTool   string         `json:"primary_tool,omitempty"`
	FallbackTools []string       `json:"fallback_tools,omitempty"`
	Rules         []RuleMatch    `json:"rules"`
	Filters       map[string]any `json:"filters"`
	Spans         []Span         `json:"spans,omitempty"`
	Scores        []IntentScore  `json:"scores,omitempty"`
	// Override is the id of the `decide` entry that set the intent, if any, and
	// OverrideDescription its description.
	Override            string `json:"override,omitempty"`
	OverrideDescription string `json:"override_description,omitempty"`
	// RulesIntent and RulesConfidence are the rules' own answer, kept when another tier decided.
	RulesIntent     string  `json:"rules_intent,omitempty"`
	RulesConfidence float64 `json:"rules_confidence"`
	// Reason says, in a sentence, why the source is what it is.
	Reason string `json:"reason"`
	// Fallback describes the call to the fallback classifier, when one was made.
	Fallback *FallbackInfo `json:"fallback,omitempty"`
	// Truncated is true when the question was longer than the pack's max_scan_bytes; only
	// the first ScannedBytes bytes were classified.
	Truncated    bool `json:"truncated,omitempty"`
	ScannedBytes int  `json:"scanned_bytes"`
}

// RuleMatch is one rule that matched.
type RuleMatch struct {
	ID     string  `json:"id"`
	Intent string  `json:"intent"`
	Weight float64 `json:"weight"`
	// Description is the rule's description, "" when it has none.
	Description string `json:"description,omitempty"`
}

// Span records which part of the original question filled a field.
type Span struct {
	Field string `json:"field"`
	Value any    `json:"value"`
	Start int    `json:"start"`
	End   int    `json:"end"`
	Text  string `json:"text"`
}

// IntentScore is an intent's summed rule weight.
type IntentScore struct {
	Intent string  `json:"intent"`
	Score  float64 `json:"score"`
}

// RuleIDs returns the ids of the matched rules in match order.
func (c *Classification) RuleIDs() []string {
	ids := make([]string, len(c.Rules))
	for i, r := range c.Rules {
		ids[i] = r.ID
	}
	return ids
}

// Rationale explains the classification in a few sentences, as seed 001's
// QueryClassification does: when the rules decided, the description of the override that
// set the intent and of every matched rule that argued for it (a rule without a description
// is named by its id); otherwise Reason.
func (c *Classification) Rationale() string {
	if c.Source != SourceRules {
		return c.Reason
	}
	var parts []string
	if c.OverrideDescription != "" {
		parts = append(parts, c.OverrideDescription)
	}
	for _, r := range c.Rules {
		if r.Intent != c.Intent || r.Weight <= 0 {
			continue
		}
		d := r.Description
		if d == "" {
			d = r.ID
		}
		if !slices.Contains(parts, d) {
			parts = append(parts, d)
		}
	}
	if len(parts) == 0 {
		return c.Reason
	}
	return strings.Join(parts, "; ")
}

// FallbackInfo describes a call to the fallback classifier.
type FallbackInfo struct {
	Model     string        `json:"model,omitempty"`
	Latency   time.Duration `json:"latency_ns"`
	Tokens    int           `json:"tokens,omitempty"`
	Cached    bool          `json:"cached,omitempty"`
	Error     string        `json:"error,omitempty"`
	Intent    string        `json:"intent,omitempty"`
	Confident float64       `json:"confidence,omitempty"`
}
