package loadtest

import (
	"bytes"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/valyala/fasthttp"
)

// childEnv makes the test binary run ChildMain instead of the tests: the harness's
// servers are this binary in child processes, as they are the weir binary in `weir bench`.
const childEnv = "WEIR_LOADTEST_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		os.Exit(ChildMain(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

func spawnTest(args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), childEnv+"=1")
	return cmd
}

// TestRunShort runs the whole harness briefly on the analytics example and checks that
// every request kind was measured on both proxies, without looking at any timing.
func TestRunShort(t *testing.T) {
	r, err := Run(Options{Config: "../../../examples/analytics/weir.yaml", Duration: 200 * time.Millisecond,
		Conns: 2, Rounds: 2, Spawn: spawnTest})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Results) != len(Scenarios()) {
		t.Fatalf("%d results, want one per scenario (%d)", len(r.Results), len(Scenarios()))
	}
	for _, res := range r.Results {
		if res.Scenario == "query" && !res.Available {
			// The analytics config without a query surface: reported, not measured.
			if !strings.Contains(res.Note, "404") {
				t.Errorf("query not available with note %q, want the 404 named", res.Note)
			}
			continue
		}
		checkMeasured(t, res, res.Scenario != "query")
	}
	if len(r.HalfLoad) != 2 {
		t.Fatalf("half load = %+v, want the passthrough's and the gateway's", r.HalfLoad)
	}
	for _, hl := range r.HalfLoad {
		if hl.RateRPS <= 0 {
			t.Errorf("half load %s: rate %v", hl.Basis, hl.RateRPS)
		}
		checkMeasured(t, hl.Result, true)
	}
	// The gateway's own time comes from its audit records: a part of what its client saw.
	for _, res := range r.Results {
		if res.Scenario != budgetScenario {
			continue
		}
		g, p := res.Gateway, res.Passthrough
		if g.OwnP50US <= 0 || g.OwnP99US < g.OwnP50US || g.OwnP99US > g.P99US {
			t.Errorf("gateway's own time p50 %v, p99 %v (client p99 %v): want 0 < p50 ≤ p99 ≤ the client's", g.OwnP50US, g.OwnP99US, g.P99US)
		}
		if p.OwnP50US != 0 || p.OwnP99US != 0 {
			t.Errorf("passthrough own time %v/%v: it writes no audit records", p.OwnP50US, p.OwnP99US)
		}
	}
	if len(r.Budgets) != 2 {
		t.Errorf("budgets = %+v, want throughput and added latency", r.Budgets)
	}
	var table bytes.Buffer
	if err := WriteTable(&table, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"1 tool call", "half the passthrough's peak", "half the gateway's peak", "LOAD BUDGETS", "gateway's own time"} {
		if !strings.Contains(table.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, table.String())
		}
	}
	if _, err := json.Marshal(r); err != nil {
		t.Error(err)
	}
}

func checkMeasured(t *testing.T, res Result, passthrough bool) {
	t.Helper()
	ms := map[string]*Measure{RoleGateway: res.Gateway}
	if passthrough {
		ms[RolePassthrough] = res.Passthrough
	}
	for name, m := range ms {
		switch {
		case m == nil:
			t.Errorf("%s: %s not measured", res.Scenario, name)
		case m.Requests == 0 || m.RPS <= 0:
			t.Errorf("%s: %s measured no requests: %+v", res.Scenario, name, m)
		case m.Errors > 0:
			t.Errorf("%s: %s had %d errors, first: %s", res.Scenario, name, m.Errors, m.FirstError)
		case m.P99US < m.P50US:
			t.Errorf("%s: %s p99 %v < p50 %v", res.Scenario, name, m.P99US, m.P50US)
		}
	}
}

// TestRunRefusesForeignUpstream: a config whose upstream is not the canned server must be
// refused before any load, with the reason: one that fails (a closed port), and one that
// answers like a model would (a real one is billed per request).
func TestRunRefusesForeignUpstream(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	answers := cannedAnswers()
	model := &fasthttp.Server{Handler: func(rc *fasthttp.RequestCtx) {
		rc.SetContentType("application/json")
		rc.SetBody(answers[answerName(rc.PostBody())])
	}}
	go func() { _ = model.Serve(ln) }()
	t.Cleanup(func() { _ = model.Shutdown() })
	for _, tc := range []struct{ name, url, want string }{
		{"closed port", "http://127.0.0.1:1/v1", "502"},
		{"another model", "http://" + ln.Addr().String() + "/v1", "did not come from the canned upstream"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Run(Options{Config: foreignConfig(t, tc.url), Duration: 100 * time.Millisecond, Conns: 1, Rounds: 1, Spawn: spawnTest})
			if err == nil || !strings.Contains(err.Error(), "0 tool calls") || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want the first request refused with %q", err, tc.want)
			}
		})
	}
}

func foreignConfig(t *testing.T, upstreamURL string) string {
	cfg := `listen: 127.0.0.1:0
admin_listen: 127.0.0.1:0
rules: ` + abs(t, "../../../examples/analytics/rules") + `
policies: ` + abs(t, "../../../examples/analytics/policies") + `
upstreams:
  - {name: llm, base_url: "` + upstreamURL + `", timeout: 2s, connect_timeout: 1s}
routes:
  - {name: chat, surface: openai, path: /v1, upstream: llm, auth: none}
audit: {path: stdout}
`
	path := filepath.Join(t.TempDir(), "weir.yaml")
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestOptionsValidate(t *testing.T) {
	ok := Options{Config: "../../../examples/analytics/weir.yaml", Duration: time.Second, Conns: 1, Rounds: 1, Spawn: spawnTest}
	for _, tc := range []struct {
		name string
		edit func(*Options)
		want string
	}{
		{"no config", func(o *Options) { o.Config = "" }, "config is required"},
		{"missing config", func(o *Options) { o.Config = "nope.yaml" }, "no such file"},
		{"zero duration", func(o *Options) { o.Duration = 0 }, "duration"},
		{"zero conns", func(o *Options) { o.Conns = 0 }, "conns"},
		{"zero rounds", func(o *Options) { o.Rounds = 0 }, "rounds"},
		{"unknown request", func(o *Options) { o.Requests = []string{"stream", "tools9"} }, `unknown request "tools9"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := ok
			tc.edit(&o)
			if _, err := Run(o); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

func abs(t *testing.T, path string) string {
	t.Helper()
	p, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
