package query

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/weirgw/weir/adapters/data/semantic"
	"github.com/weirgw/weir/adapters/llm"
	"github.com/weirgw/weir/policies/grounding"
)

// Context limits of the llm route (seed 000: at most 20 findings, at most 10,000 tokens).
const (
	DefaultContextRows   = 20
	DefaultContextTokens = 10000
)

func (r *run) contextLimits() (rows, tokens int) {
	rows, tokens = r.q.Intent.Route.MaxContextRows, r.q.Intent.Route.MaxContextTokens
	if rows <= 0 {
		rows = DefaultContextRows
	}
	if tokens <= 0 {
		tokens = DefaultContextTokens
	}
	return rows, tokens
}

// llm answers with the model over the rows the question's filters select (seed 000's
// complex queries) and the passages of the intent's documents, searched alongside. Without
// a model, or when it fails, the rows and the quoted passages are the answer.
func (r *run) llm(ctx context.Context) *Error {
	if r.e.Model == nil {
		return r.degrade(ctx, nil)
	}
	rows, tokens := r.contextLimits()
	var results []SourceResult
	passages, err := r.withDocs(ctx, func() *Error {
		sr, err := r.modelRows(ctx, rows)
		if sr != nil {
			results = []SourceResult{*sr}
			r.setData(sr)
		}
		return err
	})
	if err != nil {
		return err
	}
	if len(r.docsDenied) > 0 && len(passages) == 0 && len(results) == 0 {
		// Without the documents it was to read, the model would answer from memory.
		r.resp.Answer = r.notRead(r.denied)
		return nil
	}
	block, n := contextBlock(results, rows, tokens)
	block = passageBlock(passages) + block
	r.md.FindingsAnalyzed = n
	text, gerr := r.analyse(ctx, block)
	if gerr != nil {
		return r.modelFailed(ctx, gerr)
	}
	r.resp.Answer = text
	return nil
}

// modelRows reads the rows an llm route gives its model, when it reads data. Only a policy
// failure is an error: without rows the model can still answer (advice), and is told so.
func (r *run) modelRows(ctx context.Context, rows int) (*SourceResult, *Error) {
	if !r.readsData() || len(r.sources()) == 0 {
		return nil, nil
	}
	sr, err := r.contextRows(ctx, rows)
	switch {
	case err != nil && err.Code == CodePolicy:
		return nil, err
	case err != nil:
		r.warn("no data could be read for this answer: " + err.Message)
		return nil, nil
	}
	return sr, nil
}

// hybrid answers with the data and, as a separate section, the model's analysis of it
// (seed 000's hybrid queries).
func (r *run) hybrid(ctx context.Context) *Error {
	if err := r.data(ctx); err != nil {
		return err
	}
	if r.primary == "" && len(r.resp.Passages) == 0 {
		return nil // the policy refused the reads: there is nothing to analyse
	}
	if r.e.Model == nil {
		r.warn(AIUnavailable)
		return nil
	}
	rows, tokens := r.contextLimits()
	var results []SourceResult
	if r.primary != "" {
		results = []SourceResult{{Name: r.primary, Used: true, Columns: r.resp.Columns, Rows: r.resp.Rows, Total: int64(max(r.md.FindingsAnalyzed, len(r.resp.Rows)))}}
	}
	block, _ := contextBlock(results, rows, tokens)
	block = passageBlock(r.resp.Passages) + block
	text, gerr := r.analyse(ctx, block+"\nThe user has been shown these results: "+r.resp.Answer+"\n")
	if gerr != nil {
		var e *Error
		if errors.As(gerr, &e) && e.Code == CodeAnswerRejected {
			return e
		}
		r.warn(AIUnavailable)
		return nil
	}
	r.resp.Analysis = text
	return nil
}

// modelFailed degrades a failed model call to the data, or passes a refused answer on.
func (r *run) modelFailed(ctx context.Context, err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	if isRateLimit(err) && r.resp.Rows == nil {
		return &Error{Status: http.StatusTooManyRequests, Code: CodeRateLimit, Message: "The model's rate limit was reached.", Suggestion: "retry later, or ask a simpler question that the data answers directly", Err: err}
	}
	return r.degrade(ctx, err)
}

// analyse asks the model to answer from block and checks its answer.
func (r *run) analyse(ctx context.Context, block string) (string, error) {
	msgs := []llm.Message{
		{Role: llm.RoleSystem, Content: r.systemPrompt(block)},
		{Role: llm.RoleUser, Content: r.q.Text},
	}
	resp, err := r.e.Model.Generate(ctx, msgs, llm.Options{})
	if err != nil {
		return "", err
	}
	r.md.TokensUsed += resp.Usage.PromptTokens + resp.Usage.CompletionTokens
	if strings.TrimSpace(resp.Text) == "" {
		return "", errors.New("the model returned an empty answer")
	}
	src := r.dataSource(block)
	var called []string // Weir's own query counts as the call of the source's tool
	if r.primary != "" {
		called = []string{src.Name}
	}
	// A document search counts as the call of its tool, its passages as the result.
	docSrcs, docCalled := r.docGrounding()
	return r.check(ctx, resp.Text, append([]grounding.Source{src}, docSrcs...), append(called, docCalled...))
}

// check passes a model-written answer through grounding and the response decision.
// The question is a user source; a known answer shown to the model is a tool result of
// KnownAnswersTool.
func (r *run) check(ctx context.Context, text string, sources []grounding.Source, called []string) (string, error) {
	sources = append(sources, grounding.Source{Kind: grounding.User, Content: r.q.Text})
	if r.resp.Known != nil {
		sources = append(sources, grounding.Source{Kind: grounding.Tool, Name: KnownAnswersTool, Content: r.resp.Known.Answer})
		called = append(called, KnownAnswersTool)
	}
	out, err := r.q.Guard.Answer(ctx, text, sources, called)
	if err != nil {
		return "", &Error{Status: http.StatusUnprocessableEntity, Code: CodeAnswerRejected, Message: err.Error(),
			Suggestion: "the data below is what the answer should rest on", Fallback: r.resp, Err: err}
	}
	return out, nil
}

// KnownAnswersTool is the name known answers have in grounding and policies (seed 004's
// context cache): a known answer shown to the model counts as a call of this tool.
const KnownAnswersTool = "lookup_known_answers"

// dataSource is a context block as a grounding source: a tool result of the primary
// source's query tool, since that is what the data is.
func (r *run) dataSource(block string) grounding.Source {
	name := "query_data"
	if s := r.e.Sources[r.primary]; s != nil {
		name = s.Tool
	}
	return grounding.Source{Kind: grounding.Tool, Name: name, Content: block}
}

// systemPrompt tells the model what it answers from, and how.
func (r *run) systemPrompt(block string) string {
	var b strings.Builder
	if p := r.e.prompts[r.q.Class.Intent]; p != "" {
		b.WriteString(p + "\n") // the intent's own instructions (pack data)
	} else {
		b.WriteString("You are a data analysis assistant behind a policy gateway. Answer the user's question using only the data given below. ")
		if d := r.q.Intent.Description; d != "" {
			fmt.Fprintf(&b, "The question was classified as %s: %s\n", r.q.Class.Intent, d)
		}
	}
	b.WriteString("Quote every number exactly as it appears in the data, or derive it in one visible step (a sum, difference, ratio or percent change of numbers in the data). ")
	b.WriteString("Do not invent numbers, estimates or targets. If the data does not answer the question, say so.\n")
	if sq := r.sq; sq != nil && len(sq.Uncovered) > 0 {
		fmt.Fprintf(&b, "The data cannot answer part of the question: %s. Say so; do not answer that part with numbers.\n", semantic.JoinAnd(sq.Uncovered, "; "))
	}
	if k := r.resp.Known; k != nil {
		fmt.Fprintf(&b, "A similar question answered before (use it as a template for the form of the answer, not for its numbers unless they are in the data):\nQ: %s\nA: %s\n", k.Question, k.Answer)
	}
	if block == "" {
		b.WriteString("No data was found for this question.\n")
	} else {
		b.WriteString(block)
	}
	return b.String()
}
