package query

import (
	"context"
	"strings"

	"github.com/weirgw/weir/adapters/docs"
	"github.com/weirgw/weir/policies/grounding"
)

// QuotedPassages is how many passages an answer without a model quotes at most.
const QuotedPassages = 3

// DocsHeading starts the part of an answer quoted from the documents.
const DocsHeading = "From the study documents:"

// NoPassage is the answer of a document search that found nothing.
const NoPassage = "cannot answer from the documents: no passage matches the question."

// DocsFailed is the documents' part of an answer when their search failed.
const DocsFailed = "cannot answer from the documents: the document search failed; retry in a moment."

// alongDocs answers with fn (the data part, nil for none) and, after it, the best passages
// of the intent's documents quoted with their citations, the searches running alongside
// fn. It is the answer without a model: the documents' own words, so every number in that
// part is as the documents write it.
func (r *run) alongDocs(ctx context.Context, fn func() *Error) *Error {
	ps, err := r.withDocs(ctx, fn)
	if err != nil {
		return err
	}
	if len(r.docSources()) > 0 {
		r.resp.Answer = joinParts(r.resp.Answer, r.quoteDocs(ps))
	}
	return nil
}

// quoteDocs is the documents' part of an answer without a model: the passages quoted
// (docs.Quote), or why there are none.
func (r *run) quoteDocs(ps []Passage) string {
	switch {
	case len(ps) > 0:
		return DocsHeading + "\n" + docs.Quote(plain(ps), QuotedPassages)
	case len(r.docsDenied) > 0:
		return r.notRead(r.docsDenied)
	case r.docsFailed:
		return DocsFailed
	}
	r.warn(NoPassage)
	return NoPassage
}

func joinParts(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "\n\n" + b
}

// passageBlock writes passages for a model as the search tool returns them (docs.ToolResult):
// numbered, each with the citation the answer should use.
func passageBlock(ps []Passage) string {
	if len(ps) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("Passages from the study documents; cite the ones you use as written after their number (e.g. protocol.pdf p. 7):\n")
	b.WriteString(docs.ToolResult(plain(ps)))
	b.WriteString("\n\n")
	return b.String()
}

// docGrounding is what the model's answer may rest on from the documents Weir searched:
// the passages as a result of each document tool that found some, and those tools as
// called.
func (r *run) docGrounding() ([]grounding.Source, []string) {
	var srcs []grounding.Source
	var called []string
	for _, c := range r.md.ToolCalls {
		if c.Origin != OriginWeir || !c.Allow || c.Outcome != "rows" || r.docTool(c.Name) == nil || containsStr(called, c.Name) {
			continue
		}
		called = append(called, c.Name)
		srcs = append(srcs, grounding.Source{Kind: grounding.Tool, Name: c.Name, Content: passageBlock(r.passagesOf(c.Name))})
	}
	return srcs, called
}

// passagesOf are the passages found by the document source searched under tool.
func (r *run) passagesOf(tool string) []Passage {
	d := r.docTool(tool)
	var out []Passage
	for _, p := range r.resp.Passages {
		if d != nil && p.Source == d.Name() {
			out = append(out, p)
		}
	}
	return out
}
