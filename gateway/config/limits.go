package config

import (
	"net/url"
	"path/filepath"
	"time"
)

// Limits bound requests: their size, and how many requests and model tokens a caller and
// its tenant may use per minute.
//
//	limits:
//	  per_subject: {requests_per_minute: 60, tokens_per_minute: 40000}
//	  per_tenant:  {requests_per_minute: 600}
//	  redis: ${WEIR_REDIS_URL}     # absent: counters in memory, per replica
//	  on_store_error: deny         # Redis unreachable: deny (503) or allow
type Limits struct {
	// MaxBodyBytes caps a request body; larger bodies get 413. Default 4 MiB.
	MaxBodyBytes int `yaml:"max_body_bytes"`
	// MaxHeaderBytes caps the request line and headers; larger get 431. Default 16 KiB.
	MaxHeaderBytes int `yaml:"max_header_bytes"`
	// PerSubject bounds each caller (an API key, a token's subject, a trusted header's
	// user; anonymous callers per client address). An API key's own limits replace it.
	PerSubject Rate `yaml:"per_subject"`
	// PerTenant bounds all the callers of one tenant together; tenants.<name>.limits
	// replace it for that tenant. Callers without a tenant have no tenant limit.
	PerTenant Rate `yaml:"per_tenant"`
	// Redis is a redis:// (or rediss://) URL: the counters are kept there, shared by every
	// replica, and updated by atomic scripts. Absent: in memory. Write it as ${VAR} when it
	// holds a password.
	Redis string `yaml:"redis"`
	// RedisPrefix starts every key Weir writes in Redis. Default "weir:limits:".
	RedisPrefix string `yaml:"redis_prefix"`
	// StoreTimeout bounds one exchange with Redis. Default 250ms.
	StoreTimeout Duration `yaml:"store_timeout"`
	// OnStoreError is what a request gets when Redis cannot be reached: deny (503
	// limits_unavailable) or allow (served unlimited). Either way it is logged and counted
	// in weir_limit_store_errors_total. Default deny.
	OnStoreError string `yaml:"on_store_error"`
}

// Rate is a budget per minute; 0 means unlimited. A budget refills continuously: a caller
// may use it all at once, then one request (or token) every minute/N.
type Rate struct {
	// RequestsPerMinute counts requests; the one over it gets 429 with Retry-After.
	RequestsPerMinute int `yaml:"requests_per_minute"`
	// TokensPerMinute counts the model tokens (prompt + completion) of the upstream's
	// usage, charged after each answer; a request arriving while the budget is spent gets
	// 429 with Retry-After.
	TokensPerMinute int `yaml:"tokens_per_minute"`
}

// Zero reports whether r limits nothing.
func (r Rate) Zero() bool { return r.RequestsPerMinute == 0 && r.TokensPerMinute == 0 }

// The values of limits.on_store_error.
const (
	OnStoreDeny  = "deny"
	OnStoreAllow = "allow"
)

// DefaultStoreTimeout bounds one Redis exchange.
const DefaultStoreTimeout = 250 * time.Millisecond

func (l *Limits) defaults() {
	if l.MaxBodyBytes == 0 {
		l.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if l.MaxHeaderBytes == 0 {
		l.MaxHeaderBytes = DefaultMaxHeaderBytes
	}
	def(&l.RedisPrefix, "weir:limits:")
	def(&l.OnStoreError, OnStoreDeny)
	defDur(&l.StoreTimeout, DefaultStoreTimeout)
}

func (l *Limits) validate(bad func(path, format string, args ...any)) {
	if l.MaxBodyBytes < 0 || l.MaxHeaderBytes < 0 {
		bad("limits", "limits must not be negative")
	}
	l.PerSubject.validate(bad, "limits.per_subject")
	l.PerTenant.validate(bad, "limits.per_tenant")
	if l.Redis != "" {
		if u, err := url.Parse(l.Redis); err != nil || (u.Scheme != "redis" && u.Scheme != "rediss") || u.Host == "" {
			bad("limits.redis", "limits.redis must be a redis:// or rediss:// URL (value withheld)")
		}
	}
	if l.OnStoreError != OnStoreDeny && l.OnStoreError != OnStoreAllow {
		bad("limits.on_store_error", "limits.on_store_error must be deny or allow, not %q", l.OnStoreError)
	}
	if l.StoreTimeout < 0 {
		bad("limits.store_timeout", "limits.store_timeout must not be negative")
	}
}

func (r *Rate) validate(bad func(path, format string, args ...any), path string) {
	if r.RequestsPerMinute < 0 || r.TokensPerMinute < 0 {
		bad(path, "%s: requests_per_minute and tokens_per_minute must not be negative (0 is unlimited)", path)
	}
}

// Tenant is one entry of `tenants:`: what a tenant's callers get instead of the defaults.
//
//	tenants:
//	  acme: {rules: tenants/acme/rules, policies: tenants/acme/policies, limits: {requests_per_minute: 1200}}
type Tenant struct {
	// Rules is the tenant's rule pack directory (relative to this config). Default: the
	// route's, else the top-level rules.
	Rules string `yaml:"rules"`
	// Policies is the tenant's policy bundle directory. Default: the route's, else the
	// top-level policies.
	Policies string `yaml:"policies"`
	// Limits replace limits.per_tenant for this tenant.
	Limits *Rate `yaml:"limits"`
}

// PolicyDirs returns the rule pack and policy bundle a request on route r by a caller of
// tenant serves with: the tenant's, else the route's, else the top-level ones.
func (c *Config) PolicyDirs(r *Route, tenant string) (rules, policies string) {
	rules, policies = c.Rules, c.Policies
	if r != nil {
		if r.Rules != "" {
			rules = r.Rules
		}
		if r.Policies != "" {
			policies = r.Policies
		}
	}
	if t, ok := c.Tenants[tenant]; ok && tenant != "" {
		if t.Rules != "" {
			rules = t.Rules
		}
		if t.Policies != "" {
			policies = t.Policies
		}
	}
	return rules, policies
}

func (c *Config) resolveTenants(dir string) {
	abs := func(p *string) {
		if *p != "" && !filepath.IsAbs(*p) {
			*p = filepath.Join(dir, *p)
		}
	}
	for name, t := range c.Tenants {
		abs(&t.Rules)
		abs(&t.Policies)
		c.Tenants[name] = t
	}
	for i := range c.Routes {
		abs(&c.Routes[i].Rules)
		abs(&c.Routes[i].Policies)
	}
}

func (c *Config) validateTenants(bad func(path, format string, args ...any)) {
	for name, t := range c.Tenants {
		if name == "" {
			bad("tenants", "tenants: a tenant name must not be empty")
		}
		if t.Limits != nil {
			t.Limits.validate(bad, "tenants."+name+".limits")
		}
	}
}
