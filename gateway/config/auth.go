package config

import (
	"encoding/hex"
	"net/netip"
	"net/url"
	"path/filepath"
	"strings"
	"time"
)

// Auth is the `auth:` section: the credentials Weir verifies to know who is asking. A
// route's `auth` (required, optional or none) says whether it needs them.
//
//	auth:
//	  api_keys:                      # `weir keys new` prints a key and its line
//	    - {id: svc-reports, sha256: 9f86d0…, roles: [analyst], tenant: acme}
//	  jwt:
//	    jwks_file: jwks.json           # or jwks_url: https://idp.example/.well-known/jwks.json
//	    issuer: https://idp.example/
//	    audience: weir
//	    roles_claim: roles             # a dotted path reads nested claims: realm_access.roles
//	    tenant_claim: org
//	  trusted_headers:                 # identity set by an authenticating proxy
//	    sources: [10.0.0.0/8]
//	    subject: X-Forwarded-User
//	    roles: X-Forwarded-Groups
type Auth struct {
	// APIKeys are the accepted API keys, each stored as the SHA-256 of the key only. A key
	// is sent as "Authorization: Bearer <key>" (what OpenAI clients send) or "x-api-key".
	APIKeys []APIKey `yaml:"api_keys"`
	// JWT accepts signed JSON Web Tokens (RS256, ES256, EdDSA) as "Authorization: Bearer".
	JWT *JWT `yaml:"jwt"`
	// TrustedHeaders believes identity headers set by an authenticating proxy, from the
	// proxy's addresses only.
	TrustedHeaders *TrustedHeaders `yaml:"trusted_headers"`
}

// APIKey is one accepted API key.
type APIKey struct {
	// ID names the caller in decisions, audit records and rate limits. Required, unique.
	ID string `yaml:"id"`
	// SHA256 is the hex SHA-256 of the key (64 digits), as `weir keys new` prints it. The
	// key itself is never written in the config.
	SHA256 string `yaml:"sha256"`
	// Roles go into every decision's input as subject.roles.
	Roles []string `yaml:"roles"`
	// Tenant is the caller's tenant: it selects the tenant's rule pack, policy bundle and
	// limits (tenants:), and goes into decisions as subject.tenant.
	Tenant string `yaml:"tenant"`
	// Limits replace limits.per_subject for this key.
	Limits *Rate `yaml:"limits"`
}

// JWT configures JSON Web Token verification.
type JWT struct {
	// JWKSFile is a JSON Web Key Set file (relative to this config), read at load and on
	// every reload. One of jwks_file and jwks_url is required.
	JWKSFile string `yaml:"jwks_file"`
	// JWKSURL is fetched at load (a failure stops the load) and refreshed every Refresh in
	// the background; the last good set is kept while the URL fails.
	JWKSURL string `yaml:"jwks_url"`
	// Refresh is how often jwks_url is fetched again. Default 5m.
	Refresh Duration `yaml:"refresh"`
	// Issuer must equal the token's iss. Required.
	Issuer string `yaml:"issuer"`
	// Audience must be one of the token's aud. Required.
	Audience string `yaml:"audience"`
	// SubjectClaim names the claim that identifies the caller. Default sub.
	SubjectClaim string `yaml:"subject_claim"`
	// RolesClaim names the claim holding the roles: a list of strings or one string of
	// space-separated names. A dotted path reads a nested claim. Default roles.
	RolesClaim string `yaml:"roles_claim"`
	// TenantClaim names the claim holding the tenant. Default none: no tenant.
	TenantClaim string `yaml:"tenant_claim"`
	// Skew is the clock skew tolerated on exp and nbf. Default 30s, at most 5m.
	Skew Duration `yaml:"skew"`
	// CacheSize bounds the verified-token cache (keyed by the token's SHA-256; an entry
	// lives until the token expires). Default 10000; -1 disables it.
	CacheSize int `yaml:"cache_size"`
}

// TrustedHeaders believes identity headers from an authenticating proxy in front of Weir.
type TrustedHeaders struct {
	// Sources are the proxy's addresses (CIDRs or single addresses). The headers of a
	// request from any other address are not read. Required.
	Sources []string `yaml:"sources"`
	// Subject names the header holding the caller's id. Default X-Forwarded-User.
	Subject string `yaml:"subject"`
	// Roles names the header holding comma-separated roles. Default X-Forwarded-Groups.
	Roles string `yaml:"roles"`
	// Tenant names the header holding the tenant. Default none.
	Tenant string `yaml:"tenant"`
}

// The values of a route's auth.
const (
	AuthRequired = "required"
	AuthOptional = "optional"
	AuthNone     = "none"
)

// Defaults of the auth section.
const (
	DefaultJWKSRefresh  = 5 * time.Minute
	DefaultJWTSkew      = 30 * time.Second
	MaxJWTSkew          = 5 * time.Minute
	DefaultJWTCacheSize = 10000
)

// Configured reports whether any credential source is configured.
func (a *Auth) Configured() bool {
	return len(a.APIKeys) > 0 || a.JWT != nil || a.TrustedHeaders != nil
}

func (a *Auth) defaults() {
	if j := a.JWT; j != nil {
		defDur(&j.Refresh, DefaultJWKSRefresh)
		defDur(&j.Skew, DefaultJWTSkew)
		def(&j.SubjectClaim, "sub")
		def(&j.RolesClaim, "roles")
		if j.CacheSize == 0 {
			j.CacheSize = DefaultJWTCacheSize
		}
	}
	if h := a.TrustedHeaders; h != nil {
		def(&h.Subject, "X-Forwarded-User")
		def(&h.Roles, "X-Forwarded-Groups")
	}
	for i := range a.APIKeys {
		a.APIKeys[i].SHA256 = strings.ToLower(a.APIKeys[i].SHA256)
	}
}

func (a *Auth) resolve(dir string) {
	if a.JWT != nil && a.JWT.JWKSFile != "" && !filepath.IsAbs(a.JWT.JWKSFile) {
		a.JWT.JWKSFile = filepath.Join(dir, a.JWT.JWKSFile)
	}
}

// validateAuth checks the auth section and every route's auth setting: a route that needs
// credentials (the default) with none configured is an error, so that a config written
// before auth existed fails at load with the fix instead of refusing every request.
func (c *Config) validateAuth(bad func(path, format string, args ...any)) {
	a := &c.Auth
	for i, r := range c.Routes {
		p := "routes" + index(i)
		switch r.Auth {
		case AuthRequired, AuthOptional:
			if !a.Configured() {
				bad(p, "route %q: auth is %s (the default) but no credentials are configured; add auth.api_keys (weir keys new), auth.jwt or auth.trusted_headers, or set auth: none on the route to serve it without credentials", r.Name, r.Auth)
			}
		case AuthNone:
		default:
			bad(p+".auth", "route %q: auth must be required, optional or none, not %q", r.Name, r.Auth)
		}
	}
	a.validateKeys(bad)
	a.validateJWT(bad)
	a.validateHeaders(bad)
}

func (a *Auth) validateKeys(bad func(path, format string, args ...any)) {
	ids, digests := map[string]bool{}, map[string]bool{}
	for i, k := range a.APIKeys {
		p := "auth.api_keys" + index(i)
		switch {
		case k.ID == "":
			bad(p, "auth.api_keys%s.id is required", index(i))
		case ids[k.ID]:
			bad(p+".id", "API key %q is defined twice", k.ID)
		}
		ids[k.ID] = true
		if b, err := hex.DecodeString(k.SHA256); err != nil || len(b) != 32 {
			bad(p+".sha256", "API key %q: sha256 must be 64 hex digits, the SHA-256 of the key as weir keys new prints it, never the key itself (value withheld)", k.ID)
		} else if digests[k.SHA256] {
			bad(p+".sha256", "API key %q: the same key is listed twice", k.ID)
		}
		digests[k.SHA256] = true
		if k.Limits != nil {
			k.Limits.validate(bad, p+".limits")
		}
	}
}

func (a *Auth) validateJWT(bad func(path, format string, args ...any)) {
	j := a.JWT
	if j == nil {
		return
	}
	if (j.JWKSFile == "") == (j.JWKSURL == "") {
		bad("auth.jwt", "auth.jwt: set one of jwks_file and jwks_url")
	}
	if j.JWKSURL != "" {
		if u, err := url.Parse(j.JWKSURL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			bad("auth.jwt.jwks_url", "auth.jwt.jwks_url must be an absolute http or https URL")
		}
	}
	if j.Issuer == "" || j.Audience == "" {
		bad("auth.jwt", "auth.jwt: issuer and audience are required: a token minted for another service must not be accepted")
	}
	if j.Skew < 0 || j.Skew.Std() > MaxJWTSkew {
		bad("auth.jwt.skew", "auth.jwt.skew must be between 0 and %s", MaxJWTSkew)
	}
	if j.Refresh.Std() < time.Second {
		bad("auth.jwt.refresh", "auth.jwt.refresh must be at least 1s")
	}
	if j.CacheSize < -1 {
		bad("auth.jwt.cache_size", "auth.jwt.cache_size must be -1 (off) or positive")
	}
}

func (a *Auth) validateHeaders(bad func(path, format string, args ...any)) {
	h := a.TrustedHeaders
	if h == nil {
		return
	}
	if len(h.Sources) == 0 {
		bad("auth.trusted_headers", "auth.trusted_headers.sources is required: identity headers are believed only from the proxy's addresses")
	}
	for i, s := range h.Sources {
		if _, err := ParsePrefix(s); err != nil {
			bad("auth.trusted_headers.sources"+index(i), "auth.trusted_headers.sources%s: %q is not an address or CIDR", index(i), s)
		}
	}
	for _, n := range []struct{ key, name string }{{"subject", h.Subject}, {"roles", h.Roles}, {"tenant", h.Tenant}} {
		if n.name != "" && credentialHeader(n.name) {
			bad("auth.trusted_headers."+n.key, "auth.trusted_headers.%s cannot be %s", n.key, n.name)
		}
	}
}

// ParsePrefix reads a CIDR or a single address (a /32 or /128 prefix).
func ParsePrefix(s string) (netip.Prefix, error) {
	if strings.Contains(s, "/") {
		p, err := netip.ParsePrefix(s)
		return p.Masked(), err
	}
	a, err := netip.ParseAddr(s)
	if err != nil {
		return netip.Prefix{}, err
	}
	return netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()), nil
}

// IdentityHeaders are the header names the trusted-header mode reads.
func (a *Auth) IdentityHeaders() []string {
	h := a.TrustedHeaders
	if h == nil {
		return nil
	}
	var out []string
	for _, n := range []string{h.Subject, h.Roles, h.Tenant} {
		if n != "" {
			out = append(out, n)
		}
	}
	return out
}
