package query

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/weirgw/weir/adapters/data"
	"github.com/weirgw/weir/adapters/docs"
	"github.com/weirgw/weir/adapters/llm"
	"github.com/weirgw/weir/rules"
)

// fakeDocs is a document source that returns fixed passages and counts its searches;
// before answering, a search waits for wait (when set) to be closed.
type fakeDocs struct {
	searched atomic.Int32
	wait     chan struct{}
	// overlapped is set when wait was closed while the search waited: it ran alongside.
	overlapped atomic.Bool
}

func (f *fakeDocs) Name() string { return "pdf" }
func (f *fakeDocs) Tool() string { return "search_protocol" }
func (f *fakeDocs) Limit() int   { return 4 }
func (f *fakeDocs) Search(ctx context.Context, _ string, limit int) ([]Passage, error) {
	f.searched.Add(1)
	if f.wait != nil {
		select {
		case <-f.wait:
			f.overlapped.Store(true)
		case <-time.After(10 * time.Second): // fail rather than hang when run in sequence
		}
	}
	return []Passage{
		{Source: "pdf", Passage: docs.Passage{File: "docs/protocol.pdf", Page: 7, Text: "Assuming a dropout rate of 15%, 12 participants are randomised per arm.", Score: 9}},
		{Source: "pdf", Passage: docs.Passage{File: "docs/sap.md", Section: "3 Definitions > 3.3 Dropout", Text: "The observed dropout rate is compared with the 15% assumed.", Score: 8}},
	}[:min(limit, 2)], nil
}

var pdfRoute = rules.Route{Kind: KindLLM, Sources: []string{"pdf", "context"}, Tools: []string{"search_protocol"}}

// TestDocumentSourcesAreReads: a document search is a read like a data read — a tool call
// {"query", "limit"} the policy decides before it runs, recorded with the passages as its
// rows; its passages go to the model with their citations, or, without a model, are quoted
// as the answer; a denied search does not run and the answer says so.
func TestDocumentSourcesAreReads(t *testing.T) {
	for _, c := range []struct {
		name    string
		allowed bool
		model   bool
		want    []string // in the prompt (model) or the answer
	}{
		{"allowed, with a model", true, true, []string{"[1] protocol.pdf p. 7\nAssuming a dropout rate of 15%", "[2] sap.md § 3.3 Dropout"}},
		{"allowed, without a model", true, false, []string{DocsHeading + "\nFrom protocol.pdf p. 7: \"Assuming a dropout rate of 15%", "From sap.md § 3.3 Dropout: \""}},
		{"denied", false, true, []string{"the policy does not allow search_protocol for intent x"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := &fakeDocs{}
			e := engineFor()
			e.Docs = map[string]DocSource{"pdf": d}
			m := &contextModel{}
			if c.model {
				e.Model = m
			}
			g := &policyGuard{allowed: map[string]bool{"search_protocol": c.allowed}}
			resp, md := ask(t, e, "What dropout rate was assumed?", pdfRoute, Options{}, g)
			if len(g.asked) != 1 || g.asked[0].Arguments != `{"query":"What dropout rate was assumed?","limit":4}` {
				t.Fatalf("asked %+v", g.asked)
			}
			call := md.ToolCalls[0]
			if len(md.ToolCalls) != 1 || call.Name != "search_protocol" || call.Origin != OriginWeir || call.Allow != c.allowed {
				t.Fatalf("calls %+v", md.ToolCalls)
			}
			got := resp.Answer
			if c.model && c.allowed {
				got = m.prompt
			}
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("%q not in %q", w, got)
				}
			}
			src := md.Sources[0]
			if !c.allowed {
				if d.searched.Load() != 0 || len(resp.Passages) != 0 || call.Outcome != "denied" || src.Error == "" || strings.Contains(m.prompt, "15%") {
					t.Fatalf("a denied search ran: %+v %+v", call, src)
				}
				return
			}
			if call.Rows != 2 || call.Outcome != "rows" || src.Rows != 2 || !src.Used || len(src.Passages) != 2 || src.Passages[0].Cite != "protocol.pdf p. 7" || len(resp.Passages) != 2 {
				t.Fatalf("call %+v source %+v", call, src)
			}
		})
	}
}

// TestBothRouteSearchesAlongsideTheData: on a route with documents and data sources, the
// search runs while the data is read (seed 004's hybrid retrieval): the fake search waits
// for the data read to happen, which in sequence it never would. The answer is the data's,
// then the passages quoted.
func TestBothRouteSearchesAlongsideTheData(t *testing.T) {
	adsl := openExampleSource(t, "clinical", "adsl", "adsl.schema.yaml", "adsl.csv", "query_adsl")
	ran := make(chan struct{})
	adsl.Backend = &signalBackend{Backend: adsl.Backend, ran: ran}
	d := &fakeDocs{wait: ran}
	e := engineFor(adsl)
	e.Docs = map[string]DocSource{"pdf": d}
	route := rules.Route{Kind: KindData, Sources: []string{"pdf", "adsl"}, Tools: []string{"search_protocol", "query_adsl"}}
	g := &policyGuard{allowed: map[string]bool{"search_protocol": true, "query_adsl": true}}
	resp, md := ask(t, e, "how many patients are in the placebo arm?", route, Options{Explain: true}, g)
	if !d.overlapped.Load() {
		t.Fatal("the document search did not run alongside the data read")
	}
	data, quoted, ok := strings.Cut(resp.Answer, "\n\n"+DocsHeading+"\n")
	if !ok || !strings.Contains(data, "12") || !strings.HasPrefix(quoted, "From protocol.pdf p. 7:") {
		t.Fatalf("answer %q", resp.Answer)
	}
	if len(md.ToolCalls) != 2 || md.ToolCalls[0].Name != "search_protocol" || md.ToolCalls[1].Name != "query_adsl" {
		t.Fatalf("calls %+v", md.ToolCalls)
	}
	last := md.Steps[len(md.Steps)-1]
	if last.Search == "" || last.Tool != "search_protocol" || strings.Join(last.Found, ", ") != "protocol.pdf p. 7, sap.md § 3.3 Dropout" {
		t.Fatalf("explain steps %+v", md.Steps)
	}
}

// signalBackend closes ran after its first read.
type signalBackend struct {
	data.Backend
	ran  chan struct{}
	once atomic.Bool
}

func (b *signalBackend) Run(ctx context.Context, p *data.Plan) (*data.Result, error) {
	res, err := b.Backend.Run(ctx, p)
	if b.once.CompareAndSwap(false, true) {
		close(b.ran)
	}
	return res, err
}

// docsModel scripts the agent loop: it searches the documents, then answers.
type docsModel struct {
	args   string
	prompt string
	turn   int
}

func (m *docsModel) Name() string { return "docs" }
func (m *docsModel) Generate(_ context.Context, msgs []llm.Message, _ llm.Options) (llm.Response, error) {
	m.turn++
	if m.turn == 1 {
		m.prompt = msgs[0].Content
		return llm.Response{ToolCalls: []llm.ToolCall{{ID: "c1", Name: "search_protocol", Arguments: m.args}}}, nil
	}
	return llm.Response{Text: "The protocol assumes 15% (protocol.pdf p. 7)."}, nil
}

// TestAgentSearchesDocuments: on an agent route with documents, Weir searches them with
// the question before the loop (the passages are in the model's prompt), the model gets the
// search tool, and its calls are decided, run, recorded with origin model, and sent back
// when their arguments are invalid.
func TestAgentSearchesDocuments(t *testing.T) {
	for _, c := range []struct{ name, args, outcome string }{
		{"valid", `{"query":"dropout rate","limit":1}`, "rows"},
		{"invalid", `{"question":"dropout"}`, "invalid"},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := &fakeDocs{}
			e := engineFor()
			e.Docs = map[string]DocSource{"pdf": d}
			m := &docsModel{args: c.args}
			e.Model = m
			route := rules.Route{Kind: KindAgent, Sources: []string{"pdf"}, Tools: []string{"search_protocol"}, MaxIterations: 3}
			g := &policyGuard{allowed: map[string]bool{"search_protocol": true}}
			resp, md := ask(t, e, "What dropout rate was assumed?", route, Options{}, g)
			if !strings.Contains(m.prompt, "[1] protocol.pdf p. 7") || !strings.Contains(m.prompt, "call search_protocol") {
				t.Fatalf("prompt %q", m.prompt)
			}
			if len(md.ToolCalls) != 2 || md.ToolCalls[0].Origin != OriginWeir || md.ToolCalls[1].Origin != OriginModel || md.ToolCalls[1].Outcome != c.outcome {
				t.Fatalf("calls %+v", md.ToolCalls)
			}
			if c.outcome == "rows" && (md.ToolCalls[1].Rows != 1 || len(resp.Passages) != 3 || md.Sources[0].Rows != 3) {
				t.Fatalf("the model's search is not recorded: %+v %+v", md.ToolCalls[1], md.Sources)
			}
			if resp.Answer != "The protocol assumes 15% (protocol.pdf p. 7)." {
				t.Fatalf("answer %q", resp.Answer)
			}
		})
	}
}

// TestNoPassage: a search that finds nothing answers that the documents do not say,
// without a model; a route whose documents were searched once does not search again when
// the model fails and the answer degrades.
func TestNoPassage(t *testing.T) {
	e := engineFor()
	e.Docs = map[string]DocSource{"pdf": emptyDocs{}}
	resp, md := ask(t, e, "What is the colour of the sky?", pdfRoute, Options{}, &policyGuard{allowed: map[string]bool{"search_protocol": true}})
	if resp.Answer != NoPassage || md.ToolCalls[0].Outcome != "empty" || md.Sources[0].Used {
		t.Fatalf("%q %+v", resp.Answer, md.ToolCalls)
	}
	d := &fakeDocs{}
	e.Docs = map[string]DocSource{"pdf": d}
	e.Model = failingModel{}
	resp, md = ask(t, e, "What dropout rate was assumed?", pdfRoute, Options{}, &policyGuard{allowed: map[string]bool{"search_protocol": true}})
	if d.searched.Load() != 1 || len(md.ToolCalls) != 1 || !strings.HasPrefix(resp.Answer, DocsHeading) {
		t.Fatalf("%d searches, %q", d.searched.Load(), resp.Answer)
	}
}

type emptyDocs struct{}

func (emptyDocs) Name() string { return "pdf" }
func (emptyDocs) Tool() string { return "search_protocol" }
func (emptyDocs) Limit() int   { return 5 }
func (emptyDocs) Search(context.Context, string, int) ([]Passage, error) {
	return nil, nil
}

type failingModel struct{}

func (failingModel) Name() string { return "failing" }
func (failingModel) Generate(context.Context, []llm.Message, llm.Options) (llm.Response, error) {
	return llm.Response{}, context.DeadlineExceeded
}

// TestUncoveredWithDocuments: without a model, a question the data does not cover on a
// route that also reads documents reads no context rows — the passages are the material —
// and says the data does not answer it before quoting them.
func TestUncoveredWithDocuments(t *testing.T) {
	adsl := openExampleSource(t, "clinical", "adsl", "adsl.schema.yaml", "adsl.csv", "query_adsl")
	e := engineFor(adsl)
	e.Docs = map[string]DocSource{"pdf": &fakeDocs{}}
	route := rules.Route{Kind: KindAgent, Sources: []string{"pdf", "adsl"}, Tools: []string{"search_protocol", "query_adsl"}}
	g := &policyGuard{allowed: map[string]bool{"search_protocol": true, "query_adsl": true}}
	resp, md := ask(t, e, "what dropout rate did the protocol assume?", route, Options{}, g)
	if len(resp.Rows) != 0 || len(md.ToolCalls) != 1 || !strings.HasPrefix(resp.Answer, CannotAnswer) || !strings.Contains(resp.Answer, "\n\n"+DocsHeading+"\nFrom protocol.pdf p. 7") {
		t.Fatalf("%d rows, calls %+v, answer %q", len(resp.Rows), md.ToolCalls, resp.Answer)
	}
}

// TestHybridWithDocuments: options.mode hybrid on a documents route answers with the
// quoted passages and, as a separate section, the model's analysis of them.
func TestHybridWithDocuments(t *testing.T) {
	e := engineFor()
	e.Docs = map[string]DocSource{"pdf": &fakeDocs{}}
	m := &contextModel{}
	e.Model = m
	resp, _ := ask(t, e, "What dropout rate was assumed?", pdfRoute, Options{Mode: ModeHybrid}, &policyGuard{allowed: map[string]bool{"search_protocol": true}})
	if !strings.HasPrefix(resp.Answer, DocsHeading) || resp.Analysis != "Analysis." || !strings.Contains(m.prompt, "[1] protocol.pdf p. 7") {
		t.Fatalf("answer %q analysis %q prompt %q", resp.Answer, resp.Analysis, m.prompt)
	}
}
