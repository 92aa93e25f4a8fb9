package gateway

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// metrics are the gateway's Prometheus collectors, on a registry of their own so that
// several gateways (tests) can live in one process.
type metrics struct {
	reg            *prometheus.Registry
	requests       *prometheus.CounterVec   // route, status
	decisions      *prometheus.CounterVec   // route, intent, outcome
	violations     *prometheus.CounterVec   // code, intent
	classifier     *prometheus.CounterVec   // source
	stage          *prometheus.HistogramVec // stage
	reloads        prometheus.Counter
	reloadFailures prometheus.Counter
	auditErrors    prometheus.Counter
	upstreamErrors *prometheus.CounterVec // upstream, kind
	cached         counters               // the request path's children of the vectors above (metrics_cache.go)
	access         *accessMetrics         // auth failures, rate limits (metrics_access.go)
}

func newMetrics() *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "weir_requests_total", Help: "Requests by route and response status.",
		}, []string{"route", "status"}),
		decisions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "weir_decisions_total", Help: "Decisions by route, intent and outcome (allowed, blocked, modified, monitored, error).",
		}, []string{"route", "intent", "outcome"}),
		violations: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "weir_violations_total", Help: "Policy violations by code and intent.",
		}, []string{"code", "intent"}),
		classifier: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "weir_classifications_total", Help: "Classifications by the tier that decided (rules, default, llm).",
		}, []string{"source"}),
		stage: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "weir_stage_duration_seconds", Help: "Time spent per request stage.",
			Buckets: []float64{5e-6, 1e-5, 2.5e-5, 5e-5, 1e-4, 2.5e-4, 5e-4, 1e-3, 5e-3, .025, .1, .5, 2.5, 10, 60},
		}, []string{"stage"}),
		reloads: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "weir_reloads_total", Help: "Snapshots compiled and swapped in.",
		}),
		reloadFailures: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "weir_reload_failures_total", Help: "Reloads that failed; the running snapshot was kept.",
		}),
		auditErrors: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "weir_audit_write_errors_total", Help: "Audit records that could not be written.",
		}),
		upstreamErrors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "weir_upstream_errors_total", Help: "Failed upstream exchanges by upstream and kind (down, timeout).",
		}, []string{"upstream", "kind"}),
	}
	m.reg.MustRegister(m.requests, m.decisions, m.violations, m.classifier, m.stage,
		m.reloads, m.reloadFailures, m.auditErrors, m.upstreamErrors,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	m.cached = newCounters(m)
	m.access = newAccessMetrics(m.reg)
	return m
}

func (m *metrics) observeStage(stage string, d time.Duration) {
	m.cached.stage.get(stage).Observe(d.Seconds())
}

func (m *metrics) countRequest(route string, status int) {
	m.cached.requests.get(requestLabels{route, status}).Inc()
}

func (m *metrics) countDecision(route, intent, outcome string) {
	m.cached.decisions.get(decisionLabels{route, intent, outcome}).Inc()
}

func (m *metrics) countViolation(code, intent string) {
	m.cached.violations.get(violationLabel{code, intent}).Inc()
}

func (m *metrics) countClassification(source string) {
	m.cached.classifier.get(source).Inc()
}
