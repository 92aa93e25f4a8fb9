package replay

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/weirgw/weir/gateway/audit"
)

const example = "../../../examples/analytics"

// trail writes records as the analytics example decides them today: an analytics question
// with its content and an allowed execute_metric call, the same without content, and an
// advice question with the compute tools removed from the offer.
func trail(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "audit.jsonl")
	w, err := audit.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	call := audit.ToolCall{ID: "c1", Name: "execute_metric", Allowed: true, Origin: audit.OriginModel, Action: audit.ActionForwarded}
	withArgs := call
	withArgs.Arguments = json.RawMessage(`{"metric":"revenue"}`)
	recs := []*audit.Record{
		{DecisionID: "with-content", Intent: "analytics", Source: "rules", ToolCalls: []audit.ToolCall{withArgs},
			Content: &audit.Content{Prompt: "Qual è il fatturato totale?"}},
		{DecisionID: "no-content", Intent: "analytics", Source: "rules", ToolCalls: []audit.ToolCall{call}},
		{DecisionID: "advice", Intent: "strategy", Source: "rules", ToolsRemoved: []string{"execute_metric"},
			Content: &audit.Content{Prompt: "Come posso aumentare il fatturato del 50%?"}},
	}
	for i, r := range recs {
		r.Time, r.Surface, r.Route, r.Outcome, r.Status = at.Add(time.Duration(i)*time.Minute), "openai", "chat", audit.OutcomeAllowed, 200
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	return p
}

// candidate copies the example's bundle with edit applied to its data.yaml.
func candidate(t *testing.T, edit func(string) string) *Candidate {
	t.Helper()
	dir := t.TempDir()
	src := filepath.Join(example, "policies")
	entries, _ := os.ReadDir(src)
	for _, e := range entries {
		b, _ := os.ReadFile(filepath.Join(src, e.Name()))
		if e.Name() == "data.yaml" {
			b = []byte(edit(string(b)))
		}
		os.WriteFile(filepath.Join(dir, e.Name()), b, 0o600)
	}
	c, err := Load(context.Background(), filepath.Join(example, "rules"), dir)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestReplay(t *testing.T) {
	same := func(s string) string { return s }
	noMetric := func(s string) string {
		return strings.Replace(s, "allowed_tools: [execute_metric, aggregate_group, compare_periods]", "allowed_tools: [aggregate_group, compare_periods]", 1)
	}
	tests := []struct {
		name    string
		edit    func(string) string
		changed []string // decision ids that change
		want    []string // in the text report
	}{
		{"the running bundle changes nothing", same, nil, []string{"3 exchanges replayed: 0 would change, 1 partial"}},
		{"execute_metric removed from analytics", noMetric, []string{"with-content", "no-content"}, []string{
			"2 would change", "tool execute_metric allowed → denied; call execute_metric allowed → denied; +tool_not_allowed"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := candidate(t, tc.edit).Files(context.Background(), []string{trail(t)})
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, r := range rep.Changes {
				ids = append(ids, r.DecisionID)
			}
			if strings.Join(ids, ",") != strings.Join(tc.changed, ",") {
				t.Fatalf("changed %v, want %v: %+v", ids, tc.changed, rep.Changes)
			}
			var out bytes.Buffer
			rep.WriteText(&out)
			for _, w := range tc.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("report lacks %q:\n%s", w, out.String())
				}
			}
		})
	}
}

func TestReplayIntentFromPrompt(t *testing.T) {
	c := candidate(t, func(s string) string { return s })
	rec := &audit.Record{DecisionID: "d", Intent: "strategy", Source: "rules", Route: "chat", Surface: "openai",
		Content: &audit.Content{Prompt: "Qual è il fatturato totale?"}}
	r := c.Replay(context.Background(), rec)
	if r.Intent.Was != "strategy" || r.Intent.Now != "analytics" || !r.Changed() || len(r.Partial) != 0 {
		t.Fatalf("result %+v: the prompt is classified again", r)
	}
	var out bytes.Buffer
	(&Report{Records: 1, Changed: 1, Changes: []Result{r}}).WriteJSON(&out)
	var back Report
	if err := json.Unmarshal(out.Bytes(), &back); err != nil || back.Changes[0].Intent.Now != "analytics" {
		t.Fatalf("json report: %v %s", err, out.String())
	}
}

func TestLoadErrors(t *testing.T) {
	if _, err := Load(context.Background(), "/nonexistent/rules", filepath.Join(example, "policies")); err == nil || !strings.HasPrefix(err.Error(), "rules: ") {
		t.Fatalf("err = %v", err)
	}
	if _, err := Load(context.Background(), filepath.Join(example, "rules"), "/nonexistent/p"); err == nil || !strings.HasPrefix(err.Error(), "policies: ") {
		t.Fatalf("err = %v", err)
	}
}
