package fallback

import (
	"sync"
	"time"
)

// breaker stops calling a model that keeps failing: after `limit` consecutive failures it
// opens for `cooldown`, then lets exactly one probe through (half-open); the probe's
// outcome closes it or opens it again.
type breaker struct {
	mu       sync.Mutex
	limit    int
	cooldown time.Duration
	now      func() time.Time
	fails    int
	openTill time.Time // zero when closed
	probing  bool      // a half-open probe is in flight
	opened   uint64
}

func newBreaker(limit int, cooldown time.Duration, now func() time.Time) *breaker {
	return &breaker{limit: limit, cooldown: cooldown, now: now}
}

// allow says whether a call may be made now; in half-open state it admits one probe.
func (b *breaker) allow() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.openTill.IsZero() {
		return true
	}
	if b.now().Before(b.openTill) || b.probing {
		return false
	}
	b.probing = true
	return true
}

// record reports the outcome of an allowed call.
func (b *breaker) record(ok bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	wasProbe := b.probing
	b.probing = false
	if ok {
		b.fails, b.openTill = 0, time.Time{}
		return
	}
	b.fails++
	if wasProbe || b.fails >= b.limit {
		if !wasProbe && b.openTill.IsZero() {
			b.opened++
		}
		b.openTill = b.now().Add(b.cooldown)
	}
}

// state returns "closed", "open" or "half-open" and how often the breaker opened.
func (b *breaker) state() (string, uint64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case b.openTill.IsZero():
		return "closed", b.opened
	case b.probing || !b.now().Before(b.openTill):
		return "half-open", b.opened
	default:
		return "open", b.opened
	}
}
