package rules

import "time"

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
	Intent     string         `json:"intent"`
	Confidence float64        `json:"confidence"`
	Source     Source         `json:"source"`
	Rules      []RuleMatch    `json:"rules"`
	Filters    map[string]any `json:"filters"`
	Spans      []Span         `json:"spans,omitempty"`
	Scores     []IntentScore  `json:"scores,omitempty"`
	// Override is the id of the `decide` entry that set the intent, if any.
	Override string `json:"override,omitempty"`
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
