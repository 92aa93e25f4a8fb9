package rules

import (
	"context"
	"time"
)

// Fallback is the classifier's seam for a second tier (an LLM): it is asked only when the
// rules' confidence is below the pack's fallback.below. Implementations must respect ctx
// (the caller sets the time limit) and must only answer intents of the pack; any other
// answer is treated as a failure and the pack default applies.
type Fallback interface {
	Classify(ctx context.Context, q FallbackQuery) (FallbackAnswer, error)
}

// FallbackQuery is what the fallback tier gets: the pack (its intents and descriptions and
// tests are the whole task description), the question, and the rules' own attempt.
type FallbackQuery struct {
	Pack       *Pack
	Text       string // the capped original question
	Normalized string // the normalized question, a good cache key together with the pack revision
	Rules      *Classification
}

// FallbackAnswer is the fallback tier's verdict.
type FallbackAnswer struct {
	Intent     string
	Confidence float64
	Model      string
	Tokens     int
	Latency    time.Duration
	Cached     bool
}
