package query

import (
	"context"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/weirgw/weir/adapters/llm"
	"github.com/weirgw/weir/gateway/config"
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
	// Opts are the route's settings.
	Opts config.QueryOptions
	// Now is the clock relative periods are resolved against; default time.Now.
	Now func() time.Time
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

// qualityMin is seed 004's threshold: a source's result is used above it.
const qualityMin = 0.3

// fetch runs the question's filters as a query on every source of the intent in
// parallel, scores each result and keeps the best: rows from a source that could apply
// every filter score 1, 0.2 less for each filter it left out (down to 0.4); an empty result scores
// 0.3 (valid, but it says little); a failure 0. The primary result is the best above the
// threshold, else the best empty one. A failure of every source is a DATABASE_ERROR.
//
// Every read is a tool call the tools policy decides before it runs; a denied read is
// not run. When the policy denies every read, fetch returns no best result and r.denied
// says which.
func (r *run) fetch(ctx context.Context, limit int) ([]SourceResult, *SourceResult, *Error) {
	srcs := r.sources()
	if len(srcs) == 0 {
		return nil, nil, &Error{Status: http.StatusInternalServerError, Code: CodeDatabase, Message: "no data source serves this question", Suggestion: "configure data: and the route's sources"}
	}
	builts := make([]built, len(srcs))
	reads := make([]*read, len(srcs))
	for i, s := range srcs {
		builts[i] = buildQuery(s, r.q.Class.Filters, limit, r.now)
		reads[i] = r.newRead(s, readKind(builts[i].query), builts[i].query)
	}
	allowed, aerr := r.authorize(ctx, reads)
	if aerr != nil {
		return nil, nil, aerr
	}
	results := make([]SourceResult, len(srcs))
	warnings := make([][]string, len(srcs))
	var wg sync.WaitGroup
	for i, s := range srcs {
		results[i] = SourceResult{Name: s.Name, Query: builts[i].query}
		if !allowed[i] {
			results[i].Error = "not read: denied by policy"
			r.denied = append(r.denied, reads[i])
			continue
		}
		wg.Go(func() {
			b := builts[i]
			res, err := s.runPlanned(ctx, b)
			sr := &results[i]
			warnings[i] = b.warnings
			switch {
			case err != nil:
				sr.Error = err.Error()
			case len(res.Rows) == 0:
				sr.Quality, sr.Columns, sr.Rows, sr.Total = qualityMin, res.Columns, res.Rows, res.Total
			default:
				sr.Quality = max(0.4, 1-0.2*float64(b.dropped+b.unused))
				sr.Columns, sr.Rows, sr.Total = res.Columns, res.Rows, res.Total
				warnings[i] = append(warnings[i], res.Warnings...)
			}
		})
	}
	wg.Wait()
	for i := range results {
		if allowed[i] {
			r.ran(reads[i], len(results[i].Rows), errorOrNil(results[i].Error))
		}
	}
	best, firstErr := pickBest(results, allowed)
	if best == nil && len(r.denied) == len(srcs) {
		r.recordSources(results, reads)
		return results, nil, nil
	}
	if best == nil {
		r.recordSources(results, reads)
		return results, nil, &Error{Status: http.StatusBadGateway, Code: CodeDatabase, Message: "Unable to search the data. Please try again.",
			Suggestion: "retry in a moment; if the problem persists, the data source is unavailable", Err: errorString(firstErr)}
	}
	for i := range results {
		sr := &results[i]
		sr.Used = sr == best || (sr.Error == "" && sr.Quality > qualityMin)
		if sr.Used {
			for _, w := range warnings[i] {
				r.warn(w)
			}
		}
		if sr.Error != "" && allowed[i] {
			r.warn("data source " + sr.Name + " failed; answered from the others")
		}
	}
	r.recordSources(results, reads)
	return results, best, nil
}

// pickBest returns the best result of the reads that ran, and the first failure.
func pickBest(results []SourceResult, allowed []bool) (*SourceResult, string) {
	var best *SourceResult
	var firstErr string
	for i := range results {
		sr := &results[i]
		if !allowed[i] {
			continue
		}
		if sr.Error != "" {
			if firstErr == "" {
				firstErr = sr.Name + ": " + sr.Error
			}
			continue
		}
		if best == nil || sr.Quality > best.Quality {
			best = sr
		}
	}
	return best, firstErr
}

// recordSources puts what each source contributed into the metadata.
func (r *run) recordSources(results []SourceResult, reads []*read) {
	for i, sr := range results {
		r.md.Sources = append(r.md.Sources, SourceUse{Name: sr.Name, Tool: reads[i].call.Name, Rows: len(sr.Rows), Used: sr.Used, Error: sr.Error})
	}
}

func errorOrNil(msg string) error {
	if msg == "" {
		return nil
	}
	return errorString(msg)
}

type errorString string

func (e errorString) Error() string { return string(e) }

// setData puts the primary result into the response, with pagination when the rows are a
// page of a larger result (seed 000: above 50).
func (r *run) setData(results []SourceResult, best *SourceResult) {
	r.primary = best.Name
	r.resp.Columns, r.resp.Rows = best.Columns, best.Rows
	r.md.DataQuery = best.Query
	r.md.FindingsAnalyzed = int(max(best.Total, int64(len(best.Rows))))
	if len(results) > 1 {
		r.resp.Sources = results
	}
	if best.Query != nil && len(best.Query.Aggregations) == 0 && (best.Total > int64(len(best.Rows)) || best.Total > 50) {
		r.md.Pagination = &Pagination{TotalCount: best.Total, Page: 1, PageSize: len(best.Rows), Paginated: best.Total > int64(len(best.Rows))}
	}
}

// data answers from the data alone: the extracted filters become a query (seed 000's
// simple queries, seed 002's direct metrics).
func (r *run) data(ctx context.Context) *Error {
	results, best, err := r.fetch(ctx, r.rowCap())
	if err != nil {
		return err
	}
	if best == nil {
		r.resp.Answer = r.notRead(r.denied)
		return nil
	}
	r.setData(results, best)
	r.resp.Answer = describe(r.e.Sources[best.Name], best)
	return nil
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
	if err := r.data(ctx); err != nil {
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
