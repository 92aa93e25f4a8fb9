package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/valyala/fasthttp"
)

// stormSteps is the number of reloads of TestFaultReloadStorm: hundreds, or one round of
// every kind of step under the race detector, whose value here is in the interleavings
// (-race makes a compile some fifty times slower).
func stormSteps() int {
	if raceDetector {
		return len(stormRound)
	}
	return 300
}

// stormStep changes one file with one atomic rename or remove, so that the watcher, which
// reloads whenever it likes, never compiles a state between two steps; good reports
// whether the files compile after the step.
type stormStep struct {
	name string
	good bool
	file func(s *storm) string // the file the step writes or removes
	data func(s *storm, i int) string
}

// storm is the state of a reload storm: the gateway's config and the files it edits.
type storm struct {
	t                          *testing.T
	config, extraRule, extraPo string
	dataFile, tmp              string
	goodConfig, goodData       string
}

func (s *storm) apply(st stormStep, i int) {
	path := st.file(s)
	if st.data == nil {
		if err := os.Remove(path); err != nil {
			s.t.Fatal(err)
		}
		return
	}
	if err := os.WriteFile(s.tmp, []byte(st.data(s, i)), 0o644); err != nil {
		s.t.Fatal(err)
	}
	if err := os.Rename(s.tmp, path); err != nil {
		s.t.Fatal(err)
	}
}

var (
	extraRule  = func(s *storm) string { return s.extraRule }
	extraPo    = func(s *storm) string { return s.extraPo }
	dataFile   = func(s *storm) string { return s.dataFile }
	configFile = func(s *storm) string { return s.config }
)

// stormRound is one round of steps; every broken step is repaired by a later one.
var stormRound = []stormStep{
	{"valid rule", true, extraRule, func(_ *storm, i int) string {
		return fmt.Sprintf("rules:\n  - id: storm.r%d\n    intent: analytics\n    pattern: 'zzzstorm%d'\n", i, i)
	}},
	{"invalid regex", false, extraRule, func(*storm, int) string { return brokenRule }},
	{"YAML syntax", false, extraRule, func(*storm, int) string { return "rules: [\n" }},
	{"rule removed", true, extraRule, nil},
	{"Rego syntax", false, extraPo, func(*storm, int) string { return "package weir.storm\n\nx := {\n" }},
	{"valid Rego", true, extraPo, func(_ *storm, i int) string { return fmt.Sprintf("package weir.storm\n\nstep := %d\n", i) }},
	{"policy data", false, dataFile, func(*storm, int) string { return "intents: [\n" }},
	{"policy data repaired", true, dataFile, func(s *storm, _ int) string { return s.goodData }},
	{"config unknown key", false, configFile, func(s *storm, _ int) string { return s.goodConfig + "bogus: 1\n" }},
	{"config repaired", true, configFile, func(s *storm, _ int) string { return s.goodConfig }},
	{"duplicate rule id", false, extraRule, func(*storm, int) string {
		return "rules:\n  - {id: storm.dup, intent: analytics, pattern: 'zzz'}\n  - {id: storm.dup, intent: analytics, pattern: 'yyy'}\n"
	}},
	{"duplicate removed", true, extraRule, nil},
}

// stormLoad is one request of the load: allowed or blocked by the policy, plain or streamed.
type stormLoad struct {
	blocked, stream bool
}

func (l stormLoad) body() []byte {
	msg := "Ciao, grazie!"
	req := map[string]any{"model": "m"}
	if l.blocked {
		msg = "Qual è il fatturato totale?"
		req["tools"] = []any{map[string]any{"type": "function", "function": map[string]any{"name": "execute_metric", "parameters": map[string]any{"type": "object"}}}}
	}
	req["messages"] = []any{map[string]any{"role": "user", "content": msg}}
	if l.stream {
		req["stream"] = true
	}
	b, _ := json.Marshal(req)
	return b
}

// check reports what is wrong with r: an allowed request must be served, a blocked one
// refused with tool_not_allowed, and the blocked call never reaches the client.
func (l stormLoad) check(r clientReply) error {
	switch {
	case r.decisionID == "":
		return fmt.Errorf("no decision id: %d %s", r.status, r.body)
	case l.blocked && !l.stream && (r.status != 403 || r.code != "tool_not_allowed"):
	case l.blocked && l.stream && (r.status != 200 || r.code != "tool_not_allowed"):
	case !l.blocked && (r.status != 200 || r.code != "" || !strings.Contains(string(r.body), "Ciao!")):
	case l.blocked && strings.Contains(string(r.body), `"tool_calls"`):
		return fmt.Errorf("a blocked tool call reached the client: %s", r.body)
	default:
		return nil
	}
	return fmt.Errorf("blocked %v stream %v: %d %q %s", l.blocked, l.stream, r.status, r.code, r.body)
}

// stormRules replace the analytics pack's rules with two: the storm is about swapping
// snapshots, and the full pack's compile (40ms of CPU) would make 200 reloads the slowest
// test of the package. TestReloadUnderLoad reloads the full pack.
const stormRules = `rules:
  - {id: storm.revenue, intent: analytics, pattern: 'fatturato', weight: 3}
  - {id: storm.thanks, intent: conversational, pattern: '^ciao\b', weight: 3}
`

// stormEnv is a gateway over the analytics pack's intents with stormRules and a copy of
// the analytics bundle, files the test edits.
func stormEnv(t *testing.T) (*testEnv, string, string) {
	dir := t.TempDir()
	rulesDir, polDir := filepath.Join(dir, "rules"), filepath.Join(dir, "policies")
	copyDir(t, "../examples/analytics/policies", polDir)
	os.MkdirAll(rulesDir, 0o755)
	pack, err := os.ReadFile("../examples/analytics/rules/pack.yaml")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(rulesDir, "pack.yaml"), pack, 0o644)
	os.WriteFile(filepath.Join(rulesDir, "rules.yaml"), []byte(stormRules), 0o644)
	return startGateway(t, gwParams{dir: dir, rules: "rules", policies: "policies"}), rulesDir, polDir
}

// TestFaultReloadStorm: hundreds of reloads, half of them of broken rule, policy or config
// files, with the file watcher reloading on its own as well, while four clients send
// allowed and policy-blocked requests, plain and streamed. Every request must get its
// correct answer from some complete snapshot (an allowed one served, a blocked one refused,
// never a 5xx), every failed reload must keep the last good snapshot, every request must
// have exactly its audit record, and nothing may be left running.
func TestFaultReloadStorm(t *testing.T) {
	checkLeaks(t)
	e, rulesDir, polDir := stormEnv(t)
	e.up.set(func(rc *fasthttp.RequestCtx, req map[string]any) {
		_, tools := req["tools"]
		switch {
		case tools && req["stream"] == true:
			streamReply(roleChunk(), toolDelta(0, "call_1", "filter_data", `{"limit":10}`), finishChunk("tool_calls"), sseDone)(rc, req)
		case tools:
			writeCompletion(rc, "", []call{{"filter_data", `{"limit":10}`}})
		case req["stream"] == true:
			streamReply(roleChunk(), textChunk("Ciao!"), finishChunk("stop"), sseDone)(rc, req)
		default:
			writeCompletion(rc, "Ciao!", nil)
		}
	})
	goodConfig, _ := os.ReadFile(e.config)
	goodData, _ := os.ReadFile(filepath.Join(polDir, "data.yaml"))
	s := &storm{
		t: t, config: e.config, extraRule: filepath.Join(rulesDir, "storm.yaml"), extraPo: filepath.Join(polDir, "storm.rego"),
		dataFile: filepath.Join(polDir, "data.yaml"), tmp: filepath.Join(filepath.Dir(rulesDir), ".storm.tmp"),
		goodConfig: string(goodConfig), goodData: string(goodData),
	}

	wctx, stopWatch := context.WithCancel(ctx)
	watched := make(chan error, 1)
	go func() { watched <- e.g.Watch(wctx) }()

	stop := make(chan struct{})
	var sent atomic.Int64
	var ids sync.Map
	errs := make(chan error, 100)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				time.Sleep(5 * time.Millisecond) // a steady load that leaves the reloads some CPU
				l := stormLoad{blocked: i%2 == 1, stream: i/2%2 == 1}
				sent.Add(1)
				r, err := do(e.g.Addr(), "POST", "/v1/chat/completions", l.body())
				if err == nil {
					ids.Store(r.decisionID, true)
					err = l.check(r)
				}
				if err != nil {
					select {
					case errs <- err:
					default:
					}
				}
			}
		}()
	}

	steps := stormSteps()
	pack, bundle := e.g.Snapshot().Pack.Revision(), e.g.Snapshot().Bundle.Revision()
	for i := range steps {
		st := stormRound[i%len(stormRound)]
		s.apply(st, i)
		err := e.g.Reload(ctx)
		if (err == nil) != st.good {
			t.Fatalf("step %d (%s): reload error %v", i, st.name, err)
		}
		snap := e.g.Snapshot()
		if st.good {
			pack, bundle = snap.Pack.Revision(), snap.Bundle.Revision()
		} else if snap.Pack.Revision() != pack || snap.Bundle.Revision() != bundle {
			t.Fatalf("step %d (%s): a failed reload replaced the running snapshot", i, st.name)
		}
	}
	close(stop)
	wg.Wait()
	stopWatch()
	if err := <-watched; err != nil {
		t.Errorf("Watch: %v", err)
	}
	close(errs)
	for err := range errs {
		t.Error(err)
	}

	records := e.records(t)
	if int64(len(records)) != sent.Load() {
		t.Errorf("%d audit records for %d requests", len(records), sent.Load())
	}
	for _, r := range records {
		if _, ok := ids.LoadAndDelete(r.DecisionID); !ok {
			t.Errorf("record %s answers no request (or two)", r.DecisionID)
		}
	}
	if st := e.g.Status(); st.Reloads+st.ReloadFailures < steps || st.ReloadFailures < steps/2 {
		t.Errorf("status after %d steps: %+v", steps, st)
	}
	t.Logf("%d reloads, %d requests", steps, sent.Load())
}
