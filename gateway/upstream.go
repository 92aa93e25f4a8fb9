package gateway

import (
	"context"
	"errors"
	"io"
	"net"
	"net/url"
	"strings"

	"github.com/valyala/fasthttp"

	"github.com/weirgw/weir/gateway/config"
)

// upstream is a compiled config upstream: a keep-alive client for one host.
type upstream struct {
	cfg      config.Upstream
	client   *fasthttp.HostClient
	stream   *fasthttp.HostClient // stream: true requests (stream.go)
	live     *streamConns         // the stream client's open connections
	plain    *plainConns          // the plain client's open connections (upstream_abort.go)
	disarm   func() bool          // unregisters plain.abort from the gateway's base context
	scheme   string
	host     string
	basePath string // the base URL's path without a trailing slash, e.g. /v1
	bearer   string // "Bearer " and the API key, or "" without a key
}

// maxUpstreamBody bounds what an upstream may answer; a larger answer is a 502.
const maxUpstreamBody = 64 << 20

func newUpstream(u config.Upstream) (*upstream, error) {
	parsed, err := url.Parse(u.BaseURL)
	if err != nil {
		return nil, err
	}
	addr := parsed.Host
	if parsed.Port() == "" {
		port := "80"
		if parsed.Scheme == "https" {
			port = "443"
		}
		addr = net.JoinHostPort(parsed.Hostname(), port)
	}
	connect := u.ConnectTimeout.Std()
	up := &upstream{
		cfg: u, scheme: parsed.Scheme, host: parsed.Host,
		basePath: strings.TrimSuffix(parsed.EscapedPath(), "/"),
	}
	if u.APIKey != "" {
		up.bearer = "Bearer " + u.APIKey
	}
	up.client = &fasthttp.HostClient{
		Addr:                addr,
		Name:                "weir",
		IsTLS:               parsed.Scheme == "https",
		MaxConns:            u.MaxConns,
		MaxIdleConnDuration: u.IdleTimeout.Std(),
		ReadTimeout:         u.Timeout.Std(),
		WriteTimeout:        u.Timeout.Std(),
		MaxResponseBodySize: maxUpstreamBody,
		MaxConnWaitTimeout:  u.Timeout.Std(),
		Dial: func(addr string) (net.Conn, error) {
			c, err := fasthttp.DialTimeout(addr, connect)
			if err != nil {
				return nil, err
			}
			return up.plain.track(c)
		},
		// A POST is retried only when a kept-alive connection turned out to be closed
		// before the upstream read anything; nothing else is safe to repeat.
		RetryIfErr: func(_ *fasthttp.Request, attempts int, err error) (bool, bool) {
			return false, attempts < 2 && (errors.Is(err, fasthttp.ErrConnectionClosed) || errors.Is(err, io.EOF))
		},
		DisablePathNormalizing: true,
	}
	up.live, up.plain = &streamConns{}, &plainConns{}
	up.stream = newStreamClient(up.client, u.Timeout.Std(), connect, up.live)
	return up, nil
}

// hopHeaders are the hop-by-hop headers httputil.ReverseProxy removes; they describe one
// connection, not the message. Weir copies only allowlisted headers (headers.go), none of
// which is hop-by-hop; stripResponseHop still cleans what the upstream client hands back.
var hopHeaders = []string{
	"Connection", "Proxy-Connection", "Keep-Alive", "Proxy-Authenticate",
	"Proxy-Authorization", "Te", "Trailer", "Transfer-Encoding", "Upgrade",
}

// stripResponseHop removes the hop-by-hop headers of a response, and the headers its
// Connection header names, when it has any: one pass finds that most responses have none.
func stripResponseHop(h *fasthttp.ResponseHeader) {
	for k := range h.All() {
		if hopHeader(k) {
			stripHop(h)
			return
		}
	}
}

// hopHeader reports whether key is one of hopHeaders, in any case.
func hopHeader(key []byte) bool {
	for _, h := range hopHeaders {
		if len(h) == len(key) && strings.EqualFold(h, string(key)) {
			return true
		}
	}
	return false
}

// stripHop removes the hop-by-hop headers and the headers the Connection header names.
func stripHop(h interface {
	Peek(string) []byte
	Del(string)
}) {
	if c := h.Peek("Connection"); len(c) > 0 {
		for _, name := range strings.Split(string(c), ",") {
			if name = strings.TrimSpace(name); name != "" {
				h.Del(name)
			}
		}
	}
	for _, name := range hopHeaders {
		h.Del(name)
	}
}

// prepare builds the upstream request for subPath (the path below the route's prefix) from
// the client's request: its method, the query parameters keep allows (queryParams), the
// allowlisted headers only (headers.go: never a client credential), the upstream's own
// key, and X-Forwarded-For set to the address Weir saw. The caller sets the body and its
// content type.
func (u *upstream) prepare(in *fasthttp.Request, out *fasthttp.Request, subPath string, clientIP net.IP, keep func(key []byte) bool) {
	copyRequestHeaders(&in.Header, &out.Header, u.cfg.ForwardHeaders)
	if u.bearer != "" {
		out.Header.Set("Authorization", u.bearer)
	}
	// The values are built in buf, which the header and the URI copy from.
	var buf [128]byte
	if clientIP != nil {
		xff, _ := clientIP.AppendText(buf[:0])
		out.Header.SetBytesV("X-Forwarded-For", xff)
	}
	uri := out.URI()
	uri.SetScheme(u.scheme)
	uri.SetHost(u.host)
	uri.SetPathBytes(append(append(buf[:0], u.basePath...), subPath...))
	copyQuery(in.URI().QueryArgs(), uri.QueryArgs(), keep)
	out.Header.SetHost(u.host)
	out.Header.SetMethodBytes(in.Header.Method())
}

// do sends req and maps transport failures to request errors: 504 for timeouts, 502 for
// everything else. A call the shutdown aborted (the gateway's base context ended: see
// Gateway.armAborts) fails with errUpstreamShutdown (503 shutting_down).
func (u *upstream) do(ctx context.Context, req *fasthttp.Request, resp *fasthttp.Response) error {
	err := u.client.DoTimeout(req, resp, u.cfg.Timeout.Std())
	if err == nil {
		stripResponseHop(&resp.Header)
		return nil
	}
	if ctx.Err() != nil {
		return errUpstreamShutdown
	}
	return u.transportError(err)
}
