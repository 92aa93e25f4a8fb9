package query

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/weirgw/weir/adapters/data"
	"github.com/weirgw/weir/adapters/data/semantic"
	"github.com/weirgw/weir/adapters/docs"
	"github.com/weirgw/weir/adapters/llm"
	"github.com/weirgw/weir/policies/grounding"
)

// toolRowsShown caps the rows one tool result shows the model.
const toolRowsShown = 50

// agent runs the bounded tool loop (seed 003): the model gets one query tool per data
// source the intent reads, and the search tool of each of its document sources, and may
// call them up to max_iterations times. Before the loop Weir searches the documents with
// the question itself (seed 004's retrieval), so that the model starts from the passages.
// Every call is decided by the tools policy and recorded. An invalid query goes back to the
// model as an error to correct; a system error ends the loop and reaches the user as
// DATABASE_ERROR; an empty result is valid data. The final answer is grounded in the
// results and passages the model saw and checked by the response policy.
func (r *run) agent(ctx context.Context) *Error {
	if r.e.Model == nil {
		return r.degrade(ctx, nil)
	}
	tools, byTool := r.agentTools()
	if len(tools) == 0 {
		r.warn("no query tool is allowed for this intent; the model answers without data")
		return r.llm(ctx)
	}
	maxIter := r.q.Intent.Route.MaxIterations
	if maxIter <= 0 {
		maxIter = r.e.Opts.MaxIterations
	}
	passages, perr := r.searchDocs(ctx)
	if perr != nil {
		return perr
	}
	st := &agentState{byTool: byTool}
	st.seen, st.called = r.docGrounding()
	st.msgs = []llm.Message{
		{Role: llm.RoleSystem, Content: r.agentPrompt(tools) + passageBlock(passages)},
		{Role: llm.RoleUser, Content: r.q.Text},
	}
	for iter := 1; iter <= maxIter; iter++ {
		r.md.Iterations = iter
		resp, err := r.e.Model.Generate(ctx, st.msgs, llm.Options{Tools: tools})
		if err != nil {
			r.showLastOf(st)
			return r.modelFailed(ctx, err)
		}
		r.md.TokensUsed += resp.Usage.PromptTokens + resp.Usage.CompletionTokens
		if len(resp.ToolCalls) == 0 {
			return r.agentAnswer(ctx, st, resp.Text)
		}
		if err := r.agentCalls(ctx, st, resp); err != nil {
			r.showLastOf(st)
			return err
		}
	}
	// The model kept asking: show what it found, say so.
	if st.last == nil {
		return &Error{Status: http.StatusBadGateway, Code: CodeAI, Message: fmt.Sprintf("The model did not answer within %d steps.", maxIter),
			Suggestion: "ask a narrower question"}
	}
	r.showLast(st.last)
	r.resp.Answer = describe(r.e.Sources[st.last.Name], st.last)
	r.warn(fmt.Sprintf("the model did not answer within %d steps; showing the last data it retrieved", maxIter))
	return nil
}

// agentState is the conversation of the tool loop and what its answer may rest on.
type agentState struct {
	msgs   []llm.Message
	byTool map[string]*Source
	seen   []grounding.Source // tool results and passages the answer may rest on
	called []string
	last   *SourceResult // the last data retrieved, shown with the answer
}

// agentAnswer checks the model's final answer against what it saw.
func (r *run) agentAnswer(ctx context.Context, st *agentState, text string) *Error {
	if strings.TrimSpace(text) == "" {
		return r.modelFailed(ctx, errors.New("the model returned neither an answer nor a tool call"))
	}
	r.showLastOf(st)
	out, cerr := r.check(ctx, text, st.seen, st.called)
	if cerr != nil {
		return r.modelFailed(ctx, cerr)
	}
	r.resp.Answer = out
	return nil
}

// agentCalls decides the model's proposed calls, runs the allowed ones and adds their
// results to the conversation. A system error ends the loop.
func (r *run) agentCalls(ctx context.Context, st *agentState, resp llm.Response) *Error {
	st.msgs = append(st.msgs, llm.Message{Role: llm.RoleAssistant, Content: resp.Text, ToolCalls: resp.ToolCalls})
	verdicts, err := r.q.Guard.Tools(ctx, resp.ToolCalls)
	if err != nil {
		return &Error{Status: http.StatusInternalServerError, Code: CodePolicy, Message: "the tools decision failed; the question is refused", Err: err}
	}
	for i, call := range resp.ToolCalls {
		rec := CallRecord{ID: call.ID, Name: call.Name, Origin: OriginModel, Allow: verdicts[i].Allow, Reason: verdicts[i].Reason, Arguments: call.Arguments}
		var content string
		var sr *SourceResult
		var serr *Error
		grounds := false
		if d := r.docTool(call.Name); d != nil && verdicts[i].Allow {
			content, grounds, serr = r.runDocCall(ctx, d, call, &rec)
		} else {
			content, sr, serr = r.runCall(ctx, call, verdicts[i], st.byTool, &rec)
			grounds = sr != nil
		}
		r.md.ToolCalls = append(r.md.ToolCalls, rec)
		if serr != nil {
			return serr
		}
		if sr != nil {
			st.last = sr
		}
		if grounds {
			st.seen = append(st.seen, grounding.Source{Kind: grounding.Tool, Name: call.Name, Content: content})
			st.called = append(st.called, call.Name)
		}
		st.msgs = append(st.msgs, llm.Message{Role: llm.RoleTool, ToolCallID: call.ID, Name: call.Name, Content: content})
	}
	return nil
}

func (r *run) showLastOf(st *agentState) {
	if st.last != nil {
		r.showLast(st.last)
	}
}

// runCall executes one proposed call. It returns the tool message for the model, the
// result when the call ran, and an error that ends the loop (a system error).
func (r *run) runCall(ctx context.Context, call llm.ToolCall, v Verdict, byTool map[string]*Source, rec *CallRecord) (string, *SourceResult, *Error) {
	if !v.Allow {
		rec.Outcome = "denied"
		return "error: this call was denied by policy: " + v.Reason, nil, nil
	}
	if call.Name != "" && call.Name == r.e.Opts.SemanticTool {
		return r.runSemanticCall(ctx, call, rec)
	}
	src := byTool[call.Name]
	if src == nil {
		rec.Outcome = "invalid"
		return fmt.Sprintf("error: there is no tool named %q; call one of the tools offered", call.Name), nil, nil
	}
	q, err := data.ParseQuery([]byte(call.Arguments))
	var res *data.Result
	if err == nil {
		res, err = src.Run(ctx, q)
	}
	switch {
	case data.IsInvalidQuery(err):
		rec.Outcome = "invalid"
		return err.Error() + "\nCorrect the query and call the tool again.", nil, nil
	case err != nil:
		rec.Outcome = "error"
		return "", nil, &Error{Status: http.StatusBadGateway, Code: CodeDatabase, Message: "Unable to search the data. Please try again.",
			Suggestion: "retry in a moment; if the problem persists, the data source is unavailable", Err: err}
	}
	rec.Rows = len(res.Rows)
	rec.Outcome = "rows"
	if len(res.Rows) == 0 {
		rec.Outcome = "empty"
	}
	shown := res.Rows
	if len(shown) > toolRowsShown {
		shown = shown[:toolRowsShown]
	}
	body, _ := json.Marshal(map[string]any{"columns": res.Columns, "rows": shown, "total": res.Total, "truncated": res.Truncated || len(shown) < len(res.Rows), "warnings": res.Warnings})
	sr := &SourceResult{Name: src.Name, Query: q, Columns: res.Columns, Rows: res.Rows, Total: res.Total, Quality: 1, Used: true}
	return string(body), sr, nil
}

// showLast puts the last data the model retrieved into the response.
func (r *run) showLast(sr *SourceResult) {
	rows := sr.Rows
	if c := r.rowCap(); c > 0 && len(rows) > c {
		rows = rows[:c]
	}
	cp := *sr
	cp.Rows = rows
	r.setData(&cp)
}

// agentTools returns the tools the model is offered: one query tool per data source of the
// intent, named by the source's tool, the semantic query, and the search tool of each
// document source, minus those the request decision does not allow.
func (r *run) agentTools() ([]llm.Tool, map[string]*Source) {
	var tools []llm.Tool
	by := map[string]*Source{}
	for _, s := range r.sources() {
		if by[s.Tool] != nil || (r.q.Allowed != nil && !slices.Contains(r.q.Allowed, s.Tool)) {
			continue
		}
		by[s.Tool] = s
		tools = append(tools, llm.Tool{Name: s.Tool, Description: s.Dataset.ToolDescription(), Parameters: s.Dataset.JSONSchema()})
	}
	if name := r.e.Opts.SemanticTool; name != "" && len(by) > 0 && (r.q.Allowed == nil || slices.Contains(r.q.Allowed, name)) {
		m := r.parserFor().Model()
		tools = append(tools, llm.Tool{Name: name, Description: m.ToolDescription(), Parameters: m.JSONSchema()})
	}
	for _, d := range r.docSources() {
		if r.q.Allowed == nil || slices.Contains(r.q.Allowed, d.Tool()) {
			tools = append(tools, llm.Tool{Name: d.Tool(), Description: docs.ToolDescription, Parameters: docs.ToolParameters()})
		}
	}
	return tools, by
}

func (r *run) agentPrompt(tools []llm.Tool) string {
	var b strings.Builder
	if p := r.e.prompts[r.q.Class.Intent]; p != "" {
		b.WriteString(p + "\n")
	}
	b.WriteString("You answer questions about data by calling the query tools offered, then answering from their results. ")
	b.WriteString("Each tool takes a structured query (filters, aggregations, orderBy, limit) described by its schema. ")
	b.WriteString("If a call returns an error, correct the query and call again. An empty result is a valid answer. ")
	b.WriteString("Quote numbers exactly as the results give them, or derive them in one visible step; never invent numbers.\n")
	for _, d := range r.docSources() {
		fmt.Fprintf(&b, "For what the study documents say, call %s; cite each passage you use as its citation (e.g. protocol.pdf p. 7).\n", d.Tool())
	}
	if d := r.q.Intent.Description; d != "" {
		fmt.Fprintf(&b, "The question was classified as %s: %s\n", r.q.Class.Intent, d)
	}
	if len(r.q.Class.Filters) > 0 {
		if f, err := json.Marshal(r.q.Class.Filters); err == nil {
			fmt.Fprintf(&b, "Filters recognised in the question: %s\n", f)
		}
	}
	if k := r.resp.Known; k != nil {
		fmt.Fprintf(&b, "A similar question answered before:\nQ: %s\nA: %s\n", k.Question, k.Answer)
	}
	return b.String()
}

// runSemanticCall runs the model's semantic query: checked against the layer (an invalid
// query goes back to the model), then executed as reads that the tools policy decides one
// by one; what the data cannot answer goes back to the model as such.
func (r *run) runSemanticCall(ctx context.Context, call llm.ToolCall, rec *CallRecord) (string, *SourceResult, *Error) {
	m := r.parserFor().Model()
	sq, err := m.ParseQuery([]byte(call.Arguments))
	if err != nil {
		rec.Outcome = "invalid"
		return err.Error() + "\nCorrect the query and call the tool again.", nil, nil
	}
	res, err := semantic.Execute(ctx, m, sq, r.readStep)
	var un *semantic.Unanswerable
	switch {
	case errors.As(err, &un):
		rec.Outcome = "empty"
		return "the data cannot answer this query: " + un.Reason, nil, nil
	case errors.Is(err, semantic.ErrDenied):
		rec.Outcome = "denied"
		return "error: a read this query needs was denied by policy", nil, nil
	case data.IsInvalidQuery(err):
		rec.Outcome = "invalid"
		return err.Error() + "\nCorrect the query and call the tool again.", nil, nil
	case err != nil:
		rec.Outcome = "error"
		return "", nil, &Error{Status: http.StatusBadGateway, Code: CodeDatabase, Message: "Unable to search the data. Please try again.", Err: err}
	}
	cols, rows := resultRows(res)
	rec.Rows, rec.Outcome = len(rows), "rows"
	if len(rows) == 0 {
		rec.Outcome = "empty"
	}
	shown := rows
	if len(shown) > toolRowsShown {
		shown = shown[:toolRowsShown]
	}
	body, _ := json.Marshal(map[string]any{"columns": cols, "rows": shown, "total": max(res.Total, int64(len(rows))), "units": res.Units,
		"difference": res.Difference, "notes": res.Notes, "truncated": len(shown) < len(rows)})
	return string(body), &SourceResult{Name: sq.Source, Columns: cols, Rows: rows, Total: int64(len(rows)), Quality: 1, Used: true}, nil
}
