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
	scheme   string
	host     string
	basePath string // the base URL's path without a trailing slash, e.g. /v1
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
// connection, not the message.
var hopHeaders = []string{
	"Connection", "Proxy-Connection", "Keep-Alive", "Proxy-Authenticate",
	"Proxy-Authorization", "Te", "Trailer", "Transfer-Encoding", "Upgrade",
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

// prepare turns the client's request into the upstream request for subPath (the path
// below the route's prefix): hop-by-hop headers stripped, the client's Authorization
// replaced by the upstream's key (or dropped), X-Forwarded-For appended.
func (u *upstream) prepare(in *fasthttp.Request, out *fasthttp.Request, subPath string, clientIP net.IP) {
	in.Header.CopyTo(&out.Header)
	stripHop(&out.Header)
	out.Header.Del("Accept-Encoding") // Weir reads the body; ask for it uncompressed
	out.Header.Del("Content-Length")
	out.Header.Del("X-Weir-Intent")
	out.Header.Del("X-Weir-Decision-Id")
	out.Header.Del("X-Weir-Filters")
	switch {
	case u.cfg.APIKey != "":
		out.Header.Set("Authorization", "Bearer "+u.cfg.APIKey)
	case !u.cfg.ForwardClientAuthorization:
		out.Header.Del("Authorization")
	}
	if clientIP != nil {
		if prior := out.Header.Peek("X-Forwarded-For"); len(prior) > 0 {
			out.Header.Set("X-Forwarded-For", string(prior)+", "+clientIP.String())
		} else {
			out.Header.Set("X-Forwarded-For", clientIP.String())
		}
	}
	uri := out.URI()
	uri.SetScheme(u.scheme)
	uri.SetHost(u.host)
	uri.SetPath(u.basePath + subPath)
	uri.SetQueryStringBytes(in.URI().QueryString())
	out.Header.SetHost(u.host)
	out.Header.SetMethodBytes(in.Header.Method())
}

// do sends req and maps transport failures to request errors: 504 for timeouts, 502 for
// everything else. When ctx ends first (the gateway's base context: shutdown) the call is
// aborted and fails with errUpstreamShutdown (503 shutting_down).
func (u *upstream) do(ctx context.Context, req *fasthttp.Request, resp *fasthttp.Response) error {
	stop := context.AfterFunc(ctx, u.plain.abort)
	err := u.client.DoTimeout(req, resp, u.cfg.Timeout.Std())
	stop()
	if err == nil {
		stripHop(&resp.Header)
		return nil
	}
	if ctx.Err() != nil {
		return errUpstreamShutdown
	}
	return u.transportError(err)
}
