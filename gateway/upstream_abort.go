package gateway

import (
	"context"
	"errors"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// fasthttp's client takes no context: a plain (not streamed) upstream call blocked on a
// silent upstream would run to the upstream's own timeout, past the shutdown's grace
// period, and its audit record would find the trail closed. So the plain client's
// connections are kept in a plainConns, and when the gateway's base context ends (the
// shutdown) every one of them fails its reads at once; the call returns
// errUpstreamShutdown and the request is answered and recorded before the trail closes.
//
// The abort is registered on the base context once per upstream when a snapshot using it
// is installed (armAborts), not per call: a context.AfterFunc per call cost ~1.4% of the
// gateway's CPU and a lock every request shared. An upstream a reload retires stays armed
// until the calls it may still carry have ended (retiredDrain), then is disarmed, so
// reloads do not pile up registrations.

// armAborts registers the abort of every upstream of s that is not armed yet. It runs
// before s is installed, under reloadMu (or in New).
func (g *Gateway) armAborts(s *Snapshot) {
	for _, u := range s.upstreams {
		if u.disarm == nil {
			u.disarm = context.AfterFunc(g.base, u.plain.abort)
		}
	}
}

// retiredDrain is how long a retired upstream can still carry a call: waiting for a
// connection, connecting, and the call itself.
func (u *upstream) retiredDrain() time.Duration {
	return 2*u.cfg.Timeout.Std() + u.cfg.ConnectTimeout.Std() + time.Second
}

// retire disarms u once the calls it may still carry have ended.
func (u *upstream) retire() {
	if u.disarm != nil {
		disarm := u.disarm
		time.AfterFunc(u.retiredDrain(), func() { disarm() })
	}
}

// errUpstreamShutdown ends the plain upstream calls still waiting when the shutdown's grace
// period is over.
var errUpstreamShutdown = &Error{Kind: KindNotReady, Code: "shutting_down", Message: "the gateway is shutting down; the upstream call was ended"}

var errPlainAborted = errors.New("the upstream call was aborted at shutdown")

// plainConns are the open connections of an upstream's plain client. Once aborted, every
// read on them, and every connection dialed later, fails.
type plainConns struct {
	mu      sync.Mutex
	m       map[*plainConn]struct{}
	aborted atomic.Bool
}

// plainConn is one connection of the plain client.
type plainConn struct {
	net.Conn
	set *plainConns
}

// track registers c; an aborted set refuses it.
func (s *plainConns) track(c net.Conn) (net.Conn, error) {
	pc := &plainConn{Conn: c, set: s}
	s.mu.Lock()
	if s.aborted.Load() {
		s.mu.Unlock()
		_ = c.Close()
		return nil, errPlainAborted
	}
	if s.m == nil {
		s.m = map[*plainConn]struct{}{}
	}
	s.m[pc] = struct{}{}
	s.mu.Unlock()
	return pc, nil
}

// abort makes every blocked and later read fail at once. The flag is set before the past
// deadlines: a read that checked the flag before it was set blocks on a connection whose
// deadline is then already in the past (fasthttp sets its own deadline before reading).
func (s *plainConns) abort() {
	s.aborted.Store(true)
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range s.m {
		_ = c.Conn.SetReadDeadline(time.Unix(1, 0))
	}
}

func (c *plainConn) Read(p []byte) (int, error) {
	if c.set.aborted.Load() {
		return 0, errPlainAborted
	}
	return c.Conn.Read(p)
}

func (c *plainConn) Close() error {
	c.set.mu.Lock()
	delete(c.set.m, c)
	c.set.mu.Unlock()
	return c.Conn.Close()
}

// inflight counts the requests being handled, so that Shutdown can wait for their audit
// records before it closes the trail: fasthttp's own shutdown stops waiting when the grace
// period ends. (A sync.WaitGroup may not be added to while a Wait from zero is pending,
// which a late request on a kept-alive connection could do.) The count is one atomic add
// per request; the lock is taken only while Shutdown waits.
type inflight struct {
	n       atomic.Int64
	waiting atomic.Bool
	mu      sync.Mutex
	idle    chan struct{} // closed when the count drops to zero while Shutdown waits
}

func (f *inflight) add() { f.n.Add(1) }

func (f *inflight) done() {
	if f.n.Add(-1) == 0 && f.waiting.Load() {
		f.mu.Lock()
		if f.idle != nil {
			close(f.idle)
			f.idle = nil
		}
		f.mu.Unlock()
	}
}

// wait returns 0 once no request is being handled, or the number still running when
// timeout ends.
func (f *inflight) wait(timeout time.Duration) int64 {
	f.mu.Lock()
	idle := make(chan struct{})
	f.idle = idle
	f.waiting.Store(true)
	f.mu.Unlock()
	if f.n.Load() == 0 {
		return 0
	}
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case <-idle:
		return 0
	case <-t.C:
		return f.n.Load()
	}
}
