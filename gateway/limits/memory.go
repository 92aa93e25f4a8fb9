package limits

import (
	"context"
	"sync"
	"time"
)

// Memory is the in-process store: the budgets of one replica.
type Memory struct {
	mu   sync.Mutex
	tats map[string]float64
	now  func() time.Time
	ops  int
}

// NewMemory returns an empty memory store on the wall clock.
func NewMemory() *Memory { return NewMemoryClock(time.Now) }

// NewMemoryClock returns an empty memory store on the clock now (tests).
func NewMemoryClock(now func() time.Time) *Memory {
	return &Memory{tats: map[string]float64{}, now: now}
}

// sweepEvery is how many operations pass between sweeps of idle buckets (TAT in the
// past: a full budget, the same as no entry).
const sweepEvery = 4096

// Take implements Store.
func (m *Memory) Take(_ context.Context, bs []Bucket) (time.Duration, int, error) {
	now := float64(m.now().UnixNano())
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sweep(now)
	var buf [4]float64
	tats := buf[:0]
	for _, b := range bs {
		tats = append(tats, m.tats[b.Key])
	}
	next, wait, which := take(tats, bs, now)
	if wait > 0 {
		return time.Duration(wait), which, nil
	}
	for i, b := range bs {
		if b.Cost > 0 {
			m.tats[b.Key] = next[i]
		}
	}
	return 0, -1, nil
}

// Charge implements Store.
func (m *Memory) Charge(_ context.Context, bs []Bucket, n int64) error {
	now := float64(m.now().UnixNano())
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, b := range bs {
		m.tats[b.Key] = max(m.tats[b.Key], now) + float64(n)*b.interval()
	}
	return nil
}

func (m *Memory) sweep(now float64) {
	if m.ops++; m.ops < sweepEvery {
		return
	}
	m.ops = 0
	for k, tat := range m.tats {
		if tat < now {
			delete(m.tats, k)
		}
	}
}

// Close implements Store.
func (m *Memory) Close() error { return nil }
