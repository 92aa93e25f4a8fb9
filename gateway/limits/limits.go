// Package limits keeps rate-limit budgets: requests and model tokens per minute, per caller
// and per tenant. A budget is a bucket under the generic cell rate algorithm (GCRA): one
// timestamp per bucket, the theoretical arrival time (TAT), which moves forward by
// cost × (one minute / rate) with every use. A use is allowed while TAT stays within one
// minute of now, so a caller may spend a whole minute's budget at once and then one unit
// every minute/rate. The memory store (one replica) and the Redis store (every replica,
// updated by atomic Lua scripts on the server's clock) compute exactly this.
package limits

import (
	"context"
	"time"
)

// Window is the burst of every bucket: a full minute's budget.
const Window = time.Minute

// Bucket is one budget touched by a request.
type Bucket struct {
	// Key identifies the bucket in the store.
	Key string
	// PerMinute is the budget's rate; positive.
	PerMinute int64
	// Cost is what Take spends: 1 for a request; 0 only checks that the budget is not
	// overspent (a token budget, charged after the answer).
	Cost int64
}

// interval is the time one unit of the budget takes to refill.
func (b Bucket) interval() float64 { return float64(Window) / float64(b.PerMinute) }

// Store keeps the buckets.
type Store interface {
	// Take checks every bucket and, only when all allow, spends each one's cost, as one
	// atomic step. It returns 0 when allowed, else how long until the request would be and
	// the index of the bucket that waits longest.
	Take(ctx context.Context, bs []Bucket) (wait time.Duration, which int, err error)
	// Charge spends n units of every bucket without checking (tokens, once the answer
	// says how many were used).
	Charge(ctx context.Context, bs []Bucket, n int64) error
	// Close releases the store's connections.
	Close() error
}

// take computes Take on the TATs of the buckets (ns since the epoch; 0 for a fresh bucket)
// at now, and returns the new TATs when allowed. Both stores use it: Redis runs the same
// arithmetic in Lua (redis.go), the agreement test checks they agree.
func take(tats []float64, bs []Bucket, now float64) (next []float64, wait float64, which int) {
	next = make([]float64, len(bs))
	which = -1
	for i, b := range bs {
		tat := max(tats[i], now)
		next[i] = tat + float64(b.Cost)*b.interval()
		if over := next[i] - now - float64(Window); over > wait {
			wait, which = over, i
		}
	}
	return next, wait, which
}
