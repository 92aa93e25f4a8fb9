package rules

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"time"
)

// TestCase is one inline test of a pack.
type TestCase struct {
	File          string
	Line          int
	Query         string
	Intent        string
	Filters       map[string]any
	MinConfidence float64
	Source        Source
	Absent        []string
	Now           time.Time // zero: the pack's test_clock, else the real clock
}

// TestResult is the outcome of one inline test; it passed when Failures is empty.
type TestResult struct {
	Case     TestCase
	Got      Classification
	Failures []string
}

// Error formats a failed test as `file:line: test_failed: ...`.
func (r TestResult) Error() string {
	return fmt.Sprintf("%s:%d: test_failed: %q: %s", r.Case.File, r.Case.Line, r.Case.Query, strings.Join(r.Failures, "; "))
}

func compileTests(p *Pack, srcs []*source, e *errs) {
	fields := map[string]bool{}
	for _, x := range p.extractors {
		fields[x.field] = true
	}
	for _, s := range srcs {
		for i, d := range s.doc.Tests {
			line := s.line("tests", i)
			tc := TestCase{File: s.name, Line: line, Query: d.Query, Intent: d.Intent, Filters: d.Filters, Source: Source(d.Source), Absent: d.Absent}
			ok := true
			if strings.TrimSpace(d.Query) == "" {
				e.add(s.name, line, "test_invalid", "a test needs a query")
				ok = false
			}
			if _, known := p.intentIndex[d.Intent]; !known {
				e.add(s.name, s.line("tests", i, "intent"), "test_unknown_intent", "test intent %q is not declared under intents", d.Intent)
				ok = false
			}
			for _, f := range append(sortedKeys(d.Filters), d.Absent...) {
				if !fields[f] {
					e.add(s.name, line, "test_unknown_field", "test names field %q, which no extractor fills", f)
					ok = false
				}
			}
			switch tc.Source {
			case "", SourceRules, SourceDefault:
			default:
				e.add(s.name, s.line("tests", i, "source"), "test_invalid", "source must be rules or default, got %q", d.Source)
				ok = false
			}
			if d.MinConfidence != nil {
				tc.MinConfidence = *d.MinConfidence
			}
			if d.Now != "" {
				t, err := parseClock(d.Now)
				if err != nil {
					e.add(s.name, s.line("tests", i, "now"), "test_invalid", "now: %v", err)
					ok = false
				}
				tc.Now = t
			}
			if ok {
				p.tests = append(p.tests, tc)
			}
		}
	}
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// RunTests runs every inline test with the rules alone (no fallback tier).
func (p *Pack) RunTests() []TestResult {
	out := make([]TestResult, 0, len(p.tests))
	for _, tc := range p.tests {
		out = append(out, p.runTest(tc))
	}
	return out
}

func (p *Pack) runTest(tc TestCase) TestResult {
	now := tc.Now
	if now.IsZero() {
		now = p.testClock
	}
	var opts []Option
	if !now.IsZero() {
		opts = append(opts, WithClock(func() time.Time { return now }))
	}
	got := NewClassifier(p, opts...).Classify(context.Background(), tc.Query)
	r := TestResult{Case: tc, Got: got}
	fail := func(format string, args ...any) { r.Failures = append(r.Failures, fmt.Sprintf(format, args...)) }
	if got.Intent != tc.Intent {
		fail("intent: want %s, got %s (%s, confidence %.2f; %s)", tc.Intent, got.Intent, got.Source, got.Confidence, got.Reason)
	}
	if tc.Source != "" && got.Source != tc.Source {
		fail("source: want %s, got %s (rules said %s at %.2f)", tc.Source, got.Source, got.RulesIntent, got.RulesConfidence)
	}
	if tc.MinConfidence > 0 && got.Confidence < tc.MinConfidence {
		fail("confidence: want ≥ %.2f, got %.2f", tc.MinConfidence, got.Confidence)
	}
	for _, k := range sortedKeys(tc.Filters) {
		want, have := canonJSON(tc.Filters[k]), canonJSON(got.Filters[k])
		if !reflect.DeepEqual(want, have) {
			fail("filter %s: want %s, got %s", k, jsonText(tc.Filters[k]), jsonText(got.Filters[k]))
		}
	}
	for _, k := range tc.Absent {
		if v, ok := got.Filters[k]; ok {
			fail("filter %s: want absent, got %s", k, jsonText(v))
		}
	}
	return r
}

// canonJSON maps a value through JSON so YAML ints, Go ints and float64s compare equal.
func canonJSON(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

func jsonText(v any) string {
	if v == nil {
		return "nothing"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
