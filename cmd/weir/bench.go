package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/weirgw/weir/cmd/weir/loadtest"
)

func init() {
	registered["bench"] = command{"load-test the gateway against a bare passthrough on loopback (see cmd/weir/loadtest)", runBench}
}

// runBench runs the load harness and prints its table (or JSON), with the stage benchmarks
// of --stages when given. `weir bench child ROLE ...` is how the harness starts its
// servers, one process each. Exit 1 when the run or a stage benchmark failed; a missed
// budget is reported in the table, not in the exit code (a shared machine is noisy).
func runBench(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "child" {
		return loadtest.ChildMain(args[1:], stdin, stdout, stderr)
	}
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	opts := loadtest.Options{Spawn: spawnSelf, Progress: stderr}
	fs.StringVar(&opts.Config, "config", "examples/analytics/weir.yaml", "gateway config; its upstreams must use ${WEIR_LLM_URL}")
	fs.DurationVar(&opts.Duration, "duration", 2*time.Second, "load per target and request, over all rounds")
	fs.IntVar(&opts.Conns, "conns", 16, "connections (requests in flight) per target")
	fs.IntVar(&opts.Rounds, "rounds", 4, "rounds in which the targets take turns")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	stages := fs.String("stages", "", "`go test -bench -benchmem` output to include in the table")
	requests := fs.String("requests", "", "comma-separated subset of tools0,tools1,tools3,stream,query (tools1 is always run)")
	fs.StringVar(&opts.ProfileDir, "profile", "", "directory for CPU profiles of both proxies (go tool pprof -top DIR/gateway.cpu.pprof)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: weir bench [--config FILE] [--duration D] [--conns N] [--rounds N] [--requests LIST] [--stages FILE] [--profile DIR] [--json]\n\n"+
			"Starts a canned upstream, a bare passthrough and the gateway on loopback, drives both proxies with\n"+
			"the same requests and prints requests/s, p50/p99 latency, CPU per request and their ratios.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	if *requests != "" {
		opts.Requests = strings.Split(*requests, ",")
	}
	var st *loadtest.Stages
	if *stages != "" {
		var err error
		if st, err = readStages(*stages); err != nil {
			fmt.Fprintf(stderr, "weir bench: %v\n", err)
			return 1
		}
	}
	report, err := loadtest.Run(opts)
	if err != nil {
		fmt.Fprintf(stderr, "weir bench: %v\n", err)
		return 1
	}
	report.Stages = st
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		err = enc.Encode(report)
	} else {
		err = loadtest.WriteTable(stdout, report)
	}
	if err != nil {
		fmt.Fprintf(stderr, "weir bench: %v\n", err)
		return 1
	}
	if st != nil && len(st.Failures) > 0 {
		return 1
	}
	return 0
}

func readStages(path string) (*loadtest.Stages, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return loadtest.ParseStages(f, path)
}

// spawnSelf runs `weir bench child ARGS...` with this binary.
func spawnSelf(args ...string) *exec.Cmd {
	exe, err := os.Executable()
	if err != nil {
		exe = os.Args[0]
	}
	return exec.Command(exe, append([]string{"bench", "child"}, args...)...)
}
