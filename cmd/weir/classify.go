package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/weirgw/weir/gateway/config"
	"github.com/weirgw/weir/rules"
	"github.com/weirgw/weir/rules/fallback"
)

func runClassify(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("classify", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("rules", "", "rule pack directory (required without --config)")
	cfgPath := fs.String("config", "", "gateway config: its rule pack (unless --rules) and its fallback model")
	noLLM := fs.Bool("no-llm", false, "rules only: never ask the config's fallback model")
	asJSON := fs.Bool("json", false, "print the full classification as one JSON object")
	jsonl := fs.Bool("jsonl", false, `read JSON lines with a "query" field from stdin; write one JSON line per input`)
	explain := fs.Bool("explain", false, "explain the decision: rules, weights, spans, overrides")
	clock := fs.String("clock", "", "classify as if today were this date (YYYY-MM-DD), for relative years")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: weir classify --rules DIR [--json|--explain] \"question\"\n       weir classify --rules DIR --jsonl < questions.jsonl\n       weir classify --config weir.yaml [--no-llm] [--json|--explain|--jsonl] [\"question\"]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if (*dir == "" && *cfgPath == "") || (!*jsonl && fs.NArg() == 0) {
		fs.Usage()
		return 2
	}
	opts, err := fromConfig(*cfgPath, dir, *noLLM)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	pack, err := rules.LoadDir(*dir)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	if *clock != "" {
		t, err := time.Parse("2006-01-02", *clock)
		if err != nil {
			fmt.Fprintf(stderr, "weir classify: --clock: %v\n", err)
			return 2
		}
		opts = append(opts, rules.WithClock(func() time.Time { return t }))
	}
	c := rules.NewClassifier(pack, opts...)
	if *jsonl {
		return classifyJSONL(c, stdin, stdout, stderr)
	}
	res := c.Classify(context.Background(), strings.Join(fs.Args(), " "))
	switch {
	case *asJSON:
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(withRationale{&res, res.Rationale()})
	case *explain:
		fmt.Fprint(stdout, res.Explain())
	default:
		fmt.Fprint(stdout, res.Summary())
	}
	return 0
}

// fromConfig reads the gateway config at path, when given: its rule pack replaces an empty
// *dir (the path is relative to the config file), and its fallback section, unless noLLM,
// becomes the classifier's LLM tier, built as `weir serve` builds it.
func fromConfig(path string, dir *string, noLLM bool) ([]rules.Option, error) {
	if path == "" {
		return nil, nil
	}
	cfg, err := config.Load(path)
	if err != nil {
		return nil, err
	}
	if *dir == "" {
		*dir = cfg.Rules
	}
	if cfg.Fallback == nil || noLLM {
		return nil, nil
	}
	fb, err := fallback.FromConfig(cfg.Fallback.LLM, cfg.Fallback.Options)
	if err != nil {
		return nil, fmt.Errorf("%s: fallback: %w", cfg.File, err)
	}
	return []rules.Option{rules.WithFallback(fb)}, nil
}

// withRationale is the --json form: the classification plus its rationale.
type withRationale struct {
	*rules.Classification
	Rationale string `json:"rationale"`
}

// jsonlResult is the stable line format of `weir classify --jsonl`.
type jsonlResult struct {
	Query      string       `json:"query"`
	Intent     string       `json:"intent"`
	Confidence float64      `json:"confidence"`
	Source     rules.Source `json:"source"`
	// PrimaryTool, FallbackTools and Rationale are seed 001's tool selection and explanation.
	PrimaryTool   string         `json:"primary_tool,omitempty"`
	FallbackTools []string       `json:"fallback_tools,omitempty"`
	Rationale     string         `json:"rationale,omitempty"`
	Rules         []string       `json:"rules"`
	Filters       map[string]any `json:"filters"`
	// Fallback is the call to the config's fallback model, when one was made.
	Fallback *rules.FallbackInfo `json:"fallback,omitempty"`
	Error    string              `json:"error,omitempty"`
}

// classifyJSONL answers every input line with exactly one output line, in order, so tools
// can zip inputs and outputs; a line that is not a JSON object with a string "query" gets a
// line with an error instead of being skipped. Blank lines are not inputs.
func classifyJSONL(c *rules.Classifier, stdin io.Reader, stdout, stderr io.Writer) int {
	sc := bufio.NewScanner(stdin)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	w := bufio.NewWriter(stdout)
	defer func() { _ = w.Flush() }()
	enc := json.NewEncoder(w)
	status, n := 0, 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var in struct {
			Query *string `json:"query"`
		}
		if err := json.Unmarshal([]byte(line), &in); err != nil || in.Query == nil {
			msg := `line must be a JSON object with a string "query" field`
			if err != nil {
				msg += ": " + err.Error()
			}
			_ = enc.Encode(jsonlResult{Rules: []string{}, Filters: map[string]any{}, Error: fmt.Sprintf("line %d: %s", n, msg)})
			status = 1
			continue
		}
		res := c.Classify(context.Background(), *in.Query)
		_ = enc.Encode(jsonlResult{Query: *in.Query, Intent: res.Intent, Confidence: res.Confidence, Source: res.Source,
			PrimaryTool: res.PrimaryTool, FallbackTools: res.FallbackTools, Rationale: res.Rationale(),
			Rules: res.RuleIDs(), Filters: res.Filters, Fallback: res.Fallback})
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintf(stderr, "weir classify: reading stdin: %v\n", err)
		return 1
	}
	return status
}
