package gateway

import (
	"errors"
	"net"

	"github.com/valyala/fasthttp"

	"github.com/weirgw/weir/gateway/config"
)

// loopback is the remote address of in-process requests.
var loopback = &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)}

// Do serves one request in process through the same handler, stages, policies and audit
// trail as the listener (weir query uses it). The gateway need not be started.
func (g *Gateway) Do(req *fasthttp.Request, resp *fasthttp.Response) {
	var rc fasthttp.RequestCtx
	rc.Init(req, loopback, nil)
	g.handle(&rc)
	rc.Response.CopyTo(resp)
}

// QueryPath returns the path of the named query route, or of the first query route when
// name is empty.
func (g *Gateway) QueryPath(name string) (string, error) {
	for _, r := range g.snap.Load().Config.Routes {
		if r.Surface == config.SurfaceQuery && (name == "" || r.Name == name) {
			return r.Path, nil
		}
	}
	if name != "" {
		return "", errors.New("the config has no query route named " + name)
	}
	return "", errors.New("the config has no query route (surface: query)")
}
