package loadtest

import (
	"time"
)

// Report is the outcome of a harness run, printed as a table or as JSON.
type Report struct {
	Host       Host     `json:"host"`
	Config     string   `json:"config"`
	Conns      int      `json:"conns"`
	Rounds     int      `json:"rounds"`
	DurationMS int64    `json:"duration_ms"` // per target and request, over all rounds
	Results    []Result `json:"results"`     // peak load, per request
	// HalfLoad is the 1-tool-call request at fixed rates: half the passthrough's peak
	// (the budget), then half the gateway's.
	HalfLoad []HalfLoad `json:"half_load,omitempty"`
	// Budgets are DESIGN.md's load budgets, evaluated.
	Budgets []Budget `json:"budgets"`
	// Stages are the stage benchmarks (go test -bench) when their output was given.
	Stages *Stages `json:"stages,omitempty"`
}

// Host describes the machine the numbers were measured on.
type Host struct {
	CPUs int    `json:"cpus"`
	OS   string `json:"os"`
	Arch string `json:"arch"`
	Go   string `json:"go"`
}

// Result is one request kind measured on both proxies.
type Result struct {
	Scenario string `json:"scenario"`
	Label    string `json:"label"`
	// Available is false when the gateway does not serve the request (the query surface
	// on a config without it); Note says why.
	Available   bool     `json:"available"`
	Note        string   `json:"note,omitempty"`
	Passthrough *Measure `json:"passthrough,omitempty"`
	Gateway     *Measure `json:"gateway,omitempty"`
	// ThroughputRatio is the gateway's requests/s over the passthrough's; the added
	// latencies are the gateway's quantiles minus the passthrough's.
	ThroughputRatio float64 `json:"throughput_ratio,omitempty"`
	AddedP50US      float64 `json:"added_p50_us,omitempty"`
	AddedP99US      float64 `json:"added_p99_us,omitempty"`
}

// Measure is one proxy's numbers for one request kind.
type Measure struct {
	Requests int `json:"requests"`
	Errors   int `json:"errors"`
	// Missed counts, at a fixed rate, the requests not sent because the target was more
	// than maxQueue behind: it could not sustain the rate.
	Missed     int     `json:"missed,omitempty"`
	FirstError string  `json:"first_error,omitempty"`
	RPS        float64 `json:"rps"`
	P50US      float64 `json:"p50_us"`
	P99US      float64 `json:"p99_us"`
	// CPUPerRequestUS is the proxy process's user+system CPU time over the load divided
	// by its requests; the load generator and the upstream run in other processes.
	CPUPerRequestUS float64 `json:"cpu_per_request_us"`
	// The CPU time per request of the canned upstream and of the load generator (this
	// process) while this proxy was driven: with the proxy's, the whole path's cost, which
	// bounds the throughput when the machine's cores are the limit.
	UpstreamCPUPerRequestUS float64 `json:"upstream_cpu_per_request_us"`
	ClientCPUPerRequestUS   float64 `json:"client_cpu_per_request_us"`
	// OwnP50US and OwnP99US are the gateway's own time per request from its audit
	// records (total latency minus the upstream stage): what it adds when nothing else
	// holds the cores. Zero for the passthrough, which writes no records.
	OwnP50US float64 `json:"own_p50_us,omitempty"`
	OwnP99US float64 `json:"own_p99_us,omitempty"`
}

// HalfLoad is a fixed-rate phase: both proxies at half of Basis's peak throughput.
type HalfLoad struct {
	Basis   string  `json:"basis"` // passthrough or gateway
	RateRPS float64 `json:"rate_rps"`
	Result
}

// Budget is one of DESIGN.md's budgets with the measured value.
type Budget struct {
	What  string `json:"what"`
	Value string `json:"value"`
	Limit string `json:"limit"`
	Met   bool   `json:"met"`
}

// The load budgets of DESIGN.md.
const (
	minThroughputRatio = 0.70
	maxAddedP99        = time.Millisecond
)

func us(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }

// fill computes a result's measures and ratios from its samples by target.
func (r *Result) fill(by map[string]*sample) {
	measure := func(s *sample) *Measure {
		if s == nil {
			return nil
		}
		m := &Measure{Requests: s.requests, Errors: s.errors, Missed: s.missed, FirstError: s.firstErr,
			P50US: us(s.quantile(0.50)), P99US: us(s.quantile(0.99)),
			OwnP50US: us(quantile(s.own, 0.50)), OwnP99US: us(quantile(s.own, 0.99))}
		if s.elapsed > 0 {
			m.RPS = float64(s.requests) / s.elapsed.Seconds()
		}
		if s.requests > 0 {
			n := float64(s.requests)
			m.CPUPerRequestUS, m.UpstreamCPUPerRequestUS, m.ClientCPUPerRequestUS = us(s.cpu)/n, us(s.upstreamCPU)/n, us(s.clientCPU)/n
		}
		return m
	}
	r.Passthrough, r.Gateway = measure(by[RolePassthrough]), measure(by[RoleGateway])
	if r.Passthrough != nil && r.Gateway != nil && r.Passthrough.RPS > 0 {
		r.ThroughputRatio = r.Gateway.RPS / r.Passthrough.RPS
		r.AddedP50US = r.Gateway.P50US - r.Passthrough.P50US
		r.AddedP99US = r.Gateway.P99US - r.Passthrough.P99US
	}
}

// budgets evaluates the load budgets from the peak and half-load results of the
// 1-tool-call request.
// A result with failed requests meets no budget: its numbers measure something else.
func budgets(peak, half *Result) []Budget {
	return []Budget{
		{
			What:  "throughput, 1 tool call: gateway / passthrough",
			Value: pct(peak.ThroughputRatio), Limit: "≥ " + pct(minThroughputRatio),
			Met: peak.clean() && peak.ThroughputRatio >= minThroughputRatio,
		},
		{
			What:  "p99 added latency, 1 tool call, half load",
			Value: signedMS(half.AddedP99US) + overloaded(half), Limit: "≤ " + ms(us(maxAddedP99)),
			Met: half.clean() && half.Gateway.Missed == 0 && half.AddedP99US <= us(maxAddedP99),
		},
	}
}

func overloaded(r *Result) string {
	if r.Gateway != nil && r.Gateway.Missed > 0 {
		return " (overloaded)"
	}
	return ""
}

// clean reports whether both proxies were measured and answered every request.
func (r *Result) clean() bool {
	return r.Passthrough != nil && r.Gateway != nil && r.Passthrough.Errors == 0 && r.Gateway.Errors == 0
}
