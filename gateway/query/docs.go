package query

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// DocSource is a source of documents (protocols, manuals) a question may read: a search
// returns the passages most relevant to a text. A search is a read like any other — a tool
// call named Tool, with arguments {"query": ..., "limit": n}, that the tools policy decides
// before it runs (seed 004's search_protocol). The engine needs only this interface; the
// document index lives in adapters (chunking, FTS5 or PostgreSQL full-text search).
type DocSource interface {
	Name() string
	Tool() string
	Search(ctx context.Context, query string, limit int) ([]Passage, error)
}

// Passage is one retrieved piece of a document, cited in the answer with its file and page.
type Passage struct {
	Source string  `json:"source"`
	File   string  `json:"file"`
	Page   int     `json:"page,omitempty"`
	Text   string  `json:"text"`
	Score  float64 `json:"score"`
}

// DefaultPassages is how many passages a search returns for a model's context.
const DefaultPassages = 5

// docSources are the document sources the intent's route names.
func (r *run) docSources() []DocSource {
	var out []DocSource
	for _, name := range r.q.Intent.Route.Sources {
		if d := r.e.Docs[name]; d != nil {
			out = append(out, d)
		}
	}
	return out
}

// searchDocs searches the intent's document sources, each search a read the policy decides
// first. It returns the passages found, in source order, and records them in the response.
func (r *run) searchDocs(ctx context.Context) ([]Passage, *Error) {
	var out []Passage
	for _, d := range r.docSources() {
		args, _ := json.Marshal(map[string]any{"query": r.q.Text, "limit": DefaultPassages})
		r.reads++
		rd := &read{kind: "search", call: callOf(fmt.Sprintf("weir_read_%d", r.reads), d.Tool(), string(args))}
		ok, err := r.authorize(ctx, []*read{rd})
		if err != nil {
			return nil, err
		}
		if !ok[0] {
			r.denied = append(r.denied, rd)
			r.md.Sources = append(r.md.Sources, SourceUse{Name: d.Name(), Tool: d.Tool(), Error: "not read: denied by policy"})
			continue
		}
		ps, serr := d.Search(ctx, r.q.Text, DefaultPassages)
		r.ran(rd, len(ps), serr)
		u := SourceUse{Name: d.Name(), Tool: d.Tool(), Rows: len(ps), Used: serr == nil && len(ps) > 0}
		if serr != nil {
			u.Error = serr.Error()
			r.warn("document source " + d.Name() + " failed")
		}
		r.md.Sources = append(r.md.Sources, u)
		out = append(out, ps...)
	}
	r.resp.Passages = out
	return out, nil
}

// passageBlock writes passages for a model, each with its citation.
func passageBlock(ps []Passage) string {
	if len(ps) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("Passages from the documents (cite them as [file p.page]):\n")
	for _, p := range ps {
		fmt.Fprintf(&b, "[%s p.%d] %s\n", p.File, p.Page, p.Text)
	}
	return b.String()
}

// showPassages answers without a model from the documents alone: the passages found, cited,
// are the answer's material; no sentence is made up from them.
func (r *run) showPassages(ctx context.Context) *Error {
	ps, err := r.searchDocs(ctx)
	if err != nil {
		return err
	}
	if len(ps) == 0 {
		r.resp.Answer = AIUnavailable + " No passage of the documents matches the question."
		if len(r.denied) > 0 {
			r.resp.Answer = r.notRead(r.denied)
		}
		return nil
	}
	var b strings.Builder
	b.WriteString(AIUnavailable + " The passages below are what the answer would rest on:")
	for _, p := range ps {
		fmt.Fprintf(&b, "\n[%s p.%d] %s", p.File, p.Page, p.Text)
	}
	r.resp.Answer = b.String()
	return nil
}
