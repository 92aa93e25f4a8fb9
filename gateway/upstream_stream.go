package gateway

import (
	"errors"
	"net"
	"time"

	"github.com/valyala/fasthttp"
)

// newStreamClient returns a client like base for stream: true requests. Its body is
// streamed, and instead of one deadline for the whole answer (a long stream would be
// cut) every read from the upstream gets its own: the stream fails when the upstream is
// silent for longer than idle, however long it lasts in total.
func newStreamClient(base *fasthttp.HostClient, idle, connect time.Duration) *fasthttp.HostClient {
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
			return &idleConn{Conn: c, idle: idle}, nil
		},
	}
}

// idleConn sets a fresh read deadline before every read.
type idleConn struct {
	net.Conn
	idle time.Duration
}

func (c *idleConn) Read(p []byte) (int, error) {
	if c.idle > 0 {
		if err := c.Conn.SetReadDeadline(time.Now().Add(c.idle)); err != nil {
			return 0, err
		}
	}
	return c.Conn.Read(p)
}

// SetReadDeadline is a no-op: the per-read deadline above is the only one.
func (c *idleConn) SetReadDeadline(time.Time) error { return nil }

// doStream sends a stream: true request; on success resp's body is a stream the caller
// must close (resp.CloseBodyStream), which also closes the connection when the stream
// was not read to its end, cancelling the upstream's generation.
func (u *upstream) doStream(req *fasthttp.Request, resp *fasthttp.Response) error {
	if err := u.stream.Do(req, resp); err != nil {
		return u.transportError(err)
	}
	stripHop(&resp.Header)
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
