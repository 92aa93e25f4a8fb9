package policies

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"
)

// heldoutAnswers are model answers with labels written by someone who had not seen the
// grounding code (issue 15): restaurant analytics and trade exchanges, each expected to be
// allowed or blocked, with the invented numbers of the blocked ones. They live beside the
// grounding package they measure; the test is here because it runs the whole Validate (the
// example bundles' request, tools and response decisions) as `weir validate` does.
const heldoutAnswers = "grounding/testdata/heldout_answers.jsonl"

// maxHeldoutBlocked is the number of answers labelled "allow" that Validate blocks, as
// measured when the set was committed (see policies/grounding/README.md): it may only go down.
const maxHeldoutBlocked = 2

type heldout struct {
	Exchange
	Expect   string   `json:"expect"`
	Invented []string `json:"invented"`
	Why      string   `json:"why"`
}

// tradeIntents are the intents of examples/trade; the others are examples/analytics'.
var tradeIntents = map[string]bool{"aggregation": true, "detail": true, "trend": true, "comparison": true, "recommendation": true, "ranking": true}

func readHeldout(t *testing.T) []heldout {
	f, err := os.Open(heldoutAnswers)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []heldout
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var h heldout
		if err := json.Unmarshal(sc.Bytes(), &h); err != nil {
			t.Fatalf("%s:%d: %v", heldoutAnswers, len(out)+1, err)
		}
		out = append(out, h)
	}
	return out
}

// TestHeldoutAnswers runs every held-out answer through Validate: every invented number must
// be reported ungrounded (and its answer blocked), and no more answers labelled "allow" may
// be blocked than were when the set was committed.
func TestHeldoutAnswers(t *testing.T) {
	analytics := loadT(t, "../examples/analytics/policies")
	trade := loadT(t, "../examples/trade/policies")
	blocked, invented := 0, 0
	for i, h := range readHeldout(t) {
		b := analytics
		if tradeIntents[h.Intent] {
			b = trade
		}
		v, err := b.Validate(context.Background(), h.Exchange)
		if err != nil {
			t.Fatalf("answer %d: %v", i, err)
		}
		switch {
		case h.Expect == "block":
			if v.Allowed {
				t.Errorf("answer %d allowed, want blocked (%s): %s", i, h.Why, h.Answer)
			}
			for _, s := range h.Invented {
				invented++
				if !flagged(v.Numbers, s) {
					t.Errorf("answer %d: invented %q not reported ungrounded: %+v", i, s, v.Numbers)
				}
			}
		case !v.Allowed:
			blocked++
			t.Logf("answer %d blocked (%s): %s\n  violations: %+v\n  numbers: %+v", i, h.Why, h.Answer, v.Violations, v.Numbers)
		}
	}
	t.Logf("%d invented numbers checked; %d answers labelled allow are blocked", invented, blocked)
	if blocked > maxHeldoutBlocked {
		t.Errorf("%d answers labelled allow are blocked, want ≤ %d", blocked, maxHeldoutBlocked)
	}
}

// flagged reports an ungrounded number whose text contains the invented one or is contained in
// it ("3.1 times" is read as "3.1").
func flagged(ns []NumberVerdict, invented string) bool {
	for _, n := range ns {
		if !n.Grounded && (strings.Contains(n.Text, invented) || strings.Contains(invented, n.Text)) {
			return true
		}
	}
	return false
}

// TestGroundingNames checks that the bundle's grounding.names reach the grounding: the
// analytics answer names food cost and revenue instead of writing their values.
func TestGroundingNames(t *testing.T) {
	b := loadT(t, "../examples/analytics/policies")
	ex := Exchange{
		Intent: "analytics",
		Messages: []Message{
			{Role: "user", Content: "Quanto incide il food cost?"},
			{Role: "assistant", ToolCalls: []ChatToolCall{{ID: "c1", Name: "execute_metric"}, {ID: "c2", Name: "execute_metric"}, {ID: "c3", Name: "aggregate_group"}}},
			{Role: "tool", ToolCallID: "c1", Content: `{"metric":"food_cost","value":7689.61}`},
			{Role: "tool", ToolCallID: "c2", Content: `{"metric":"revenue","value":21956.62}`},
			{Role: "tool", ToolCallID: "c3", Content: Content(manyNumbers())},
		},
		Answer: "Il food cost incide per il 35,0% sul fatturato.",
	}
	if b.GroundingOptions(Obligations{AllowDerivations: true}).Names == nil {
		t.Fatal("Bundle.GroundingOptions: no names")
	}
	v, err := b.Validate(context.Background(), ex)
	if err != nil {
		t.Fatal(err)
	}
	if !v.Allowed || len(v.Numbers) != 1 || v.Numbers[0].Derivation != "7689.61 / 21956.62 as %" {
		t.Errorf("verdict %+v", v)
	}
}

// manyNumbers is a tool result with more numbers than the low-precision tier's small pool, so
// that only the names make food cost and revenue operands.
func manyNumbers() string {
	var b strings.Builder
	b.WriteString(`{"shifts":[`)
	for i := 0; i < 30; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(100 + 37*i))
	}
	b.WriteString(`]}`)
	return b.String()
}
