package query

import (
	"context"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/weirgw/weir/adapters/data/semantic"
	"github.com/weirgw/weir/adapters/llm"
	"github.com/weirgw/weir/gateway/config"
	"github.com/weirgw/weir/gateway/query/nl"
	"github.com/weirgw/weir/policies/grounding"
	"github.com/weirgw/weir/rules"
)

// Engine answers the questions of one query route. It is built with the gateway's
// snapshot and immutable; every method is safe for concurrent use.
type Engine struct {
	// Sources are the open data sources by name; Order is their order in the config.
	Sources map[string]*Source
	Order   []string
	// Model answers llm, data+llm and agent routes; nil means no model is configured and
	// those routes degrade to data results.
	Model llm.Model
	// Known are the route's known question/answer pairs, nil without any.
	Known *Known
	// Docs are the document sources by name (DocSource); an intent reads those its route
	// names, each search a read the policy decides.
	Docs map[string]DocSource
	// Opts are the route's settings.
	Opts config.QueryOptions
	// Now is the clock relative periods are resolved against; default time.Now.
	Now func() time.Time

	model  *semantic.Model
	parser *nl.Parser
	// subsets caches the parsers of intents that read only some sources, by source names.
	subsets *sync.Map
	// prompts are the per-intent system prompts (Opts.Prompts).
	prompts map[string]string
}

// Guard is what the gateway decides about a question's model output: the tools policy for
// each call the agent loop proposes and grounding plus the response policy for each answer
// a model writes. Its methods apply the route's mode and on_violation and record the
// violations in the decision.
type Guard interface {
	// Tools returns, for each proposed call, whether it may run and why not.
	Tools(ctx context.Context, calls []llm.ToolCall) ([]Verdict, error)
	// Answer checks a model-written answer against sources (the data it was given) and
	// the calls made; it returns the text to show (rewritten if the route rewrites) or an
	// error that refuses it.
	Answer(ctx context.Context, text string, sources []grounding.Source, called []string) (string, error)
}

// Verdict is the tools decision for one call.
type Verdict struct {
	Allow  bool
	Reason string
}

// Question is a classified and admitted question.
type Question struct {
	Text    string
	Class   rules.Classification
	Intent  rules.Intent
	Options Options
	// Allowed are the tools the request decision allows (nil: every tool).
	Allowed []string
	Guard   Guard
}

// AIUnavailable is seed 000's message when model analysis fails or no model is configured.
const AIUnavailable = "AI analysis unavailable. Showing database results only."

// NoModel is the answer to a question only a model can answer when none is available.
const NoModel = "AI analysis unavailable, and this question is not answered from the data. Please try again later."

// typeOf names a route kind as seed 000's query types.
func typeOf(kind string) string {
	switch kind {
	case KindData:
		return ModeSimple
	case KindLLM:
		return ModeComplex
	case KindDataLLM:
		return ModeHybrid
	}
	return kind
}

// run is the state of one question.
type run struct {
	e    *Engine
	q    *Question
	resp *Response
	md   *Metadata
	now  time.Time
	// primary is the source whose rows the response shows.
	primary string
	// reads counts Weir's own reads, for their call ids.
	reads int
	// denied are the reads the tools policy refused.
	denied []*read
	// sq is the question's semantic query; steps the reads it made.
	sq    *semantic.Query
	steps []StepRecord
	// docsSearched is set once the documents were searched (a question searches them
	// once); docsDenied are the searches the policy refused, docsFailed whether one failed.
	docsSearched bool
	docsDenied   []*read
	docsFailed   bool
}

// Answer answers q. It returns the metadata in every case, the failures included; the
// decision id and the execution time are the caller's to fill in.
func (e *Engine) Answer(ctx context.Context, q *Question) (*Response, *Metadata, *Error) {
	if e.Opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Duration(e.Opts.Timeout))
		defer cancel()
	}
	md := &Metadata{
		Intent: q.Class.Intent, RequestedMode: q.Options.Mode, Confidence: q.Class.Confidence,
		Classification: string(q.Class.Source), ExtractedFilters: q.Class.Filters, Warnings: []string{},
	}
	if md.ExtractedFilters == nil {
		md.ExtractedFilters = map[string]any{}
	}
	now := time.Now
	if e.Now != nil {
		now = e.Now
	}
	r := &run{e: e, q: q, md: md, now: now()}
	kind, err := r.routeKind()
	if err != nil {
		md.QueryType, md.Route = typeOf(intentKind(q)), ""
		return nil, md, err
	}
	md.QueryType, md.Route = typeOf(kind), kind
	r.resp = &Response{Type: md.QueryType}
	if done, err := r.known(ctx); done || err != nil {
		return r.finish(err)
	}
	switch kind {
	case KindData:
		err = r.data(ctx)
	case KindLLM:
		err = r.llm(ctx)
	case KindDataLLM:
		err = r.hybrid(ctx)
	case KindAgent:
		err = r.agent(ctx)
	}
	return r.finish(err)
}

func (r *run) finish(err *Error) (*Response, *Metadata, *Error) {
	if r.q.Options.Explain {
		r.md.Steps = r.steps
	}
	if err != nil {
		return nil, r.md, err
	}
	return r.resp, r.md, nil
}

// rowCap is the most rows an answer shows: the route's cap, the intent's and the client's.
func (r *run) rowCap() int {
	n := r.e.Opts.MaxResults
	for _, m := range []int{r.q.Intent.Route.MaxResults, r.q.Options.MaxResults} {
		if m > 0 && (n == 0 || m < n) {
			n = m
		}
	}
	return n
}

// sources returns the sources the intent reads: those its route names that are
// configured (none, when it names only others: a document store, the known answers), else
// the query route's default list, else every source.
func (r *run) sources() []*Source {
	var out []*Source
	for _, name := range r.q.Intent.Route.Sources {
		if s := r.e.Sources[name]; s != nil {
			out = append(out, s)
		}
	}
	if len(r.q.Intent.Route.Sources) > 0 {
		return out
	}
	names := r.e.Opts.Sources
	if len(names) == 0 {
		names = r.e.Order
	}
	for _, name := range names {
		if s := r.e.Sources[name]; s != nil {
			out = append(out, s)
		}
	}
	return out
}

func (r *run) warn(msg string) {
	if !slices.Contains(r.md.Warnings, msg) {
		r.md.Warnings = append(r.md.Warnings, msg)
	}
}

// setData puts rows into the response, with pagination when they are a page of a larger
// result (seed 000: above 50).
func (r *run) setData(sr *SourceResult) {
	r.primary = sr.Name
	r.resp.Columns, r.resp.Rows = sr.Columns, sr.Rows
	r.md.DataQuery = sr.Query
	r.md.FindingsAnalyzed = int(max(sr.Total, int64(len(sr.Rows))))
	if sr.Query != nil && len(sr.Query.Aggregations) == 0 && (sr.Total > int64(len(sr.Rows)) || sr.Total > 50) {
		r.md.Pagination = &Pagination{TotalCount: sr.Total, Page: 1, PageSize: len(sr.Rows), Paginated: sr.Total > int64(len(sr.Rows))}
	}
}

// data answers without a model: from the data (seed 000's simple queries, seed 002's
// direct metrics) and, when the intent reads documents, with their best passages quoted
// (seed 004's pdf and both routes), searched alongside the data reads.
func (r *run) data(ctx context.Context) *Error {
	return r.alongDocs(ctx, func() *Error { return r.dataOnly(ctx) })
}

// dataOnly answers from the data sources alone; an intent that reads only documents has
// no data part.
func (r *run) dataOnly(ctx context.Context) *Error {
	if len(r.sources()) == 0 {
		if len(r.docSources()) == 0 {
			r.cannotAnswer([]string{"no data source serves intent " + r.q.Class.Intent})
		}
		return nil
	}
	return r.answerSemantic(ctx)
}

// degrade answers from the data when the model cannot: seed 000's fallback.
// A question that reads no data (its route's sources are none of ours, or it has no
// sources, tools or filters: a greeting) has no database results to show, and says so.
func (r *run) degrade(ctx context.Context, cause error) *Error {
	if r.routeCaps(r.md.Route)&capData == 0 {
		r.warn(NoModel)
		r.resp.Answer = NoModel
		return nil
	}
	r.warn(AIUnavailable)
	return r.alongDocs(ctx, func() *Error { return r.degradeData(ctx, cause) })
}

// degradeData is the data part of an answer the model could not write: the answer from the
// data, or why the data does not answer with the rows an analysis would have read (none
// when the intent also reads documents, whose passages are then the material).
func (r *run) degradeData(ctx context.Context, cause error) *Error {
	if len(r.sources()) == 0 && len(r.docSources()) > 0 {
		return nil // the documents answer
	}
	if sq := r.understand(); len(sq.Uncovered) > 0 && len(r.sources()) > 0 {
		if len(r.docSources()) > 0 {
			// The documents' passages are the material; rows the question does not
			// select would only bury them.
			r.cannotAnswer(sq.Uncovered)
			return nil
		}
		return r.showContext(ctx, sq.Uncovered)
	}
	if err := r.dataOnly(ctx); err != nil {
		if cause != nil && r.e.Model != nil {
			return &Error{Status: http.StatusBadGateway, Code: CodeAI, Message: "The model and the data are both unavailable.", Suggestion: "retry in a moment", Err: cause}
		}
		return err
	}
	if len(r.resp.Rows) > 0 || r.primary != "" {
		r.resp.Answer = AIUnavailable + " " + r.resp.Answer
	}
	return nil
}

// isRateLimit reports whether a model error is a provider's rate limit (HTTP 429).
func isRateLimit(err error) bool {
	return err != nil && (containsFold(err.Error(), "429") || containsFold(err.Error(), "rate limit"))
}
