package main

import (
	"context"
	"fmt"
	"io"

	"github.com/weirgw/weir/policies"
	"github.com/weirgw/weir/rules"
)

func init() {
	policyChecker = func(w io.Writer, dir string, pack *rules.Pack) bool {
		b, ok := checkPolicies(w, dir)
		if b != nil && pack != nil {
			ok = crossCheck(w, b, intentNames(pack), routeTools(pack)) && ok
		}
		return ok
	}
}

// checkPolicies compiles the bundle in dir and runs its Rego unit tests, printing
// `file:line: code: message` for every load error and failing test, then a summary line.
// It returns the bundle when it compiled, and whether everything passed.
func checkPolicies(w io.Writer, dir string) (*policies.Bundle, bool) {
	ctx := context.Background()
	b, err := policies.Load(ctx, dir)
	if err != nil {
		printPolicyErrors(w, err)
		fmt.Fprintf(w, "policies %s: does not compile\n", dir)
		return nil, false
	}
	results, err := b.Test(ctx)
	if err != nil {
		printPolicyErrors(w, err)
		fmt.Fprintf(w, "policies %s: tests do not compile\n", dir)
		return b, false
	}
	failed := 0
	for _, r := range results {
		if r.Pass || r.Skip {
			continue
		}
		failed++
		msg := r.Package + "." + r.Name + " failed"
		if r.Error != "" {
			msg += ": " + r.Error
		}
		fmt.Fprintf(w, "%s:%d: %s: %s\n", r.File, r.Line, policies.CodeTestFailed, msg)
	}
	fmt.Fprintf(w, "policies %s: revision %s, %d tests passed, %d failed\n", dir, b.Revision(), len(results)-failed, failed)
	return b, failed == 0
}

func printPolicyErrors(w io.Writer, err error) {
	es := policies.Errors(err)
	if len(es) == 0 {
		fmt.Fprintln(w, err)
	}
	for _, e := range es {
		fmt.Fprintln(w, e)
	}
}

// crossCheck checks a rule pack's intents and route tools against the bundle and prints
// every mismatch; it returns true when there is none.
func crossCheck(w io.Writer, b *policies.Bundle, intents []string, routeTools map[string][]string) bool {
	errs := policies.CrossCheck(b, intents, routeTools)
	for _, err := range errs {
		fmt.Fprintf(w, "%s: cross_check: %v\n", b.Dir(), err)
	}
	fmt.Fprintf(w, "cross-check %s: %d intents, %d problems\n", b.Dir(), len(intents), len(errs))
	return len(errs) == 0
}
