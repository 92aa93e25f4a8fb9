package query

import (
	"context"
	"net/http"

	"github.com/weirgw/weir/adapters/docs"
	"github.com/weirgw/weir/adapters/llm"
)

// runDocCall runs the model's search of a document source (allowed by the policy): invalid
// arguments go back to the model to correct; the passages found are the tool result, with
// their citations, and join the response's passages. A failed search is a system error.
func (r *run) runDocCall(ctx context.Context, d DocSource, call llm.ToolCall, rec *CallRecord) (string, bool, *Error) {
	a, err := docs.ParseArguments([]byte(call.Arguments))
	if err != nil {
		rec.Outcome = "invalid"
		return "error: " + err.Error() + "\nCorrect the arguments and call the tool again.", false, nil
	}
	limit := a.Limit
	if limit == 0 {
		limit = d.Limit()
	}
	ps, err := d.Search(ctx, a.Query, limit)
	if err != nil {
		rec.Outcome = "error"
		return "", false, &Error{Status: http.StatusBadGateway, Code: CodeDatabase, Message: "Unable to search the documents. Please try again.",
			Suggestion: "retry in a moment; if the problem persists, the document source is unavailable", Err: err}
	}
	rec.Rows, rec.Outcome = len(ps), "rows"
	if len(ps) == 0 {
		rec.Outcome = "empty"
	}
	r.resp.Passages = append(r.resp.Passages, ps...)
	r.useDocs(d, ps)
	return docs.ToolResult(plain(ps)), len(ps) > 0, nil
}

// useDocs adds a model's search to what the document source gave the answer.
func (r *run) useDocs(d DocSource, ps []Passage) {
	for i := range r.md.Sources {
		if u := &r.md.Sources[i]; u.Name == d.Name() && u.Error == "" {
			u.Rows += len(ps)
			u.Used = u.Used || len(ps) > 0
			u.Passages = append(u.Passages, refs(ps)...)
			return
		}
	}
	r.md.Sources = append(r.md.Sources, SourceUse{Name: d.Name(), Tool: d.Tool(), Rows: len(ps), Used: len(ps) > 0, Passages: refs(ps)})
}
