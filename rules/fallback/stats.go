package fallback

import (
	"errors"
	"fmt"
	"sync/atomic"
)

// The reasons a fallback answer fails; they label the failure counters in Stats and
// appear in the error the classification records.
const (
	reasonTimeout       = "timeout"        // the model did not answer within Options.Timeout
	reasonUpstream      = "upstream_error" // transport error or error status from the model
	reasonBreakerOpen   = "breaker_open"   // the breaker is open: no call was made
	reasonCanceled      = "canceled"       // the caller gave up before the answer came
	reasonEmpty         = "empty_answer"
	reasonNotJSON       = "not_json" // prose, code fences, trailing text, invalid JSON
	reasonMissingField  = "missing_field"
	reasonExtraField    = "extra_field"
	reasonInvalidField  = "invalid_field" // wrong type, duplicate key, confidence out of [0, 1]
	reasonUnknownIntent = "unknown_intent"
)

// Reasons lists every failure reason, in the order Stats reports them.
var Reasons = []string{
	reasonTimeout, reasonUpstream, reasonBreakerOpen, reasonCanceled, reasonEmpty,
	reasonNotJSON, reasonMissingField, reasonExtraField, reasonInvalidField, reasonUnknownIntent,
}

var errBreakerOpen = errors.New("the model failed repeatedly; not asking it for a while")

// Error is a failed fallback answer with its reason (one of Reasons).
type Error struct {
	Reason string
	Err    error
}

func (e *Error) Error() string { return fmt.Sprintf("llm %s: %v", e.Reason, e.Err) }

func (e *Error) Unwrap() error { return e.Err }

// Stats is a snapshot of the classifier's counters, for metrics. Counters only grow.
type Stats struct {
	Calls     uint64            // model calls made
	CacheHits uint64            // answers served from the cache
	Shared    uint64            // answers received from another request's call (single-flight)
	Tokens    uint64            // prompt + completion tokens the model reported
	Failures  map[string]uint64 // failed answers by reason, every reason present
	Breaker   string            // "closed", "open" or "half-open"
	Opened    uint64            // times the breaker opened
}

type counters struct {
	calls, cacheHits, shared, tokens atomic.Uint64
	failures                         [10]atomic.Uint64 // indexed like Reasons
}

func (c *counters) fail(reason string) {
	for i, r := range Reasons {
		if r == reason {
			c.failures[i].Add(1)
			return
		}
	}
}

// Stats returns the current counters and the breaker state.
func (c *Classifier) Stats() Stats {
	s := Stats{
		Calls: c.stats.calls.Load(), CacheHits: c.stats.cacheHits.Load(), Shared: c.stats.shared.Load(),
		Tokens: c.stats.tokens.Load(), Failures: make(map[string]uint64, len(Reasons)),
	}
	for i, r := range Reasons {
		s.Failures[r] = c.stats.failures[i].Load()
	}
	s.Breaker, s.Opened = c.breaker.state()
	return s
}
