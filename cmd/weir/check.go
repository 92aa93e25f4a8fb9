package main

import (
	"flag"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/weirgw/weir/rules"
)

func runCheck(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	rulesDir := fs.String("rules", "", "rule pack directory: compile it and run its inline tests")
	policiesDir := fs.String("policies", "", "policy bundle directory: compile it and run its Rego tests")
	verbose := fs.Bool("v", false, "print every inline test as a table row, not only failures; with --calibrate, every question decided wrongly")
	calibrate := fs.Bool("calibrate", false, "print the full calibration of the rules: per set, intent, style and confidence band")
	var sets stringList
	fs.Var(&sets, "set", "a labelled set (JSON lines with \"query\" and \"intent\") to calibrate on besides the pack's own; repeatable")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: weir check [--rules DIR [--calibrate] [--set FILE]...] [--policies DIR] [-v]\nWith both, also cross-checks the pack's intents and route tools against the bundle.\nA pack that declares pack.calibration.sets gets its calibration summary.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *rulesDir == "" && *policiesDir == "" {
		fs.Usage()
		return 2
	}
	ok := true
	var pack *rules.Pack
	if *rulesDir != "" {
		pack, ok = checkRules(stdout, *rulesDir, *verbose)
		if pack != nil {
			ok = checkCalibration(stdout, pack, sets, *calibrate, *verbose) && ok
		}
	}
	if *policiesDir != "" {
		if policyChecker == nil {
			fmt.Fprintln(stderr, "weir check: this build has no policy support")
			return 2
		}
		ok = policyChecker(stdout, *policiesDir, pack) && ok
	}
	if !ok {
		return 1
	}
	return 0
}

// checkRules compiles a pack and runs its inline tests, printing `file:line` for every
// problem. It returns the pack when it compiled.
func checkRules(w io.Writer, dir string, verbose bool) (*rules.Pack, bool) {
	pack, err := rules.LoadDir(dir)
	if err != nil {
		fmt.Fprintln(w, err)
		fmt.Fprintf(w, "rules %s: does not compile\n", dir)
		return nil, false
	}
	results := pack.RunTests()
	failed := 0
	for _, r := range results {
		if len(r.Failures) > 0 {
			failed++
			fmt.Fprintln(w, r.Error())
		}
	}
	if verbose {
		printTestTable(w, results)
	}
	fmt.Fprintf(w, "rules %s: pack %s, %d rules, %d tests: %d passed, %d failed\n", dir, pack.Name(), pack.RuleCount(), len(results), len(results)-failed, failed)
	return pack, failed == 0
}

func printTestTable(w io.Writer, results []rules.TestResult) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "QUESTION\tWANT\tGOT\tCONF\tSOURCE\t")
	for _, r := range results {
		mark := ""
		if len(r.Failures) > 0 {
			mark = "  ✗"
		}
		q := r.Case.Query
		if len(q) > 70 {
			q = q[:67] + "..."
		}
		fmt.Fprintf(tw, "%s\t%s\t%s%s\t%.2f\t%s\t\n", q, r.Case.Intent, r.Got.Intent, mark, r.Got.Confidence, r.Got.Source)
	}
	_ = tw.Flush()
}

// policyChecker compiles a policy bundle, runs its tests and, given a pack, cross-checks
// them; the policies wiring sets it.
var policyChecker func(w io.Writer, dir string, pack *rules.Pack) bool

func intentNames(p *rules.Pack) []string {
	var out []string
	for _, in := range p.Intents() {
		out = append(out, in.Name)
	}
	return out
}

func routeTools(p *rules.Pack) map[string][]string {
	out := map[string][]string{}
	for _, in := range p.Intents() {
		out[in.Name] = in.Route.AllTools()
	}
	return out
}
