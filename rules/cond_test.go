package rules

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// condPacks loads every example pack, testdata/mini and the synthetic benchmark pack.
func condPacks(t *testing.T) map[string]*Pack {
	t.Helper()
	packs := map[string]*Pack{"synthetic": syntheticPack(t, 100)}
	dirs, _ := filepath.Glob("../examples/*/rules")
	for _, dir := range append(dirs, "testdata/mini") {
		p, err := LoadDir(dir)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		packs[dir] = p
	}
	return packs
}

// TestCondMatchesVM evaluates every expression that has a Go form both ways, on the state
// each question of the corpus leaves after extraction, under random verdicts of the rules
// matched() reads and random values of the extractors: the Go form must agree with the VM
// every time.
func TestCondMatchesVM(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	scalars := []any{nil, "", "x", "revenue", 0, 7, 2024, 2.5, true, []any{}, map[string]any{}}
	strs := []string{"", "x", "revenue", "HttpClient", "GitHub", "github", "PostgreSQL", "UserModel"}
	checked := 0
	for dir, p := range condPacks(t) {
		c := NewClassifier(p, WithClock(fixedClock("2025-06-15")))
		qs := []string{"", "show findings", question200}
		if dir != "synthetic" {
			qs = append(qs, corpus(p, dir)...)
		}
		for _, q := range qs {
			s, norm, _ := c.begin(q)
			var res Classification
			res.Filters = map[string]any{}
			c.extract(&res, norm, s.orig, s)
			for round := range 4 {
				if round > 0 { // round 0 keeps what the question extracted
					for i, x := range p.extractors {
						switch {
						case x.stringList():
							list := make([]any, rng.IntN(3))
							for k := range list {
								list[k] = strs[rng.IntN(len(strs))]
							}
							s.vals[i] = list
						case x.list:
							list := make([]any, rng.IntN(3))
							for k := range list {
								list[k] = scalars[rng.IntN(len(scalars))]
							}
							s.vals[i] = list
						default:
							s.vals[i] = scalars[rng.IntN(len(scalars))]
						}
					}
				}
				for i := range s.matched {
					s.matched[i] = rng.IntN(2) == 0
				}
				res.Intent, res.Confidence = p.intents[rng.IntN(len(p.intents))].Name, rng.Float64()
				s.envReady = false
				s.addDecideNames(&res)
				env := s.vmEnv()
				for _, r := range p.rules {
					if r.cond != nil {
						if got, want := r.cond(s), evalBool(r.when, env); got != want {
							t.Fatalf("%s: rule %s on %q: Go form %v, VM %v (env %v)", dir, r.id, q, got, want, env)
						}
						checked++
					}
				}
				for _, o := range p.decide {
					if o.cond != nil {
						if got, want := o.cond(s), evalBool(o.when, env); got != want {
							t.Fatalf("%s: override %s on %q: Go form %v, VM %v", dir, o.id, q, got, want)
						}
						checked++
					}
				}
			}
			s.release()
		}
	}
	t.Logf("%d evaluations agree", checked)
}

// TestCondCoverage pins which expressions run as Go: every expression of the example packs.
func TestCondCoverage(t *testing.T) {
	for dir, p := range condPacks(t) {
		var vm []string
		total := 0
		for _, r := range p.rules {
			if r.when != nil {
				total++
				if r.cond == nil {
					vm = append(vm, r.id)
				}
			}
		}
		for _, o := range p.decide {
			total++
			if o.cond == nil {
				vm = append(vm, o.id)
			}
		}
		t.Logf("%s: %d of %d expressions run as Go, %d `matches` regexes prefiltered", dir, total-len(vm), total, len(p.condPatterns))
		if strings.HasPrefix(dir, "../examples/") && len(vm) > 0 {
			t.Errorf("%s: these expressions need the VM: %v", dir, vm)
		}
	}
}

func TestCondSubset(t *testing.T) {
	cases := []struct {
		when   string
		goForm bool
	}{
		{`metric != nil`, true},
		{`metric == nil && !matched("a")`, true},
		{`matched("a") || not matched("a")`, true},
		{`len(severity) > 0 && words <= 7`, true},
		{`(len(severity) > 0 ? 1 : 0) + (metric != nil ? 1 : 0) - 1 >= 1`, true},
		{`text matches "\\bfoo\\b" && !(original matches "Bar")`, true},
		{`metric == "revenue"`, true},
		{`true`, true},
		{`len(filter(severity, {lower(#) not in ["x", "y"]})) > 0`, true}, // any() over strings
		{`any(severity, {upper(#) in ["X"] || !(# in ["y"])})`, true},
		{`len(filter(years, {lower(#) not in ["x", "y"]})) > 0`, false}, // a list of numbers
		{`any(severity, {# == "x"})`, false},                            // comparisons in predicates
		{`len(text) > 3`, false},                                        // len of a string counts runes
		{`words > 2.5`, false},                                          // floats keep the VM
		{`len(severity) > 0.5`, false},                                  // floats keep the VM
		{`text contains "foo"`, false},                                  // operators beyond the subset
		{`lower(text) == "foo"`, false},                                 // builtins but len
		{`"a" in severity`, false},                                      // membership
		{`original matches text`, false},                                // a regex that is not a literal
		{`(metric ?? "x") == "x"`, false},                               // other operators
		{`matched("a") == true`, false},                                 // comparing booleans
		{`len(severity) == len(text)`, false},
	}
	for _, tc := range cases {
		t.Run(tc.when, func(t *testing.T) {
			src := okPack[:strings.Index(okPack, "intents:")] +
				"intents:\n  a: {description: first}\n" +
				"aliases:\n  sev: {Critical: [critical]}\n  m: {revenue: [revenue]}\n" +
				"extract:\n  severity: {alias: sev, list: true}\n  metric: {alias: m}\n  years: {builtin: year, list: true}\n" +
				"rules:\n  - {id: a, intent: a, pattern: 'foo', weight: 1}\n" +
				"  - {id: b, intent: a, when: '" + strings.ReplaceAll(tc.when, `'`, `''`) + "', weight: 1}\n"
			p, err := Load([]File{{Name: "p.yaml", Data: []byte(src)}})
			if err != nil {
				t.Fatal(err)
			}
			if got := p.rules[1].cond != nil; got != tc.goForm {
				t.Fatalf("Go form: got %v, want %v", got, tc.goForm)
			}
		})
	}
}

// TestCondShapes runs packs built for the edges of the Go forms with and without the fast
// paths: `matches` on both texts, shared and repeated regexes, lower-casing off (no
// prefilter on the normalized text), an extractor named like a name the classifier sets in
// `decide`, and an override that reads the score (both keep the VM).
func TestCondShapes(t *testing.T) {
	base := "pack:\n  name: t\n  default: {intent: a}\n%s" +
		"intents:\n  a: {description: first}\n  b: {description: second}\n" +
		"aliases:\n  sev: {Critical: [critical, urgent]}\n" +
		"extract:\n  severity: {alias: sev, list: true}\n  year: {builtin: year}\n  intent: {pattern: 'ticket (\\d+)', group: 1}\n" +
		"rules:\n" +
		"  - {id: r1, intent: a, when: 'text matches \"\\\\bshow\\\\b\" && !(original matches \"[A-Z]{3}\")', weight: 1}\n" +
		"  - {id: r2, intent: b, when: 'text matches \"\\\\bshow\\\\b\" || year != nil && len(severity) > 0', weight: 1.5}\n" +
		"  - {id: r3, intent: b, pattern: 'urgent', when: 'matched(\"r1\") || words > 3', weight: 0.5}\n" +
		"  - {id: r4, intent: a, when: 'intent != nil', weight: 0.2}\n" +
		"decide:\n  - {id: d1, when: 'score(\"b\") > 1 && original matches \"!$\"', intent: a, confidence: 0.7}\n"
	questions := []string{"", "show me", "Show ME the URGENT ones!", "critical from 2024", "SHOW critical findings of 2023 in ticket 42!",
		"ticket 7: why?", "show show show", "Urgent: show the CRITICAL tickets from last year!"}
	for _, norm := range []string{"", "  normalize: {lowercase: false}\n"} {
		p, err := Load([]File{{Name: "p.yaml", Data: []byte(fmt.Sprintf(base, norm))}})
		if err != nil {
			t.Fatal(err)
		}
		if p.rules[0].cond == nil || p.rules[1].cond == nil || p.rules[2].cond == nil || p.rules[3].cond != nil || p.decide[0].cond != nil {
			t.Fatalf("normalize %q: Go forms of r1..r4, d1: %v %v %v %v %v", norm, p.rules[0].cond != nil, p.rules[1].cond != nil, p.rules[2].cond != nil, p.rules[3].cond != nil, p.decide[0].cond != nil)
		}
		if len(p.condPatterns) != 2 {
			t.Fatalf("normalize %q: %d `matches` regexes registered, want 2 (one shared)", norm, len(p.condPatterns))
		}
		clock := WithClock(fixedClock("2025-06-15"))
		fast, slow := NewClassifier(p, clock), NewClassifier(p, clock, withoutPrefilter())
		for _, q := range questions {
			a, b := fast.Classify(context.Background(), q), slow.Classify(context.Background(), q)
			if !reflect.DeepEqual(a, b) {
				t.Errorf("normalize %q: %q differs:\nfast:  %+v\nplain: %+v", norm, q, a, b)
			}
		}
	}
}
