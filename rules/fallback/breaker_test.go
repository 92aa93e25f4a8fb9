package fallback

import (
	"testing"
	"time"
)

type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

func TestBreaker(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1000, 0)}
	b := newBreaker(3, 30*time.Second, clk.now)
	state := func(want string) {
		t.Helper()
		if got, _ := b.state(); got != want {
			t.Fatalf("state %s, want %s", got, want)
		}
	}
	for i := 0; i < 2; i++ {
		if !b.allow() {
			t.Fatal("closed breaker refused")
		}
		b.record(false)
	}
	b.allow()
	b.record(true) // a success resets the count
	for i := 0; i < 3; i++ {
		b.allow()
		b.record(false)
	}
	state("open")
	if b.allow() {
		t.Fatal("open breaker allowed a call")
	}
	clk.t = clk.t.Add(31 * time.Second)
	state("half-open")
	if !b.allow() {
		t.Fatal("half-open breaker refused the probe")
	}
	if b.allow() {
		t.Fatal("half-open breaker allowed a second probe")
	}
	b.record(false) // the probe failed: open again, for another cooldown
	state("open")
	clk.t = clk.t.Add(31 * time.Second)
	if !b.allow() {
		t.Fatal("no probe after the second cooldown")
	}
	b.record(true)
	state("closed")
	if _, opened := b.state(); opened != 1 {
		t.Errorf("opened %d times, want 1 (a failed probe re-opens, it does not count)", opened)
	}
}

func TestLRU(t *testing.T) {
	c := newLRU(2)
	c.add("a", answer("simple"))
	c.add("b", answer("complex"))
	if _, ok := c.get("a"); !ok { // a is now the most recent
		t.Fatal("a missing")
	}
	c.add("c", answer("hybrid")) // evicts b
	if _, ok := c.get("b"); ok {
		t.Error("b survived eviction")
	}
	if got, ok := c.get("a"); !ok || got.Intent != "simple" {
		t.Errorf("a = %+v %v", got, ok)
	}
	if c.len() != 2 {
		t.Errorf("len %d", c.len())
	}
}
