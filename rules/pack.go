package rules

import (
	"regexp"
	"time"

	"github.com/expr-lang/expr/vm"

	"github.com/weirgw/weir/rules/internal/prefilter"
)

// Pack is a compiled rule pack: immutable after Load, safe for concurrent use.
type Pack struct {
	name, description string
	revision          string
	intents           []Intent
	intentIndex       map[string]int
	defaultIntent     int
	defaultConfidence float64
	below             float64
	belowText         string   // below as %.2f, for fallback reasons
	scoredReason      []string // per intent: the Reason when the rules decided it
	maxScan           int
	testClock         time.Time
	norm              normOptions

	extractors []*extractor
	rules      []*rule
	ruleIndex  map[string]int
	decide     []*override
	tests      []TestCase
	calib      calibSettings

	// patterns lists every regex that runs on the normalized text (rule patterns and
	// extractor patterns), in the order the prefilter knows them.
	patterns  []*regexp.Regexp
	prefilter *prefilter.Prefilter
	// origPatterns lists the regexes that run on the original text, in the order origFilter
	// knows them.
	origPatterns []*regexp.Regexp
	origFilter   *prefilter.Prefilter
	// condPatterns are the `matches` regexes of the expressions that have a Go form; they
	// are also in patterns or origPatterns.
	condPatterns []*condPattern
	hasExpr      bool
	// envUses are the environment names the expressions read; nwhens counts the distinct
	// `when` expressions evaluated once per question; nslots the distinct scalar filter slots
	// (field and operator). See compileEnv.
	envUses envName
	nwhens  int
	nslots  int
}

// Intent is one label of a pack, with the route data the query surface uses.
type Intent struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Route       Route  `json:"route"`
}

// Route is what a pack says about serving an intent: the route kind (data, llm,
// data+llm, agent) and the tools, sources and limits it uses. Classification ignores it.
type Route struct {
	Kind             string   `json:"kind,omitempty"`
	PrimaryTool      string   `json:"primary_tool,omitempty"`
	FallbackTools    []string `json:"fallback_tools,omitempty"`
	Tools            []string `json:"tools,omitempty"`
	Sources          []string `json:"sources,omitempty"`
	MaxIterations    int      `json:"max_iterations,omitempty"`
	MaxResults       int      `json:"max_results,omitempty"`
	MaxContextRows   int      `json:"max_context_rows,omitempty"`
	MaxContextTokens int      `json:"max_context_tokens,omitempty"`
}

// AllTools returns every tool the route names (tools, primary and fallbacks), deduplicated.
func (r Route) AllTools() []string {
	seen := map[string]bool{}
	var out []string
	for _, list := range [][]string{r.Tools, {r.PrimaryTool}, r.FallbackTools} {
		for _, t := range list {
			if t != "" && !seen[t] {
				seen[t] = true
				out = append(out, t)
			}
		}
	}
	return out
}

// rule is a compiled rule.
type rule struct {
	id, intent string
	intentIdx  int
	weight     float64
	re         *regexp.Regexp
	patternIdx int // index into Pack.patterns, -1 when the rule runs on the original text or has no pattern
	origIdx    int // index into Pack.origPatterns, -1 when the rule runs on the normalized text
	onOriginal bool
	when       *vm.Program
	cond       condBool // when's Go form (see compileConds), nil: the VM runs it
	whenSrc    string
	whenID     int // shared evaluation of an identical `when` (see compileEnv), -1: its own
	// description is the author's sentence for the rule, "" when none (see Rationale).
	description string
	file        string
	line        int
}

// override is a compiled `decide` entry.
type override struct {
	id         string
	intentIdx  int
	confidence float64
	when       *vm.Program
	cond       condBool // when's Go form, nil: the VM runs it
	reason     string   // the Reason when this override decides
	// description is the author's sentence for the override, "" when none.
	description string
}

// Name returns the pack's name.
func (p *Pack) Name() string { return p.name }

// Description returns the pack's description.
func (p *Pack) Description() string { return p.description }

// Revision returns a content hash of the pack's files; it changes whenever a file does.
func (p *Pack) Revision() string { return p.revision }

// Intents returns the pack's intents in declaration order.
func (p *Pack) Intents() []Intent { return append([]Intent(nil), p.intents...) }

// Intent returns the intent with the given name.
func (p *Pack) Intent(name string) (Intent, bool) {
	i, ok := p.intentIndex[name]
	if !ok {
		return Intent{}, false
	}
	return p.intents[i], true
}

// Default returns the intent and confidence used when the rules are not confident.
func (p *Pack) Default() (string, float64) {
	return p.intents[p.defaultIntent].Name, p.defaultConfidence
}

// Threshold returns fallback.below: confidences under it are not decided by the rules.
func (p *Pack) Threshold() float64 { return p.below }

// Tests returns the pack's inline tests.
func (p *Pack) Tests() []TestCase { return append([]TestCase(nil), p.tests...) }

// RuleCount returns the number of rules, for reports and benchmarks.
func (p *Pack) RuleCount() int { return len(p.rules) }
