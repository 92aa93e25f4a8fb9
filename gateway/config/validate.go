package config

import (
	"net"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Defaults applied by defaults().
const (
	DefaultListen         = "127.0.0.1:8080"
	DefaultAdminListen    = "127.0.0.1:9090"
	DefaultMaxBodyBytes   = 4 << 20
	DefaultMaxHeaderBytes = 16 << 10
	DefaultConnectTimeout = 5 * time.Second
	DefaultTimeout        = 60 * time.Second
	DefaultIdleTimeout    = 90 * time.Second
	DefaultMaxConns       = 512
)

func (c *Config) defaults() {
	def(&c.Listen, DefaultListen)
	def(&c.AdminListen, DefaultAdminListen)
	def(&c.Audit.Path, AuditStdout)
	def(&c.Audit.OnError, OnErrorFailClosed)
	c.Audit.defaults()
	c.Limits.defaults()
	c.Auth.defaults()
	for i := range c.Upstreams {
		u := &c.Upstreams[i]
		defDur(&u.ConnectTimeout, DefaultConnectTimeout)
		defDur(&u.Timeout, DefaultTimeout)
		defDur(&u.IdleTimeout, DefaultIdleTimeout)
		if u.MaxConns == 0 {
			u.MaxConns = DefaultMaxConns
		}
	}
	for i := range c.Routes {
		r := &c.Routes[i]
		def(&r.Surface, SurfaceOpenAI)
		def(&r.Mode, ModeEnforce)
		def(&r.OnViolation, OnViolationError)
		def(&r.Auth, AuthRequired)
		if r.Surface == SurfaceOpenAI {
			def(&r.Path, "/v1")
		}
	}
	if c.Fallback != nil {
		c.Fallback.defaults()
	}
	c.queryDefaults()
	c.documentDefaults()
}

func def(s *string, v string) {
	if *s == "" {
		*s = v
	}
}

func defDur(d *Duration, v time.Duration) {
	if *d == 0 {
		*d = Duration(v)
	}
}

// resolve makes the file paths absolute, relative to the config file's directory.
func (c *Config) resolve(dir string) {
	for _, p := range []*string{&c.Rules, &c.Policies} {
		if *p != "" && !filepath.IsAbs(*p) {
			*p = filepath.Join(dir, *p)
		}
	}
	if c.Audit.Path != AuditStdout && !filepath.IsAbs(c.Audit.Path) {
		c.Audit.Path = filepath.Join(dir, c.Audit.Path)
	}
	c.Audit.resolve(dir)
	c.resolveData(dir)
	c.resolveDocuments(dir)
	c.Auth.resolve(dir)
	c.resolveTenants(dir)
}

func (c *Config) validate(col *collector, lines map[string]int) {
	bad := func(path, format string, args ...any) { col.add(lineOf(lines, path), CodeInvalid, format, args...) }
	for _, l := range []struct{ key, addr string }{{"listen", c.Listen}, {"admin_listen", c.AdminListen}} {
		if _, _, err := net.SplitHostPort(l.addr); err != nil {
			bad(l.key, "%s: %q is not host:port", l.key, l.addr)
		}
	}
	if c.Rules == "" {
		bad("", "rules: the rule pack directory is required")
	}
	if c.Policies == "" {
		bad("", "policies: the policy bundle directory is required")
	}
	upstreams := map[string]bool{}
	for i, u := range c.Upstreams {
		p := "upstreams" + index(i)
		switch {
		case u.Name == "":
			bad(p, "upstreams%s.name is required", index(i))
		case upstreams[u.Name]:
			bad(p+".name", "upstream %q is defined twice", u.Name)
		}
		upstreams[u.Name] = true
		if msg := checkURL(u.BaseURL); msg != "" {
			bad(p+".base_url", "upstream %q: base_url %s", u.Name, msg)
		}
		if u.MaxConns < 0 {
			bad(p+".max_conns", "upstream %q: max_conns must not be negative", u.Name)
		}
		if u.ForwardClientAuthorization {
			bad(p+".forward_client_authorization", "upstream %q: forward_client_authorization is no longer supported: a client's credentials never reach an upstream; set api_key", u.Name)
		}
		for j, h := range u.ForwardHeaders {
			if credentialHeader(h) || identityHeader(c.Auth.IdentityHeaders(), h) {
				bad(p+".forward_headers"+index(j), "upstream %q: forward_headers cannot name %s: client credentials and Weir's own headers never go upstream", u.Name, h)
			}
		}
	}
	c.validateRoutes(bad, upstreams)
	c.Limits.validate(bad)
	c.Audit.validate(bad)
	c.validateAuth(bad)
	c.validateTenants(bad)
}

func (c *Config) validateRoutes(bad func(path, format string, args ...any), upstreams map[string]bool) {
	if len(c.Routes) == 0 {
		bad("", "routes: at least one route is required")
	}
	names, paths := map[string]bool{}, map[string]bool{}
	for i, r := range c.Routes {
		p := "routes" + index(i)
		switch {
		case r.Name == "":
			bad(p, "routes%s.name is required", index(i))
		case names[r.Name]:
			bad(p+".name", "route %q is defined twice", r.Name)
		}
		names[r.Name] = true
		if r.Surface != SurfaceOpenAI && r.Surface != SurfaceData && r.Surface != SurfaceQuery {
			bad(p+".surface", "route %q: surface must be openai, data or query, not %q", r.Name, r.Surface)
		}
		switch {
		case !strings.HasPrefix(r.Path, "/"):
			bad(p+".path", "route %q: path must start with /, got %q", r.Name, r.Path)
		case paths[r.Path]:
			bad(p+".path", "route %q: path %q is served by another route", r.Name, r.Path)
		}
		paths[r.Path] = true
		if r.Surface == SurfaceQuery && r.Upstream != "" {
			bad(p+".upstream", "route %q: a query route has no upstream; its model is set under model:", r.Name)
		} else if r.Surface != SurfaceQuery && !upstreams[r.Upstream] {
			bad(p+".upstream", "route %q: unknown upstream %q", r.Name, r.Upstream)
		}
		if !validMode(r.Mode) {
			bad(p+".mode", "route %q: mode must be enforce or monitor, not %q", r.Name, r.Mode)
		}
		for intent, m := range r.IntentModes {
			if !validMode(m) {
				bad(p+".intent_modes."+intent, "route %q: intent_modes.%s must be enforce or monitor, not %q", r.Name, intent, m)
			}
		}
		if r.OnViolation != OnViolationError && r.OnViolation != OnViolationRewrite {
			bad(p+".on_violation", "route %q: on_violation must be error or rewrite, not %q", r.Name, r.OnViolation)
		}
		if r.Surface == SurfaceData && r.Param == "" {
			bad(p, "route %q: a data route needs param (the natural-language parameter)", r.Name)
		}
	}
}

func validMode(m string) bool { return m == ModeEnforce || m == ModeMonitor }

func checkURL(s string) string {
	if s == "" {
		return "is required"
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "must be an absolute http or https URL"
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return "must not have a query or fragment"
	}
	return ""
}

func index(i int) string { return "[" + strconv.Itoa(i) + "]" }

// lineOf returns the line of path, or of its closest recorded parent.
func lineOf(lines map[string]int, path string) int {
	for {
		if l, ok := lines[path]; ok {
			return l
		}
		i := strings.LastIndexAny(path, ".[")
		if i < 0 {
			return lines[""]
		}
		path = path[:i]
	}
}

// identityHeader reports whether h is one of the trusted-header mode's identity headers.
func identityHeader(names []string, h string) bool {
	for _, n := range names {
		if strings.EqualFold(n, h) {
			return true
		}
	}
	return false
}

// credentialHeader reports whether a header carries a client's credentials or is Weir's own.
func credentialHeader(h string) bool {
	switch strings.ToLower(h) {
	case "authorization", "api-key", "x-api-key", "proxy-authorization", "cookie", "x-forwarded-for":
		return true
	}
	return strings.HasPrefix(strings.ToLower(h), "x-weir-")
}
