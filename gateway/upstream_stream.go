package gateway

import (
	"errors"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/valyala/fasthttp"
)

// newStreamClient returns a client like base for stream: true requests. Its body is
// streamed, and instead of one deadline for the whole answer (a long stream would be
// cut) every read from the upstream gets its own: the stream fails when the upstream is
// silent for longer than idle, however long it lasts in total. Its connections are kept in
// live, so that a stream can be ended while its read blocks (abortStream).
func newStreamClient(base *fasthttp.HostClient, idle, connect time.Duration, live *streamConns) *fasthttp.HostClient {
	return &fasthttp.HostClient{
		Addr:                   base.Addr,
		Name:                   base.Name,
		IsTLS:                  base.IsTLS,
		MaxConns:               base.MaxConns,
		MaxIdleConnDuration:    base.MaxIdleConnDuration,
		WriteTimeout:           base.WriteTimeout,
		MaxResponseBodySize:    maxUpstreamBody,
		MaxConnWaitTimeout:     base.MaxConnWaitTimeout,
		StreamResponseBody:     true,
		DisablePathNormalizing: true,
		RetryIfErr:             base.RetryIfErr,
		Dial: func(addr string) (net.Conn, error) {
			c, err := fasthttp.DialTimeout(addr, connect)
			if err != nil {
				return nil, err
			}
			return live.add(&idleConn{Conn: c, idle: idle, live: live}), nil
		},
	}
}

// idleConn sets a fresh read deadline before every read, unless the stream was aborted.
type idleConn struct {
	net.Conn
	idle    time.Duration
	live    *streamConns
	aborted atomic.Bool
}

var errStreamAborted = errors.New("the stream was aborted")

func (c *idleConn) Read(p []byte) (int, error) {
	if c.idle > 0 {
		if err := c.Conn.SetReadDeadline(time.Now().Add(c.idle)); err != nil {
			return 0, err
		}
	}
	// Checked after the deadline is renewed: an abort between the two has set its past
	// deadline after ours, so the read below fails at once.
	if c.aborted.Load() {
		return 0, errStreamAborted
	}
	return c.Conn.Read(p)
}

// SetReadDeadline is a no-op: the per-read deadline above is the only one.
func (c *idleConn) SetReadDeadline(time.Time) error { return nil }

func (c *idleConn) Close() error {
	c.live.remove(c)
	return c.Conn.Close()
}

// streamConns are the open stream connections of an upstream by local address: a
// response knows the local address of its connection, not the connection.
type streamConns struct {
	mu sync.Mutex
	m  map[string]*idleConn
}

func (s *streamConns) add(c *idleConn) *idleConn {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[string]*idleConn{}
	}
	s.m[c.LocalAddr().String()] = c
	return c
}

func (s *streamConns) remove(c *idleConn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if k := c.LocalAddr().String(); s.m[k] == c {
		delete(s.m, k)
	}
}

// abortStream makes the blocked and every later read of the stream on the connection at
// local address laddr fail at once; the relay then ends and closes the connection, which
// cancels the upstream's generation. Shutdown ends the streams still running this way.
func (u *upstream) abortStream(laddr net.Addr) {
	if laddr == nil {
		return
	}
	u.live.mu.Lock()
	c := u.live.m[laddr.String()]
	u.live.mu.Unlock()
	if c != nil {
		c.aborted.Store(true)
		_ = c.Conn.SetReadDeadline(time.Unix(1, 0))
	}
}

// doStream sends a stream: true request; on success resp's body is a stream the caller
// must close (resp.CloseBodyStream), which also closes the connection when the stream
// was not read to its end, cancelling the upstream's generation.
func (u *upstream) doStream(req *fasthttp.Request, resp *fasthttp.Response) error {
	if err := u.stream.Do(req, resp); err != nil {
		return u.transportError(err)
	}
	stripResponseHop(&resp.Header)
	return nil
}

// transportError maps a transport failure to a request error: 504 for timeouts, 502 for
// everything else.
func (u *upstream) transportError(err error) error {
	var ne net.Error
	if errors.Is(err, fasthttp.ErrTimeout) || errors.Is(err, fasthttp.ErrDialTimeout) || (errors.As(err, &ne) && ne.Timeout()) {
		return &Error{Kind: KindUpstreamTimeout, Code: "upstream_timeout",
			Message: "upstream " + u.cfg.Name + " did not answer within " + u.cfg.Timeout.Std().String(), Err: err}
	}
	return &Error{Kind: KindUpstreamDown, Code: "upstream_unavailable", Message: "upstream " + u.cfg.Name + " is unavailable", Err: err}
}
