package gateway

import (
	"context"
	"errors"
	"net/netip"

	"github.com/valyala/fasthttp"

	"github.com/weirgw/weir/gateway/auth"
	"github.com/weirgw/weir/gateway/config"
	"github.com/weirgw/weir/policies"
)

// identify establishes who is asking, from credentials Weir verifies (gateway/auth): the
// route's auth says whether they are required, optional or not read. The caller's tenant
// then selects the rule pack and policy bundle the rest of the pipeline uses. Weir believes
// no other claim of the request about its sender: the body's user field is the
// application's claim about its end user (x.req.EndUser), recorded as such, and never the
// subject of a decision.
func (x *exchange) identify(ctx context.Context) error {
	id, err := x.authenticate(ctx)
	if err != nil {
		var ae *auth.Error
		code := "invalid_credentials"
		if errors.As(err, &ae) {
			code = ae.Code
		}
		x.g.metrics.access.authFailures.WithLabelValues(code).Inc()
		return &Error{Kind: KindUnauthenticated, Code: code, Message: publicAuthMessage(ae)}
	}
	x.identity = id
	x.subject = policies.Subject{ID: id.ID, Roles: id.Roles, Tenant: id.Tenant, AuthMethod: id.Method}
	x.pol = x.route.setFor(id.Tenant)
	return nil
}

// authenticate returns the caller's identity under the route's auth setting.
func (x *exchange) authenticate(ctx context.Context) (auth.Identity, error) {
	a := x.snap.auth
	switch x.route.cfg.Auth {
	case config.AuthRequired, config.AuthOptional:
	default:
		return auth.Anonymous, nil // auth: none, and the unserved "route" of unknown paths
	}
	if a == nil {
		return auth.Identity{}, auth.ErrNoCredentials // validation makes this unreachable
	}
	id, err := a.Identify(ctx, requestView{x.rc})
	if err != nil && x.route.cfg.Auth == config.AuthOptional && auth.IsMissing(err) {
		return auth.Anonymous, nil
	}
	return id, err
}

func publicAuthMessage(ae *auth.Error) string {
	if ae == nil {
		return "the credentials are not valid"
	}
	return ae.Message
}

// requestView is the protocol-neutral view of the request that gateway/auth reads.
type requestView struct{ rc *fasthttp.RequestCtx }

func (v requestView) Header(name string) [][]byte { return v.rc.Request.Header.PeekAll(name) }
func (v requestView) RemoteAddr() netip.Addr      { return addrOf(v.rc) }

// remoteAddr is the address of the peer that sent the request (not X-Forwarded-For: a claim).
func (x *exchange) remoteAddr() netip.Addr { return x.peer }

func addrOf(rc *fasthttp.RequestCtx) netip.Addr {
	a, _ := netip.AddrFromSlice(rc.RemoteIP())
	return a.Unmap()
}
