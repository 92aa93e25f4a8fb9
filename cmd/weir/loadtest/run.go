package loadtest

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/valyala/fasthttp"
)

// Options configure a harness run.
type Options struct {
	// Config is the gateway config both proxies load. Its upstreams must take their base
	// URL from ${WEIR_LLM_URL}, which the harness points at the canned upstream (the
	// examples do); a config that reaches anything else is refused before the load.
	Config string
	// Duration is how long each target is driven with each scenario, split over Rounds.
	Duration time.Duration
	// Conns is the number of connections (and requests in flight) per target.
	Conns int
	// Rounds is how many times the targets take turns: each round drives every target
	// with every scenario for Duration/Rounds, in alternating order, so drift in the
	// machine's load affects both proxies alike.
	Rounds int
	// Spawn starts the server processes (child.go).
	Spawn Spawn
	// Progress, when set, receives a line per phase.
	Progress io.Writer
	// Requests, when set, limits the run to these scenarios (Scenario.Key); the
	// 1-tool-call request the budgets are measured on is always included.
	Requests []string
	// ProfileDir, when set, receives a CPU profile of each proxy over the whole run
	// (passthrough.cpu.pprof, gateway.cpu.pprof): `go tool pprof -top FILE` shows where
	// the time goes.
	ProfileDir string
}

func (o *Options) validate() error {
	switch {
	case o.Config == "":
		return errors.New("a gateway config is required")
	case o.Duration <= 0:
		return errors.New("the duration must be positive")
	case o.Conns < 1:
		return errors.New("conns must be at least 1")
	case o.Rounds < 1:
		return errors.New("rounds must be at least 1")
	case o.Spawn == nil:
		return errors.New("no way to start the servers (Spawn)")
	}
	if _, err := os.Stat(o.Config); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	_, err := selectScenarios(o.Requests)
	return err
}

// budgetScenario is the request DESIGN.md's load budgets are stated for: non-streaming,
// one tool call, all stages on.
const budgetScenario = "tools1"

// target is one proxy under load: its process and a client to it.
type target struct {
	name   string
	srv    *server
	client *fasthttp.HostClient
	trail  *trail // the target's audit trail (own.go)
}

// harness is a run in progress.
type harness struct {
	opts    Options
	slice   time.Duration
	up      *server
	targets []*target // passthrough, gateway
	report  *Report
}

// Run starts the canned upstream, the passthrough and the gateway as child processes on
// loopback, drives them with every scenario and returns the report.
func Run(opts Options) (*Report, error) {
	if err := opts.validate(); err != nil {
		return nil, err
	}
	h := &harness{opts: opts, slice: opts.Duration / time.Duration(opts.Rounds)}
	dir, err := os.MkdirTemp("", "weir-bench-")
	if err != nil {
		return nil, err
	}
	defer func() { _ = os.RemoveAll(dir) }()
	if err := h.start(dir); err != nil {
		return nil, errors.Join(err, h.stop())
	}
	err = h.measure()
	return h.report, errors.Join(err, h.stop())
}

func (h *harness) start(dir string) error {
	cfg, err := filepath.Abs(h.opts.Config)
	if err != nil {
		return err
	}
	if h.opts.ProfileDir != "" {
		if err := os.MkdirAll(h.opts.ProfileDir, 0o755); err != nil {
			return err
		}
	}
	h.progress("starting the canned upstream, the passthrough and the gateway (%s)", h.opts.Config)
	if h.up, err = startServer(h.opts.Spawn, nil, RoleUpstream); err != nil {
		return err
	}
	// The config reads the upstream's URL (and the fallback model's) from WEIR_LLM_URL; no
	// key is needed, and none from the environment is sent to the canned server.
	env := []string{"WEIR_LLM_URL=" + h.up.addr, "WEIR_LLM_API_KEY="}
	// Both proxies compile the config at the same time; the run waits for the slower.
	roles := []string{RolePassthrough, RoleGateway}
	srvs, errs := make([]*server, len(roles)), make([]error, len(roles))
	var wg sync.WaitGroup
	for i, role := range roles {
		args := []string{role, "--config", cfg, "--audit", filepath.Join(dir, role+"-audit.jsonl")}
		if h.opts.ProfileDir != "" {
			args = append(args, "--cpuprofile", filepath.Join(h.opts.ProfileDir, role+".cpu.pprof"))
		}
		wg.Go(func() { srvs[i], errs[i] = startServer(h.opts.Spawn, env, args...) })
	}
	wg.Wait()
	for i, srv := range srvs {
		if srv != nil {
			h.targets = append(h.targets, &target{name: roles[i], srv: srv, client: newClient(srv.addr, h.opts.Conns),
				trail: &trail{path: filepath.Join(dir, roles[i]+"-audit.jsonl")}})
		}
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	h.report = &Report{
		Host:   Host{CPUs: runtime.NumCPU(), OS: runtime.GOOS, Arch: runtime.GOARCH, Go: runtime.Version()},
		Config: h.opts.Config, Conns: h.opts.Conns, Rounds: h.opts.Rounds,
		DurationMS: h.opts.Duration.Milliseconds(),
	}
	return nil
}

func (h *harness) stop() error {
	var errs []error
	for _, t := range h.targets {
		t.client.CloseIdleConnections()
		errs = append(errs, t.srv.stop())
	}
	if h.up != nil {
		errs = append(errs, h.up.stop())
	}
	return errors.Join(errs...)
}

func (h *harness) progress(format string, args ...any) {
	if h.opts.Progress != nil {
		fmt.Fprintf(h.opts.Progress, "weir bench: "+format+"\n", args...)
	}
}
