package auth

import (
	"net/netip"
	"strings"

	"github.com/weirgw/weir/gateway/config"
)

// headerTrust reads identity headers set by an authenticating proxy. They are believed only
// when the request comes from one of the proxy's addresses: from anywhere else they are a
// claim anyone can write, and are not read at all.
type headerTrust struct {
	sources                []netip.Prefix
	subject, roles, tenant string
}

func newHeaderTrust(c config.TrustedHeaders) (*headerTrust, error) {
	h := &headerTrust{subject: c.Subject, roles: c.Roles, tenant: c.Tenant}
	for _, s := range c.Sources {
		p, err := config.ParsePrefix(s)
		if err != nil {
			return nil, err
		}
		h.sources = append(h.sources, p)
	}
	return h, nil
}

func (h *headerTrust) trusted(a netip.Addr) bool {
	a = a.Unmap()
	for _, p := range h.sources {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// identify returns the identity the proxy set; ok is false when the request is not from a
// trusted address or carries no subject header (other credentials are then read). A
// subject or tenant header given more than once is refused: the proxy and the client could
// each have written one.
func (h *headerTrust) identify(r Request) (Identity, bool, error) {
	if !h.trusted(r.RemoteAddr()) {
		return Identity{}, false, nil
	}
	subject, ok, err := single(r, h.subject)
	if err != nil || !ok {
		return Identity{}, ok, err
	}
	id := Identity{ID: subject, Roles: []string{}, Method: MethodHeader}
	if h.tenant != "" {
		if id.Tenant, _, err = single(r, h.tenant); err != nil {
			return Identity{}, true, err
		}
	}
	if h.roles != "" {
		for _, v := range r.Header(h.roles) {
			for _, role := range strings.Split(string(v), ",") {
				if role = strings.TrimSpace(role); role != "" {
					id.Roles = append(id.Roles, role)
				}
			}
		}
	}
	return id, true, nil
}

// single reads a header that must appear at most once, with a non-empty value.
func single(r Request, name string) (string, bool, error) {
	vs := r.Header(name)
	switch {
	case len(vs) == 0:
		return "", false, nil
	case len(vs) > 1:
		return "", true, fail(CodeHeaders, "an identity header is given more than once")
	}
	v := strings.TrimSpace(string(vs[0]))
	if v == "" {
		return "", true, fail(CodeHeaders, "an identity header is empty")
	}
	return v, true, nil
}
