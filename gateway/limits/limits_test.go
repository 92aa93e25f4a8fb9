package limits

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

var ctx = context.Background()

// TestMemory drives the memory store on a fake clock.
func TestMemory(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	m := NewMemoryClock(func() time.Time { return now })
	req := []Bucket{{Key: "s|r", PerMinute: 3, Cost: 1}, {Key: "t|r", PerMinute: 100, Cost: 1}}
	for i := range 3 {
		if wait, _, _ := m.Take(ctx, req); wait != 0 {
			t.Fatalf("request %d waits %v", i, wait)
		}
	}
	wait, which, _ := m.Take(ctx, req)
	if wait != 20*time.Second || which != 0 {
		t.Fatalf("4th request: wait %v bucket %d, want 20s bucket 0", wait, which)
	}
	// A refused request spends nothing, not even in the buckets that allowed it.
	if m.tats["t|r"] != float64(now.UnixNano())+3*float64(Window)/100 {
		t.Errorf("the tenant bucket was charged by a refused request")
	}
	now = now.Add(20 * time.Second)
	if wait, _, _ := m.Take(ctx, req); wait != 0 {
		t.Fatalf("after 20s: wait %v", wait)
	}
	// Tokens: checked at cost 0, charged after the answer.
	tok := []Bucket{{Key: "s|t", PerMinute: 1000}}
	if wait, _, _ := m.Take(ctx, tok); wait != 0 {
		t.Fatal("a fresh token budget refuses")
	}
	m.Charge(ctx, tok, 1500) // one answer overspends the minute by 500 tokens
	wait, _, _ = m.Take(ctx, tok)
	if wait != 30*time.Second {
		t.Errorf("overspent by 500 of 1000/min: wait %v, want 30s", wait)
	}
	now = now.Add(30 * time.Second)
	if wait, _, _ := m.Take(ctx, tok); wait != 0 {
		t.Errorf("after 30s: wait %v", wait)
	}
}

// TestTake is the arithmetic both stores share.
func TestTake(t *testing.T) {
	tests := []struct {
		name      string
		tat       float64
		b         Bucket
		wantWait  float64
		wantWhich int
	}{
		{"fresh", 0, Bucket{PerMinute: 60, Cost: 1}, 0, -1},
		{"full burst", 1000 + float64(Window), Bucket{PerMinute: 60, Cost: 1}, float64(time.Second), 0},
		{"check only, at the edge", 1000 + float64(Window), Bucket{PerMinute: 60}, 0, -1},
		{"check only, overspent", 1000 + float64(Window) + 5, Bucket{PerMinute: 60}, 5, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, wait, which := take([]float64{tc.tat}, []Bucket{tc.b}, 1000)
			if wait != tc.wantWait || which != tc.wantWhich {
				t.Errorf("wait %v which %d, want %v %d", wait, which, tc.wantWait, tc.wantWhich)
			}
		})
	}
}

// sharedRedis returns a store on the Redis at 127.0.0.1:6379 with a prefix of its own, or
// skips the test when none answers.
func sharedRedis(t *testing.T) *Redis {
	t.Helper()
	c, err := net.DialTimeout("tcp", "127.0.0.1:6379", 200*time.Millisecond)
	if err != nil {
		t.Skip("no Redis answers on 127.0.0.1:6379; the shared-store tests need one (skipped)")
	}
	c.Close()
	r, err := NewRedis("redis://127.0.0.1:6379/0", "weir-test:"+randomHex()+":", time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

func randomHex() string {
	b := make([]byte, 6)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// TestStoresAgree runs the same sequence on the memory store and on Redis.
func TestStoresAgree(t *testing.T) {
	stores := map[string]Store{"memory": NewMemory(), "redis": sharedRedis(t)}
	for name, s := range stores {
		t.Run(name, func(t *testing.T) {
			req := []Bucket{{Key: "s|r", PerMinute: 5, Cost: 1}, {Key: "t|r", PerMinute: 1000, Cost: 1}}
			for i := range 5 {
				if wait, _, err := s.Take(ctx, req); wait != 0 || err != nil {
					t.Fatalf("request %d: %v %v", i, wait, err)
				}
			}
			wait, which, err := s.Take(ctx, req)
			if err != nil || which != 0 || wait < 10*time.Second || wait > 12*time.Second {
				t.Errorf("6th request: wait %v bucket %d %v, want ≈12s bucket 0", wait, which, err)
			}
			tok := []Bucket{{Key: "s|t", PerMinute: 600}}
			if err := s.Charge(ctx, tok, 900); err != nil {
				t.Fatal(err)
			}
			wait, which, err = s.Take(ctx, tok)
			if err != nil || which != 0 || wait < 28*time.Second || wait > 30*time.Second {
				t.Errorf("overspent tokens: wait %v bucket %d %v, want ≈30s", wait, which, err)
			}
		})
	}
}

// TestConcurrentTakes: many goroutines on one budget get exactly the budget.
func TestConcurrentTakes(t *testing.T) {
	stores := map[string]func(*testing.T) Store{
		"memory": func(*testing.T) Store { return NewMemory() },
		"redis":  func(t *testing.T) Store { return sharedRedis(t) },
	}
	for name, mk := range stores {
		t.Run(name, func(t *testing.T) {
			s := mk(t)
			b := []Bucket{{Key: "hot", PerMinute: 50, Cost: 1}}
			var allowed atomic.Int64
			var wg sync.WaitGroup
			start := time.Now()
			for range 10 {
				wg.Go(func() {
					for range 20 {
						if wait, _, err := s.Take(ctx, b); err == nil && wait == 0 {
							allowed.Add(1)
						}
					}
				})
			}
			wg.Wait()
			// The burst of 50, plus the units that refilled (one every 1.2s) while they ran,
			// however long that took.
			refilled := int64(time.Since(start)/(1200*time.Millisecond)) + 1
			if n := allowed.Load(); n < 50 || n > 50+refilled {
				t.Errorf("allowed %d of 200, want the budget of 50 (+%d refilled)", n, refilled)
			}
		})
	}
}
