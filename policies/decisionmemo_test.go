package policies

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sync"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// noMemos returns a copy of the bundle without its projection memos, building the whole
// input: everything else (direct decisions, intent memo) as in b.
func noMemos(b *Bundle) *Bundle {
	c := *b
	c.memos = memos{reads: fAll}
	return &c
}

// projectedInput draws an input whose every field comes from a small pool, so that memo
// keys repeat (hits) while fields outside the projections vary.
func projectedInput(b *Bundle, r *rand.Rand) *Input {
	in := randomInput(b, r, []string{"chat"})
	pick := func(xs []string) string { return xs[r.IntN(len(xs))] }
	in.Subject.ID = pick([]string{"", "alice", "n3", "n7", "nx"})
	in.Subject.Roles = [][]string{nil, {}, {"admin"}, {"analyst"}, {"admin", "x"}}[r.IntN(5)]
	in.Subject.Tenant = pick([]string{"", "acme", "globex", "blocked"})
	in.Subject.AuthMethod = pick([]string{"", "none", "api_key", "jwt", "header"})
	in.Route = Route{Name: pick([]string{"chat", "admin"}), Surface: pick([]string{"openai", "query"})}
	in.Classification.Confidence = []float64{0, math.Copysign(0, -1), 0.5, 0.9}[r.IntN(4)]
	in.Classification.Rules = [][]string{nil, {"r1"}, {"r1", "r2"}, {"r1r2"}}[r.IntN(4)]
	in.Classification.Filters = []map[string]any{nil, {"year": 2024}, {"metric": "revenue", "year": 2023.5}}[r.IntN(3)]
	return in
}

// TestMemoMatchesRego: on every example bundle and on one whose request decision reads
// every low-cardinality field, the memoized decisions are those of the same bundle without
// memos and of the Rego decisions evaluated in full, also for fields outside the
// projection; and the memos are in use.
func TestMemoMatchesRego(t *testing.T) {
	dirs := exampleBundles()
	dirs = append(dirs, "testdata/projection", "testdata/extend", "testdata/odd_violations", "testdata/override")
	for _, dir := range dirs {
		t.Run(dir, func(t *testing.T) {
			b := loadT(t, dir)
			override := dir == "testdata/override" // library: false; decisions that read no input
			if b.memos.request == nil || (b.memos.violation == nil) != override || (b.memos.response != nil) != override {
				t.Fatalf("%s: the request decision and violations read low-cardinality fields only: want memos (%+v)", dir, b.memos)
			}
			plain, full := noMemos(b), fullRego(b)
			r := rand.New(rand.NewPCG(2, uint64(len(dir))))
			n := samples(300)
			for range n {
				in := projectedInput(b, r)
				sameDecisions(t, b, plain, in)
				sameDecisions(t, b, full, in)
			}
			if s := b.memos.request.size(); s == 0 || s >= n {
				t.Errorf("request memo has %d entries after %d inputs: want hits", s, n)
			}
			if override {
				if s := b.memos.response.size(); s != 1 {
					t.Errorf("the response decision reads no input: %d entries, want 1", s)
				}
			} else if b.memos.violation.size() == 0 {
				t.Error("the request violations were never memoized")
			}
		})
	}
}

// TestMemoKey: the key has exactly the memo's fields, and lists are joined unambiguously.
func TestMemoKey(t *testing.T) {
	m := newDecisionMemo(fIntent|fRules, cloneRequest)
	a := &Input{Subject: Subject{ID: "x"}, Classification: Classification{Intent: "i", Rules: []string{"r1", "r2"}}}
	b := &Input{Subject: Subject{ID: "y"}, Classification: Classification{Intent: "i", Rules: []string{"r1r2"}}}
	if m.key(a) == m.key(b) {
		t.Error(`rules ["r1","r2"] and ["r1r2"] share a key`)
	}
	b.Classification.Rules = []string{"r1", "r2"}
	if m.key(a) != m.key(b) {
		t.Error("the subject is outside the projection: same key")
	}
	if newDecisionMemo(fIntent|fFilters, cloneRequest) != nil {
		t.Error("filters are high-cardinality: no memo")
	}
	c := newDecisionMemo(fConfidence, cloneRequest)
	if c.key(&Input{}) == c.key(&Input{Classification: Classification{Confidence: math.Copysign(0, -1)}}) {
		t.Error("-0 and 0 are different documents: different keys")
	}
}

// TestMemoBoundedAndConcurrent: the memo never holds more than memoMax entries, and
// concurrent decisions over many keys agree with the bundle without memos (run with -race).
func TestMemoBoundedAndConcurrent(t *testing.T) {
	b := loadT(t, "testdata/projection")
	plain := noMemos(b)
	ctx := context.Background()
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range memoMax/2 + 100 {
				in := &Input{Subject: Subject{ID: fmt.Sprintf("s%d-%d", g, i), Roles: []string{"admin"}}, Route: Route{Name: "admin"},
					Classification: Classification{Intent: "a", Rules: []string{"r"}}, ToolCalls: []ToolCall{b.ToolCall("c", "t", "{}")}}
				if i%7 == 0 {
					in.Subject.Roles = nil // role_required
				}
				d, err := b.Request(ctx, in)
				want, werr := plain.Request(ctx, in)
				if err != nil || werr != nil || !reflect.DeepEqual(d, want) {
					t.Errorf("%s: %+v %v, want %+v %v", in.Subject.ID, d, err, want, werr)
					return
				}
				if _, err := b.Tools(ctx, in); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if s := b.memos.request.size(); s > memoMax || s == 0 {
		t.Errorf("request memo has %d entries, bound %d", s, memoMax)
	}
	if s := b.memos.violation.size(); s > memoMax || s == 0 {
		t.Errorf("violation memo has %d entries, bound %d", s, memoMax)
	}
}

// TestMemoNoSharedSlices: changing a returned decision changes neither the memo nor the
// decision another caller gets.
func TestMemoNoSharedSlices(t *testing.T) {
	b := loadT(t, "testdata/projection")
	ctx := context.Background()
	in := &Input{Subject: Subject{AuthMethod: "api_key"}, Route: Route{Name: "admin"}, Classification: Classification{Intent: "a"}}
	first, err := b.Request(ctx, in)
	if err != nil || first.Allow || len(first.Violations) != 1 || len(first.Obligations.AllowedTools) != 1 {
		t.Fatalf("%+v %v", first, err)
	}
	var want RequestDecision // a deep copy made without the memo's clone
	if j, err := json.Marshal(first); err != nil || json.Unmarshal(j, &want) != nil {
		t.Fatal(err)
	}
	for range 2 { // the stored copy, then a copy returned on a hit
		d, _ := b.Request(ctx, in)
		d.Violations[0].Code = "changed"
		d.Obligations.AllowedTools[0] = "changed"
		d.Obligations.NumberSources[0] = "changed"
		_ = append(d.Violations[:0], Violation{Code: "appended"})
		e, _ := b.Request(ctx, in)
		e.Obligations.AllowedTools = append(e.Obligations.AllowedTools, "appended")
		if !slices.Equal(e.Obligations.NumberSources, want.Obligations.NumberSources) || !slices.Equal(e.Obligations.BlockedTools, want.Obligations.BlockedTools) {
			t.Errorf("an append to one obligation list changed another: %+v", e.Obligations)
		}
	}
	first.Violations[0].Code = "changed"
	if d, _ := b.Request(ctx, in); !reflect.DeepEqual(d, want) {
		t.Errorf("a caller's change reached the memo: %+v, want %+v", d, want)
	}
}

// TestMemoErrorsNotCached: a decision that fails keeps failing (closed) for the same key,
// whether evaluation failed or the input does not convert; and an input that fails does
// not poison the key for one that succeeds.
func TestMemoErrorsNotCached(t *testing.T) {
	b := loadT(t, "testdata/projection")
	ctx := context.Background()
	bad := &Input{Subject: Subject{ID: "nx"}, Classification: Classification{Intent: "a"}, ToolCalls: []ToolCall{b.ToolCall("c", "t", "{}")}}
	for range 3 {
		if d, err := b.Request(ctx, bad); Code(err) != CodeEvalError || d.Allow {
			t.Fatalf("request: %+v %v, want %s", d, err, CodeEvalError)
		}
		if d, err := b.Tools(ctx, bad); Code(err) != CodeEvalError || d.Allow || d.Calls[0].Allow {
			t.Fatalf("tools: %+v %v, want %s", d, err, CodeEvalError)
		}
	}
	if b.memos.request.size() != 0 || b.memos.violation.size() != 0 {
		t.Errorf("an error was memoized")
	}
	good := &Input{Subject: Subject{ID: "n3"}, Classification: Classification{Intent: "a", Filters: map[string]any{"year": 2024}}}
	if d, err := b.Request(ctx, good); err != nil || !d.Allow {
		t.Fatalf("%+v %v", d, err)
	}
	// The same key, but filters (outside the projection) that do not convert: the input is
	// invalid, as without the memo.
	same := *good
	same.cache = nil
	same.Classification.Filters = map[string]any{"year": make(chan int)}
	if d, err := b.Request(ctx, &same); Code(err) != CodeInputInvalid || d.Allow {
		t.Errorf("unconvertible filters: %+v %v, want %s", d, err, CodeInputInvalid)
	}
	same.Classification.Filters = nil
	same.ToolCalls = []ToolCall{{ID: "c", Name: "t", Arguments: map[string]any{"x": func() {}}}}
	if d, err := b.Request(ctx, &same); Code(err) != CodeInputInvalid || d.Allow {
		t.Errorf("unconvertible arguments: %+v %v, want %s", d, err, CodeInputInvalid)
	}
}

// TestInputReadsOnly: the input builder leaves the fields no decision reads empty, and
// still fails on filters that do not convert.
func TestInputReadsOnly(t *testing.T) {
	b := loadT(t, "../examples/analytics/policies")
	if want := fIntent | fSource | fToolCalls | fToolsCalled | fAnswer; b.memos.reads != want {
		t.Fatalf("analytics reads %012b, want %012b", b.memos.reads, want)
	}
	in := &Input{Subject: Subject{ID: "alice", Roles: []string{"x"}}, Route: Route{Name: "chat"},
		Classification: Classification{Intent: "analytics", Source: "rules", Confidence: 0.9, Rules: []string{"r"}, Filters: map[string]any{"year": 2024}}}
	v, err := in.value(nil, b.memos.reads, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"answer": {"numbers": []}, "classification": {"confidence": 0, "filters": {}, "intent": "analytics", "rules": [], "source": "rules"}, "route": {"name": "", "surface": ""}, "subject": {"auth_method": "", "id": "", "roles": [], "tenant": ""}, "tool_calls": [], "tools_called": []}`
	if v.String() != want {
		t.Errorf("input\n%s\nwant\n%s", v, want)
	}
	in.Classification.Filters["year"] = make(chan int) // changed in place
	if _, err := in.value(nil, b.memos.reads, nil); Code(err) != CodeInputInvalid {
		t.Errorf("filters changed in place to a value that does not convert: %v", err)
	}
	if d, err := b.Request(context.Background(), in); Code(err) != CodeInputInvalid || d.Allow {
		t.Errorf("request: %+v %v", d, err)
	}
	in.Classification.Filters = map[string]any{"year": 2024}
	v, err = in.value(nil, fAll, nil)
	if err != nil {
		t.Fatal(err)
	}
	if f := v.(ast.Object).Get(keyClassification).Get(keyFilters); f.String() != `{"year": 2024}` {
		t.Errorf("all fields: filters %v", f)
	}
}

// TestMemoHitKeepsPrefix: when the tools decision reads the filters (no shared prefix), a
// request answered from the memo still leaves the input's prefix for the copies the later
// decisions get, as an evaluation does.
func TestMemoHitKeepsPrefix(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"data.yaml": "intents:\n  a:\n    allowed_tools: [t]\n",
		"x.rego":    "package weir.tools\n\nviolation contains {\"code\": \"y\", \"message\": \"m\"} if input.classification.filters.year == 1999\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b := loadT(t, dir)
	if b.memos.request == nil || b.memos.prefix != nil {
		t.Fatalf("want a request memo and no shared prefix: %+v", b.memos)
	}
	ctx := context.Background()
	for i := range 2 { // a miss, then a hit
		in := &Input{Classification: Classification{Intent: "a", Filters: map[string]any{"year": 2024}}}
		if d, err := b.Request(ctx, in); err != nil || !d.Allow {
			t.Fatal(d, err)
		}
		if in.cache == nil {
			t.Errorf("request %d: no prefix left on the input", i)
		}
	}
}
