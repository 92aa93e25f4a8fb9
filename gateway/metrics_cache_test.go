package gateway

import (
	"fmt"
	"sync"
	"testing"
)

// TestCachedCounters counts from many goroutines through the cached children, past the
// cache's limit, and reads the counts back from the vectors Prometheus exports.
func TestCachedCounters(t *testing.T) {
	m := newMetrics()
	m.cached.requests.limit = 5 // the other 15 routes go to the vector directly
	const routes, workers, rounds = 20, 8, 50
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range rounds * routes {
				route := fmt.Sprintf("r%d", i%routes)
				m.countRequest(route, 200+i%2)
				m.countDecision(route, "analytics", "allowed")
				m.countViolation("code", route)
				m.countClassification("rules")
				m.observeStage("decode", 0)
			}
		}()
	}
	wg.Wait()
	if n := len(*m.cached.requests.m.Load()); n != 5 {
		t.Errorf("%d request label sets cached, want the limit 5", n)
	}
	perRoute := float64(workers * rounds)
	for r := range routes {
		route := fmt.Sprintf("r%d", r)
		checks := map[string]float64{
			"requests":   sample(t, m, "weir_requests_total", "route", route),
			"decisions":  sample(t, m, "weir_decisions_total", "route", route),
			"violations": sample(t, m, "weir_violations_total", "intent", route),
		}
		for what, got := range checks {
			if got != perRoute {
				t.Errorf("%s %s = %v, want %v", route, what, got, perRoute)
			}
		}
	}
	if got, want := sample(t, m, "weir_classifications_total", "source", "rules"), float64(workers*rounds*routes); got != want {
		t.Errorf("classifications = %v, want %v", got, want)
	}
	if got, want := sample(t, m, "weir_stage_duration_seconds", "stage", "decode"), float64(workers*rounds*routes); got != want {
		t.Errorf("decode observations = %v, want %v", got, want)
	}
}

// sample sums the counts of the series of family name whose label has value, as the
// registry exports them.
func sample(t *testing.T, m *metrics, name, label, value string) float64 {
	t.Helper()
	families, err := m.reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
		for _, s := range f.GetMetric() {
			for _, l := range s.GetLabel() {
				if l.GetName() == label && l.GetValue() == value {
					sum += s.GetCounter().GetValue() + float64(s.GetHistogram().GetSampleCount())
				}
			}
		}
	}
	return sum
}
