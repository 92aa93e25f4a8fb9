package query

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"sync"

	"github.com/weirgw/weir/adapters/docs"
)

// DocSource is a source of documents (protocols, manuals) a question may read: a search
// returns the passages most relevant to a text. A search is a read like any other — a tool
// call named Tool, with arguments {"query": ..., "limit": n}, that the tools policy decides
// before it runs (seed 004's search_protocol). The engine needs only this interface;
// DocIndex implements it with adapters/docs.
type DocSource interface {
	Name() string
	Tool() string
	// Limit is how many passages a search returns when its call asks for no number.
	Limit() int
	Search(ctx context.Context, query string, limit int) ([]Passage, error)
}

// Passage is one retrieved piece of a document, cited in the answer with its file and page.
type Passage struct {
	// Source is the document source that found it.
	Source string `json:"source"`
	docs.Passage
}

// PassageRef is a passage as the metadata lists it: where it is, without its text.
type PassageRef struct {
	File    string  `json:"file"`
	Page    int     `json:"page,omitempty"`
	Section string  `json:"section,omitempty"`
	ChunkID string  `json:"chunk_id"`
	Score   float64 `json:"score"`
	// Cite is how answers cite it: "protocol.pdf p. 7", "sap.md § 3.3 Dropout".
	Cite string `json:"cite"`
}

// ReadSearch is the kind of a document search among Weir's reads.
const ReadSearch = "search"

// docSearch is one search of a document source that Weir makes with the question: the
// read the policy decided, and what it found.
type docSearch struct {
	src DocSource
	rd  *read
	ok  bool
	ps  []Passage
	err error
}

// docSources are the document sources the intent's route names (the query route's
// sources when the intent names none).
func (r *run) docSources() []DocSource {
	names := r.q.Intent.Route.Sources
	if len(names) == 0 {
		names = r.e.Opts.Sources
	}
	var out []DocSource
	for _, name := range names {
		if d := r.e.Docs[name]; d != nil {
			out = append(out, d)
		}
	}
	return out
}

// docTool returns the intent's document source searched under the tool name, or nil.
func (r *run) docTool(name string) DocSource {
	for _, d := range r.docSources() {
		if d.Tool() == name {
			return d
		}
	}
	return nil
}

// withDocs searches the intent's document sources with the question while fn reads the
// data (seed 004: PDF and SQL retrieval in parallel). The searches are decided by the tools
// policy first, all together, and recorded after fn returns, so that only the searching
// itself runs alongside fn. A question searches its documents once: later calls only run fn
// and return the passages already found. fn may be nil.
func (r *run) withDocs(ctx context.Context, fn func() *Error) ([]Passage, *Error) {
	if r.docsSearched {
		return r.resp.Passages, call(fn)
	}
	r.docsSearched = true
	ss, err := r.planSearches(ctx)
	if err != nil {
		return nil, err
	}
	if len(ss) == 0 {
		return nil, call(fn)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		runSearches(ctx, ss, r.q.Text)
	}()
	ferr := call(fn)
	<-done
	return r.recordSearches(ss), ferr
}

func call(fn func() *Error) *Error {
	if fn == nil {
		return nil
	}
	return fn()
}

// searchDocs searches the intent's documents with the question (withDocs without data).
func (r *run) searchDocs(ctx context.Context) ([]Passage, *Error) {
	return r.withDocs(ctx, nil)
}

// planSearches names a search of each document source as a read of the tool with arguments
// {"query", "limit"} and asks the tools policy about them before any runs.
func (r *run) planSearches(ctx context.Context) ([]*docSearch, *Error) {
	srcs := r.docSources()
	if len(srcs) == 0 {
		return nil, nil
	}
	ss := make([]*docSearch, len(srcs))
	reads := make([]*read, len(srcs))
	for i, d := range srcs {
		args, _ := json.Marshal(docs.ToolArguments{Query: r.q.Text, Limit: d.Limit()})
		r.reads++
		reads[i] = &read{kind: ReadSearch, call: callOf(fmt.Sprintf("weir_read_%d", r.reads), d.Tool(), string(args))}
		ss[i] = &docSearch{src: d, rd: reads[i]}
	}
	ok, err := r.authorize(ctx, reads)
	if err != nil {
		return nil, err
	}
	for i := range ss {
		ss[i].ok = ok[i]
	}
	return ss, nil
}

// runSearches runs the allowed searches in parallel. It writes only to the searches, never
// to the run, so that it may go alongside the data reads.
func runSearches(ctx context.Context, ss []*docSearch, text string) {
	var wg sync.WaitGroup
	for _, s := range ss {
		if !s.ok {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.ps, s.err = s.src.Search(ctx, text, s.src.Limit())
		}()
	}
	wg.Wait()
}

// recordSearches records each search — its outcome and passages, or why it did not run —
// in the metadata and the response, and returns the passages found, best first.
func (r *run) recordSearches(ss []*docSearch) []Passage {
	var out []Passage
	for _, s := range ss {
		use := SourceUse{Name: s.src.Name(), Tool: s.src.Tool()}
		switch {
		case !s.ok:
			r.denied = append(r.denied, s.rd)
			r.docsDenied = append(r.docsDenied, s.rd)
			use.Error = "not read: denied by policy"
		case s.err != nil:
			r.ran(s.rd, 0, s.err)
			r.docsFailed = true
			use.Error = s.err.Error()
			r.warn("document source " + s.src.Name() + " failed")
		default:
			r.ran(s.rd, len(s.ps), nil)
			use.Rows, use.Used, use.Passages = len(s.ps), len(s.ps) > 0, refs(s.ps)
			out = append(out, s.ps...)
		}
		r.md.Sources = append(r.md.Sources, use)
		r.steps = append(r.steps, StepRecord{Source: s.src.Name(), Tool: s.src.Tool(), Why: "document search",
			Search: r.q.Text, Limit: s.src.Limit(), Allowed: s.ok, Found: cites(s.ps)})
	}
	if len(ss) > 1 {
		sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	}
	r.resp.Passages = out
	return out
}

func refs(ps []Passage) []PassageRef {
	out := make([]PassageRef, len(ps))
	for i, p := range ps {
		out[i] = PassageRef{File: p.File, Page: p.Page, Section: p.Section, ChunkID: p.ChunkID, Score: p.Score, Cite: docs.Cite(p.Passage)}
	}
	return out
}

func cites(ps []Passage) []string {
	var out []string
	for _, p := range ps {
		out = append(out, docs.Cite(p.Passage))
	}
	return out
}

// plain returns the passages as adapters/docs has them.
func plain(ps []Passage) []docs.Passage {
	out := make([]docs.Passage, len(ps))
	for i, p := range ps {
		out[i] = p.Passage
	}
	return out
}
