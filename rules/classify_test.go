package rules

import (
	"context"
	"errors"
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func loadMini(t testing.TB) *Pack {
	t.Helper()
	p, err := LoadDir("testdata/mini")
	if err != nil {
		t.Fatalf("load mini: %v", err)
	}
	return p
}

func TestMiniPackTests(t *testing.T) {
	p := loadMini(t)
	for _, r := range p.RunTests() {
		if len(r.Failures) > 0 {
			t.Error(r.Error())
		}
	}
	if len(p.Tests()) != 8 {
		t.Errorf("want 8 tests, got %d", len(p.Tests()))
	}
}

func TestClassifyExplainsItself(t *testing.T) {
	p := loadMini(t)
	c := NewClassifier(p, WithClock(fixedClock("2025-06-15")))
	res := c.Classify(context.Background(), "Show CRITICAL findings in Hotels from last year")
	if res.Intent != "simple" || res.Source != SourceRules {
		t.Fatalf("got %s/%s: %s", res.Intent, res.Source, res.Explain())
	}
	if got := res.RuleIDs(); !reflect.DeepEqual(got, []string{"simple.list", "simple.filters_only"}) {
		t.Errorf("rules: %v", got)
	}
	want := map[string]string{"severity": "CRITICAL", "projectType": "Hotels", "year": "last year"}
	for _, s := range res.Spans {
		if want[s.Field] != s.Text {
			t.Errorf("span %s: want %q, got %q", s.Field, want[s.Field], s.Text)
		}
	}
	if res.Filters["year"] != 2024 {
		t.Errorf("relative year against the clock: got %v", res.Filters["year"])
	}
	for _, frag := range []string{"simple.list → simple (+1.5)", "spans", `"CRITICAL"`} {
		if !strings.Contains(res.Explain(), frag) {
			t.Errorf("explain lacks %q:\n%s", frag, res.Explain())
		}
	}
}

func TestOverrideAndDefault(t *testing.T) {
	c := NewClassifier(loadMini(t))
	res := c.Classify(context.Background(), "list findings and analyze the patterns")
	if res.Intent != "hybrid" || res.Override != "list_then_explain" || res.Confidence != 0.8 {
		t.Errorf("override: %+v", res)
	}
	res = c.Classify(context.Background(), "good morning")
	if res.Intent != "complex" || res.Source != SourceDefault || res.Confidence != 0.5 || res.Reason == "" {
		t.Errorf("default: %+v", res)
	}
}

func TestConfidenceFormula(t *testing.T) {
	tests := []struct{ top, runner, want float64 }{
		{1, 0, 0.6321}, {2, 0, 0.8647}, {3, 0, 0.9502}, {2, 2, 0.4323}, {2, 1, 0.6485}, {0.5, 0, 0.3935},
	}
	for _, tc := range tests {
		if got := confidence(tc.top, tc.runner); math.Abs(got-tc.want) > 1e-4 {
			t.Errorf("confidence(%v,%v) = %v, want %v", tc.top, tc.runner, got, tc.want)
		}
	}
}

// TestClassifyBadInput feeds what a gateway receives from the internet: nothing may panic,
// and long input is capped and says so.
func TestClassifyBadInput(t *testing.T) {
	c := NewClassifier(loadMini(t))
	huge := strings.Repeat("show critical findings ", 50000) // ~1 MB
	inputs := map[string]string{
		"empty": "", "spaces": "   \t\n ", "invalid utf8": "show \xff\xfe findings \xc3", "controls": "show\x00\x01\x1b[31m findings\x7f",
		"huge": huge, "only punctuation": "?!?!...''\"\"", "emoji": "show 🔥 findings 🏨", "rtl": "اعرض النتائج",
	}
	for name, in := range inputs {
		t.Run(name, func(t *testing.T) {
			res := c.Classify(context.Background(), in)
			if res.Intent == "" || res.Confidence < 0 || res.Confidence > 1 {
				t.Fatalf("bad result %+v", res)
			}
			if name == "huge" && (!res.Truncated || res.ScannedBytes > p16k) {
				t.Fatalf("huge input not capped: truncated=%v scanned=%d", res.Truncated, res.ScannedBytes)
			}
		})
	}
}

const p16k = defaultMaxScanBytes

type fakeFallback struct {
	calls  atomic.Int32
	answer FallbackAnswer
	err    error
}

func (f *fakeFallback) Classify(ctx context.Context, q FallbackQuery) (FallbackAnswer, error) {
	f.calls.Add(1)
	return f.answer, f.err
}

func TestFallbackSeam(t *testing.T) {
	p := loadMini(t)
	tests := []struct {
		name       string
		fb         *fakeFallback
		question   string
		wantIntent string
		wantSource Source
		wantCalls  int32
	}{
		{"confident rules never ask", &fakeFallback{answer: FallbackAnswer{Intent: "complex", Confidence: 0.9}}, "show critical findings in hotels from 2024", "simple", SourceRules, 0},
		{"unsure rules ask", &fakeFallback{answer: FallbackAnswer{Intent: "hybrid", Confidence: 0.7, Model: "m"}}, "good morning", "hybrid", SourceLLM, 1},
		{"unknown intent from the model", &fakeFallback{answer: FallbackAnswer{Intent: "admin", Confidence: 1}}, "good morning", "complex", SourceDefault, 1},
		{"model error", &fakeFallback{err: errors.New("timeout")}, "good morning", "complex", SourceDefault, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := NewClassifier(p, WithFallback(tc.fb)).Classify(context.Background(), tc.question)
			if res.Intent != tc.wantIntent || res.Source != tc.wantSource || tc.fb.calls.Load() != tc.wantCalls {
				t.Fatalf("got %s/%s after %d calls: %s", res.Intent, res.Source, tc.fb.calls.Load(), res.Reason)
			}
			if tc.wantCalls > 0 && res.Fallback == nil {
				t.Fatal("fallback call not recorded")
			}
			if tc.wantSource == SourceDefault && res.Fallback.Error == "" {
				t.Fatal("failed fallback must say why")
			}
		})
	}
}

// TestPrefilterChangesNothing runs every question we have (the test pack, the example packs'
// inline tests and held-aside sets, and variations) with and without the literal prefilter;
// the results must be identical.
func TestPrefilterChangesNothing(t *testing.T) {
	dirs, _ := filepath.Glob("../examples/*/rules")
	dirs = append(dirs, "testdata/mini")
	checked := 0
	for _, dir := range dirs {
		p, err := LoadDir(dir)
		if err != nil {
			t.Errorf("%s: %v", dir, err)
			continue
		}
		clock := WithClock(fixedClock("2025-06-15"))
		fast, slow := NewClassifier(p, clock), NewClassifier(p, clock, withoutPrefilter())
		qs := corpus(p, dir)
		for i := 0; i < len(qs); i += len(qs) / samples(len(qs)) {
			q := qs[i]
			a, b := fast.Classify(context.Background(), q), slow.Classify(context.Background(), q)
			if !reflect.DeepEqual(a, b) {
				t.Errorf("%s: %q differs:\nprefilter: %+v\nfull:      %+v", dir, q, a, b)
			}
			checked++
		}
	}
	// The synthetic pack of the benchmark repeats a `when` (evaluated once per question) and
	// windows an extractor.
	p := syntheticPack(t, 100)
	fast, slow := NewClassifier(p, WithClock(fixedClock("2025-06-15"))), NewClassifier(p, WithClock(fixedClock("2025-06-15")), withoutPrefilter())
	for _, q := range []string{question200, strings.ToUpper(question200), "show findings", "alpha3 issues from 2024, critical", "why is the hotel7 finding in the sales department open?", ""} {
		a, b := fast.Classify(context.Background(), q), slow.Classify(context.Background(), q)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("synthetic: %q differs:\nprefilter: %+v\nfull:      %+v", q, a, b)
		}
		checked++
	}
	t.Logf("%d questions agree with and without the prefilter", checked)
}

func corpus(p *Pack, dir string) []string {
	var qs []string
	for _, tc := range p.Tests() {
		qs = append(qs, tc.Query, strings.ToUpper(tc.Query), tc.Query+" please", "so, "+tc.Query)
	}
	qs = append(qs, heldout(filepath.Dir(dir))...)
	return qs
}

func fixedClock(date string) func() time.Time {
	t, _ := parseClock(date)
	return func() time.Time { return t }
}

func FuzzClassify(f *testing.F) {
	for _, s := range []string{"", "show critical findings in hotels from 2024", "why \xff", "top ten findings over $50,000", "l’anno scorso", strings.Repeat("a", 5000)} {
		f.Add(s)
	}
	p, err := LoadDir("testdata/mini")
	if err != nil {
		f.Fatal(err)
	}
	c := NewClassifier(p)
	f.Fuzz(func(t *testing.T, s string) {
		res := c.Classify(context.Background(), s)
		if res.Confidence < 0 || res.Confidence > 1 || res.Intent == "" {
			t.Fatalf("bad result for %q: %+v", s, res)
		}
		for _, sp := range res.Spans {
			if sp.Start < 0 || sp.End > len(s) || sp.Start > sp.End {
				t.Fatalf("span out of range for %q: %+v", s, sp)
			}
		}
	})
}

// FuzzFastPathsAgree classifies arbitrary text with every example pack with and without the
// prefilter, its plans and the expressions' Go forms: the results must be identical.
func FuzzFastPathsAgree(f *testing.F) {
	for _, s := range []string{"", "Qual è il fatturato totale del 2024?", "come aumentare il fatturato del 20% entro il 2025",
		"show me the first 20 rows", "Where is HttpClient.retry() called in src/net/*.go?", "imports from China between 2022 and 2024 over $50,000",
		"why \xff", "l’anno scorso", "GRAZIE!!"} {
		f.Add(s)
	}
	dirs, _ := filepath.Glob("../examples/*/rules")
	type pair struct{ fast, slow *Classifier }
	var pairs []pair
	for _, dir := range dirs {
		p, err := LoadDir(dir)
		if err != nil {
			f.Fatal(err)
		}
		clock := WithClock(fixedClock("2025-06-15"))
		pairs = append(pairs, pair{NewClassifier(p, clock), NewClassifier(p, clock, withoutPrefilter())})
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, c := range pairs {
			a, b := c.fast.Classify(context.Background(), s), c.slow.Classify(context.Background(), s)
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("%s: %q differs:\nfast:  %+v\nplain: %+v", c.fast.Pack().Name(), s, a, b)
			}
		}
	})
}

// TestRationale: the rationale is the override's description, then the descriptions of the
// matched rules that argue for the decided intent (ids for rules without one); rules that
// argue for another intent are left out; below the threshold it is the reason. The route's
// tools follow the final intent.
func TestRationale(t *testing.T) {
	c := NewClassifier(loadMini(t), WithClock(fixedClock("2025-06-15")))
	tests := []struct {
		query, want, primary string
	}{
		{"show findings and explain the trends", "a list request followed by an analysis, the seed's hybrid shape", ""},
		{"show critical findings in hotels", "asks to show or list findings; simple.filters_only", "query_findings"},
		{"how many findings in 2024?", "simple.how_many; simple.filters_only", "query_findings"},
		{"what trends?", "analytical vocabulary (trends, patterns, analysis)", ""},
		{"hello there", "no rule matched; the pack default applies", ""},
	}
	for _, tc := range tests {
		t.Run(tc.query, func(t *testing.T) {
			res := c.Classify(context.Background(), tc.query)
			if got := res.Rationale(); got != tc.want {
				t.Errorf("rationale = %q, want %q", got, tc.want)
			}
			if res.PrimaryTool != tc.primary {
				t.Errorf("primary tool = %q, want %q", res.PrimaryTool, tc.primary)
			}
		})
	}
}
