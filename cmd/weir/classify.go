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

	"github.com/weirgw/weir/rules"
)

func runClassify(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("classify", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("rules", "", "rule pack directory (required)")
	asJSON := fs.Bool("json", false, "print the full classification as one JSON object")
	jsonl := fs.Bool("jsonl", false, `read JSON lines with a "query" field from stdin; write one JSON line per input`)
	explain := fs.Bool("explain", false, "explain the decision: rules, weights, spans, overrides")
	clock := fs.String("clock", "", "classify as if today were this date (YYYY-MM-DD), for relative years")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: weir classify --rules DIR [--json|--explain] \"question\"\n       weir classify --rules DIR --jsonl < questions.jsonl")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *dir == "" || (!*jsonl && fs.NArg() == 0) {
		fs.Usage()
		return 2
	}
	pack, err := rules.LoadDir(*dir)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	var opts []rules.Option
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
		_ = enc.Encode(res)
	case *explain:
		fmt.Fprint(stdout, res.Explain())
	default:
		fmt.Fprint(stdout, res.Summary())
	}
	return 0
}

// jsonlResult is the stable line format of `weir classify --jsonl`.
type jsonlResult struct {
	Query      string         `json:"query"`
	Intent     string         `json:"intent"`
	Confidence float64        `json:"confidence"`
	Source     rules.Source   `json:"source"`
	Rules      []string       `json:"rules"`
	Filters    map[string]any `json:"filters"`
	Error      string         `json:"error,omitempty"`
}

// classifyJSONL answers every input line with exactly one output line, in order, so tools
// can zip inputs and outputs; a line that is not a JSON object with a string "query" gets a
// line with an error instead of being skipped. Blank lines are not inputs.
func classifyJSONL(c *rules.Classifier, stdin io.Reader, stdout, stderr io.Writer) int {
	sc := bufio.NewScanner(stdin)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	w := bufio.NewWriter(stdout)
	defer w.Flush()
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
		_ = enc.Encode(jsonlResult{Query: *in.Query, Intent: res.Intent, Confidence: res.Confidence, Source: res.Source, Rules: res.RuleIDs(), Filters: res.Filters})
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintf(stderr, "weir classify: reading stdin: %v\n", err)
		return 1
	}
	return status
}
