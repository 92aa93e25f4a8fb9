package gateway

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/weirgw/weir/rules/fallback"
)

// fallbackCollector exports the counters of the current snapshot's LLM fallback at scrape
// time: the fallback keeps its own counters (Stats), so the request path does no metrics
// work for it. Without a fallback section nothing is exported. A fallback rebuilt by a
// reload that changed the section starts from zero, which Prometheus treats as a counter
// reset.
type fallbackCollector struct {
	snapshot func() *Snapshot

	calls, failures, cacheHits, shared, tokens, breaker, opened *prometheus.Desc
}

func newFallbackCollector(snapshot func() *Snapshot) *fallbackCollector {
	d := func(name, help string, labels ...string) *prometheus.Desc {
		return prometheus.NewDesc(name, help, labels, nil)
	}
	return &fallbackCollector{
		snapshot:  snapshot,
		calls:     d("weir_fallback_calls_total", "Calls the LLM fallback made to its model."),
		failures:  d("weir_fallback_failures_total", "Failed fallback answers by reason; the pack default applied.", "reason"),
		cacheHits: d("weir_fallback_cache_hits_total", "Fallback answers served from its cache."),
		shared:    d("weir_fallback_shared_total", "Fallback answers received from another request's call of the same question."),
		tokens:    d("weir_fallback_tokens_total", "Prompt and completion tokens the fallback's model reported."),
		breaker:   d("weir_fallback_breaker_state", "The fallback's circuit breaker: 0 closed, 1 half-open, 2 open."),
		opened:    d("weir_fallback_breaker_opened_total", "Times the fallback's circuit breaker opened."),
	}
}

// breakerStates maps fallback.Stats.Breaker to the gauge's value.
var breakerStates = map[string]float64{"closed": 0, "half-open": 1, "open": 2}

// Describe sends every descriptor.
func (c *fallbackCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.calls, c.failures, c.cacheHits, c.shared, c.tokens, c.breaker, c.opened} {
		ch <- d
	}
}

// Collect reads the fallback's Stats once per scrape.
func (c *fallbackCollector) Collect(ch chan<- prometheus.Metric) {
	s := c.snapshot()
	if s == nil || s.Fallback == nil {
		return
	}
	st := s.Fallback.Stats()
	counter := func(d *prometheus.Desc, v uint64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, float64(v), labels...)
	}
	counter(c.calls, st.Calls)
	for _, r := range fallback.Reasons {
		counter(c.failures, st.Failures[r], r)
	}
	counter(c.cacheHits, st.CacheHits)
	counter(c.shared, st.Shared)
	counter(c.tokens, st.Tokens)
	ch <- prometheus.MustNewConstMetric(c.breaker, prometheus.GaugeValue, breakerStates[st.Breaker])
	counter(c.opened, st.Opened)
}
