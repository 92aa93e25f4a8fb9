package gateway

import (
	"context"
	"errors"
	"net"
	"net/netip"

	"github.com/weirgw/weir/gateway/auth"
	"github.com/weirgw/weir/gateway/config"
	"github.com/weirgw/weir/gateway/limits"
)

// limiter applies limits.per_subject, limits.per_tenant and their overrides (an API key's
// limits, a tenant's limits) with one store. The store is handed from snapshot to snapshot
// while its settings stay the same, so a reload keeps the budgets already spent.
type limiter struct {
	store    limits.Store
	remote   bool // the store is Redis: its calls are bounded by store_timeout
	storeCfg storeSettings
	cfg      config.Limits
	keyRates map[string]config.Rate // API key id → its own limits
	tenants  map[string]config.Tenant
}

// storeSettings are what makes a store: equal settings share the store across reloads.
type storeSettings struct {
	redis, prefix string
	timeout       config.Duration
}

// newLimiter returns the config's limiter, nil when no budget is set anywhere (the limit
// stage is then free), reusing prev's store when its settings are unchanged.
func newLimiter(cfg *config.Config, prev *limiter) (*limiter, error) {
	l := &limiter{cfg: cfg.Limits, keyRates: map[string]config.Rate{}, tenants: cfg.Tenants,
		storeCfg: storeSettings{cfg.Limits.Redis, cfg.Limits.RedisPrefix, cfg.Limits.StoreTimeout}}
	set := !cfg.Limits.PerSubject.Zero() || !cfg.Limits.PerTenant.Zero()
	for _, k := range cfg.Auth.APIKeys {
		if k.Limits != nil {
			l.keyRates[k.ID] = *k.Limits
			set = true
		}
	}
	for _, t := range cfg.Tenants {
		set = set || t.Limits != nil
	}
	if !set {
		return nil, nil
	}
	l.remote = l.storeCfg.redis != ""
	switch {
	case prev != nil && prev.storeCfg == l.storeCfg:
		l.store = prev.store
	case l.storeCfg.redis != "":
		s, err := limits.NewRedis(l.storeCfg.redis, l.storeCfg.prefix, l.storeCfg.timeout.Std())
		if err != nil {
			return nil, err
		}
		l.store = s
	default:
		l.store = limits.NewMemory()
	}
	return l, nil
}

// close closes l's store unless next uses it.
func (l *limiter) close(next *limiter) {
	if l == nil || (next != nil && next.store == l.store) {
		return
	}
	_ = l.store.Close()
}

// The bucket kinds and scopes, as metric labels and in keys.
const (
	scopeSubject, scopeTenant = "subject", "tenant"
	kindRequests, kindTokens  = "requests", "tokens"
)

// budget is one bucket with what it counts, for the 429's message and metrics.
type budget struct {
	scope, kind string
}

// rates returns the subject's and the tenant's rates.
func (l *limiter) rates(id auth.Identity) (subject, tenant config.Rate) {
	subject = l.cfg.PerSubject
	if r, ok := l.keyRates[id.ID]; ok && id.Method == auth.MethodAPIKey {
		subject = r
	}
	if id.Tenant != "" {
		tenant = l.cfg.PerTenant
		if t, ok := l.tenants[id.Tenant]; ok && t.Limits != nil {
			tenant = *t.Limits
		}
	}
	return subject, tenant
}

// subjectKey names a caller's buckets: by how it was verified and its id; an anonymous
// caller by its address, so that anonymous callers do not share one budget.
func subjectKey(id auth.Identity, addr netip.Addr) string {
	if id.Method == auth.MethodNone || id.ID == "" {
		return "s|none|" + addr.String()
	}
	return "s|" + id.Method + "|" + id.ID
}

// buckets are the buckets a request touches: requests at cost 1, token budgets checked at
// cost 0 (charged after the answer), and what each counts.
func (l *limiter) buckets(id auth.Identity, addr netip.Addr, tokensOnly bool) ([]limits.Bucket, []budget) {
	sr, tr := l.rates(id)
	sk := subjectKey(id, addr)
	tk := "t|" + id.Tenant
	var bs []limits.Bucket
	var what []budget
	add := func(key string, rate int, cost int64, b budget) {
		if rate > 0 && (!tokensOnly || b.kind == kindTokens) {
			bs = append(bs, limits.Bucket{Key: key, PerMinute: int64(rate), Cost: cost})
			what = append(what, b)
		}
	}
	add(sk+"|r", sr.RequestsPerMinute, 1, budget{scopeSubject, kindRequests})
	if id.Tenant != "" {
		add(tk+"|r", tr.RequestsPerMinute, 1, budget{scopeTenant, kindRequests})
	}
	add(sk+"|t", sr.TokensPerMinute, 0, budget{scopeSubject, kindTokens})
	if id.Tenant != "" {
		add(tk+"|t", tr.TokensPerMinute, 0, budget{scopeTenant, kindTokens})
	}
	return bs, what
}

// countsTokens reports whether a token budget applies to the caller: a stream then asks
// its upstream for usage.
func (l *limiter) countsTokens(id auth.Identity) bool {
	if l == nil {
		return false
	}
	sr, tr := l.rates(id)
	return sr.TokensPerMinute > 0 || tr.TokensPerMinute > 0
}

// limit is the pipeline's limit stage: the caller's and its tenant's budgets, before any
// work is done for the request (429 with Retry-After when one is spent). A store that
// cannot be reached follows limits.on_store_error.
func (x *exchange) limit(ctx context.Context) error {
	l := x.snap.limits
	if l == nil {
		return nil
	}
	bs, what := l.buckets(x.identity, x.remoteAddr(), false)
	if len(bs) == 0 {
		return nil
	}
	if l.remote {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, l.cfg.StoreTimeout.Std())
		defer cancel()
	}
	wait, which, err := l.store.Take(ctx, bs)
	switch {
	case err != nil:
		return x.storeFailed(err)
	case wait <= 0:
		return nil
	}
	b := what[which]
	x.g.metrics.access.limited.WithLabelValues(b.scope, b.kind).Inc()
	return &Error{Kind: KindLimited, Code: "rate_limit_exceeded", Type: b.kind, RetryAfter: wait,
		Message: "the " + b.scope + "'s " + b.kind + " per minute are spent; retry after the time in Retry-After"}
}

// storeFailed applies on_store_error: logged and counted either way.
func (x *exchange) storeFailed(err error) error {
	action := x.snap.limits.cfg.OnStoreError
	x.g.metrics.access.storeErrors.WithLabelValues(action).Inc()
	x.g.log.Warn("rate-limit store unreachable", "decision_id", x.decisionID, "on_store_error", action, "err", storeErrorKind(err))
	if action == config.OnStoreAllow {
		return nil
	}
	return &Error{Kind: KindLimitsUnavailable, Code: "limits_unavailable", Message: "the rate-limit store cannot be reached; the request is refused (limits.on_store_error: deny)", Err: err}
}

// chargeTokens charges the model tokens the answer used to the caller's and the tenant's
// token budgets (the limit stage checked them). It runs once per exchange, when the answer
// is complete; a store error is only logged and counted.
func (x *exchange) chargeTokens() {
	l := x.snap.limits
	if l == nil || x.tokens <= 0 {
		return
	}
	bs, _ := l.buckets(x.identity, x.remoteAddr(), true)
	if len(bs) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(x.g.base, l.cfg.StoreTimeout.Std())
	defer cancel()
	if err := l.store.Charge(ctx, bs, x.tokens); err != nil {
		x.g.metrics.access.storeErrors.WithLabelValues("charge_lost").Inc()
		x.g.log.Warn("rate-limit store unreachable; tokens not charged", "decision_id", x.decisionID, "tokens", x.tokens)
	}
}

// storeErrorKind names a store failure for the log without its text.
func storeErrorKind(err error) string {
	var ne net.Error
	if errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()) {
		return "timeout"
	}
	return "unreachable"
}
