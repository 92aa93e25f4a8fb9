package loadtest

import (
	"errors"
	"fmt"
	"slices"
	"time"
)

// measure probes, warms up and measures every scenario, then the half-load phase.
func (h *harness) measure() error {
	scenarios, err := selectScenarios(h.opts.Requests)
	if err != nil {
		return err
	}
	results, active, err := h.probeScenarios(scenarios)
	if err != nil {
		return err
	}
	h.progress("warming up")
	for _, i := range active {
		for _, t := range h.targetsFor(&scenarios[i], 0) {
			closedLoop(t.client, &scenarios[i], h.opts.Conns, min(h.slice, 200*time.Millisecond))
		}
	}
	if err := h.peak(scenarios, active, results); err != nil {
		return err
	}
	h.report.Results = results
	i := slices.IndexFunc(scenarios, func(sc Scenario) bool { return sc.Key == budgetScenario })
	return h.halfLoad(&scenarios[i], &results[i])
}

// selectScenarios returns the scenarios named by keys (all when empty), always with the
// one the budgets are measured on.
func selectScenarios(keys []string) ([]Scenario, error) {
	all := Scenarios()
	if len(keys) == 0 {
		return all, nil
	}
	var out []Scenario
	for _, sc := range all {
		if sc.Key == budgetScenario || slices.Contains(keys, sc.Key) {
			out = append(out, sc)
		}
	}
	for _, k := range keys {
		if !slices.ContainsFunc(all, func(sc Scenario) bool { return sc.Key == k }) {
			return nil, fmt.Errorf("unknown request %q: want tools0, tools1, tools3, stream or query", k)
		}
	}
	return out, nil
}

// probeScenarios checks every scenario on its targets and returns the results to fill and the
// indexes of the scenarios to measure; an optional scenario that fails is reported as
// not available, any other failure ends the run.
func (h *harness) probeScenarios(scenarios []Scenario) ([]Result, []int, error) {
	results := make([]Result, len(scenarios))
	var active []int
	for i := range scenarios {
		sc := &scenarios[i]
		results[i] = Result{Scenario: sc.Key, Label: sc.Label, Available: true}
		if err := h.probeAll(sc); err != nil {
			if !sc.Optional {
				return nil, nil, err
			}
			results[i].Available, results[i].Note = false, err.Error()
			continue
		}
		active = append(active, i)
	}
	return results, active, nil
}

// peak drives every active scenario in closed loop, the targets taking turns per round.
func (h *harness) peak(scenarios []Scenario, active []int, results []Result) error {
	got := make([]map[string]*sample, len(scenarios))
	for _, i := range active {
		got[i] = map[string]*sample{}
	}
	for r := range h.opts.Rounds {
		h.progress("peak load, round %d/%d: %d connections, %s per target and request", r+1, h.opts.Rounds, h.opts.Conns, h.slice)
		for _, i := range active {
			for _, t := range h.targetsFor(&scenarios[i], r) {
				s, err := h.cell(t, func() sample { return closedLoop(t.client, &scenarios[i], h.opts.Conns, h.slice) })
				if err != nil {
					return err
				}
				addTo(got[i], t.name, s)
			}
		}
	}
	for _, i := range active {
		results[i].fill(got[i])
	}
	return nil
}

// targetsFor returns the targets a scenario drives in round r, in alternating order.
func (h *harness) targetsFor(sc *Scenario, r int) []*target {
	if sc.GatewayOnly {
		return h.targets[1:]
	}
	if r%2 == 1 {
		return []*target{h.targets[1], h.targets[0]}
	}
	return h.targets
}

// cell runs one slice of load and charges the CPU time of the target, the upstream and
// the load generator over it; the target's own time per request comes from the audit
// records the slice wrote.
func (h *harness) cell(t *target, load func() sample) (sample, error) {
	if err := t.trail.mark(); err != nil {
		return sample{}, err
	}
	before, err := h.cpu(t)
	if err != nil {
		return sample{}, err
	}
	s := load()
	after, err := h.cpu(t)
	if err != nil {
		return sample{}, err
	}
	s.cpu = after.target - before.target
	s.upstreamCPU = after.upstream - before.upstream
	s.clientCPU = after.client - before.client
	if s.own, err = t.trail.since(); err != nil {
		return sample{}, err
	}
	return s, nil
}

type cpuTimes struct{ target, upstream, client time.Duration }

func (h *harness) cpu(t *target) (c cpuTimes, err error) {
	if c.target, err = t.srv.cpu(); err != nil {
		return c, err
	}
	if c.upstream, err = h.up.cpu(); err != nil {
		return c, err
	}
	user, sys, err := processCPU()
	c.client = user + sys
	return c, err
}

func addTo(m map[string]*sample, name string, s sample) {
	if m[name] == nil {
		m[name] = &sample{}
	}
	m[name].add(s)
}

// halfLoad drives both proxies at fixed rates on the 1-tool-call request: half the
// passthrough's peak, where DESIGN.md budgets the added latency, and half the gateway's
// own peak, which shows the latency it adds when it is not saturated even where the
// first rate is more than it can take.
func (h *harness) halfLoad(sc *Scenario, peak *Result) error {
	if peak.Passthrough == nil || peak.Gateway == nil || peak.Passthrough.RPS <= 0 || peak.Gateway.RPS <= 0 {
		return errors.New("no peak throughput to derive the half-load rates from")
	}
	for _, basis := range []struct {
		name string
		rate float64
	}{{RolePassthrough, peak.Passthrough.RPS / 2}, {RoleGateway, peak.Gateway.RPS / 2}} {
		got := map[string]*sample{}
		for r := range h.opts.Rounds {
			h.progress("half the %s's peak, round %d/%d: %.0f requests/s, %s per target", basis.name, r+1, h.opts.Rounds, basis.rate, h.slice)
			for _, t := range h.targetsFor(sc, r) {
				s, err := h.cell(t, func() sample { return fixedRate(t.client, sc, h.opts.Conns, basis.rate, h.slice) })
				if err != nil {
					return err
				}
				addTo(got, t.name, s)
			}
		}
		res := Result{Scenario: sc.Key, Label: sc.Label, Available: true}
		res.fill(got)
		h.report.HalfLoad = append(h.report.HalfLoad, HalfLoad{Basis: basis.name, RateRPS: basis.rate, Result: res})
	}
	h.report.Budgets = budgets(peak, &h.report.HalfLoad[0].Result)
	return nil
}
