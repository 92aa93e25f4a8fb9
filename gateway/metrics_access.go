package gateway

import "github.com/prometheus/client_golang/prometheus"

// accessMetrics count who was refused at the door: credentials refused, budgets spent, and
// a limits store that could not be reached.
type accessMetrics struct {
	authFailures *prometheus.CounterVec // code
	limited      *prometheus.CounterVec // scope (subject, tenant), kind (requests, tokens)
	storeErrors  *prometheus.CounterVec // action (deny, allow)
}

func newAccessMetrics(reg prometheus.Registerer) *accessMetrics {
	m := &accessMetrics{
		authFailures: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "weir_auth_failures_total", Help: "Requests refused 401 by code (missing_credentials, invalid_api_key, invalid_token, token_expired, ...).",
		}, []string{"code"}),
		limited: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "weir_rate_limited_total", Help: "Requests refused 429 by the budget that was spent: scope subject or tenant, kind requests or tokens.",
		}, []string{"scope", "kind"}),
		storeErrors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "weir_limit_store_errors_total", Help: "Rate-limit store (Redis) failures by what limits.on_store_error did: deny or allow.",
		}, []string{"action"}),
	}
	reg.MustRegister(m.authFailures, m.limited, m.storeErrors)
	return m
}
