package query

import (
	"context"
	"strings"
	"testing"

	"github.com/weirgw/weir/rules"
)

// fakeDocs is a document source that returns fixed passages and counts its searches.
type fakeDocs struct{ searched int }

func (f *fakeDocs) Name() string { return "pdf" }
func (f *fakeDocs) Tool() string { return "search_protocol" }
func (f *fakeDocs) Search(_ context.Context, _ string, limit int) ([]Passage, error) {
	f.searched++
	return []Passage{{Source: "pdf", File: "protocol.md", Page: 3, Text: "The primary endpoint is the change in HbA1c at week 12.", Score: 1}}, nil
}

// TestDocumentSourcesAreReads: a document search is a read like a data read — a tool call
// the policy decides before it runs, recorded; its passages go to the model with their
// citation, or, without a model, are shown as they are.
func TestDocumentSourcesAreReads(t *testing.T) {
	route := rules.Route{Kind: KindLLM, Sources: []string{"pdf", "context"}, Tools: []string{"search_protocol"}}
	for _, c := range []struct {
		name    string
		allowed bool
		model   bool
	}{{"allowed, with a model", true, true}, {"allowed, without a model", true, false}, {"denied", false, true}} {
		t.Run(c.name, func(t *testing.T) {
			docs := &fakeDocs{}
			e := engineFor()
			e.Docs = map[string]DocSource{"pdf": docs}
			m := &contextModel{}
			if c.model {
				e.Model = m
			}
			g := &policyGuard{allowed: map[string]bool{"search_protocol": c.allowed}}
			resp, md := ask(t, e, "What is the primary endpoint?", route, Options{}, g)
			if len(md.ToolCalls) != 1 || md.ToolCalls[0].Name != "search_protocol" || md.ToolCalls[0].Allow != c.allowed {
				t.Fatalf("calls %+v", md.ToolCalls)
			}
			switch {
			case !c.allowed:
				if docs.searched != 0 || len(resp.Passages) != 0 || strings.Contains(m.prompt, "HbA1c") {
					t.Fatalf("a denied search ran: %d, %+v", docs.searched, resp.Passages)
				}
			case c.model:
				if !strings.Contains(m.prompt, "[protocol.md p.3] The primary endpoint") || len(resp.Passages) != 1 {
					t.Fatalf("prompt %q", m.prompt)
				}
			default:
				if !strings.HasPrefix(resp.Answer, AIUnavailable) || !strings.Contains(resp.Answer, "[protocol.md p.3]") {
					t.Fatalf("answer %q", resp.Answer)
				}
			}
		})
	}
}
