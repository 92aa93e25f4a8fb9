package query

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/weirgw/weir/adapters/data"
	"github.com/weirgw/weir/adapters/data/semantic"
	"github.com/weirgw/weir/gateway/query/nl"
)

// openSemantic compiles a source's semantic declarations (the `semantic:` section of its
// schema) and reads what they index from the data: once, when the source opens.
func openSemantic(ctx context.Context, s *Source) error {
	decl, err := semantic.LoadDecl(s.cfg.Schema)
	if err != nil {
		return err
	}
	sem, err := semantic.NewSource(s.Name, s.Dataset, decl)
	if err != nil {
		return err
	}
	run := func(ctx context.Context, _ string, q *data.Query) (*data.Result, error) { return s.Run(ctx, q) }
	if err := sem.Load(ctx, run); err != nil {
		// A data service that does not answer at start leaves the layer without the values
		// it reads from the data: questions naming them are not understood (and refused),
		// never answered wrong. The gateway shows the warning.
		s.warning = fmt.Sprintf("data source %s: %v; questions that name its values are not understood until it answers and the config reloads", s.Name, err)
	}
	s.sem = sem
	return nil
}

// Warnings are the problems the sources met when they opened that do not stop them.
func Warnings(sources map[string]*Source) []string {
	var out []string
	for _, s := range sources {
		if s.warning != "" {
			out = append(out, s.warning)
		}
	}
	sort.Strings(out)
	return out
}

// Compile builds the engine's semantic model and question parser from its sources. The
// gateway calls it once per snapshot, after setting Sources and Order.
func (e *Engine) Compile() error {
	var srcs []*semantic.Source
	for _, name := range e.Order {
		if s := e.Sources[name]; s != nil && s.sem != nil {
			srcs = append(srcs, s.sem)
		}
	}
	e.model = semantic.NewModel(srcs)
	e.parser = nl.New(e.model)
	e.subsets = &sync.Map{}
	return e.loadPrompts()
}

// loadPrompts reads the per-intent prompts (Opts.Prompts/<intent>.md).
func (e *Engine) loadPrompts() error {
	e.prompts = map[string]string{}
	if e.Opts.Prompts == "" {
		return nil
	}
	files, err := filepath.Glob(filepath.Join(e.Opts.Prompts, "*.md"))
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return fmt.Errorf("prompts: no <intent>.md file in %s", e.Opts.Prompts)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return fmt.Errorf("prompts: %w", err)
		}
		e.prompts[strings.TrimSuffix(filepath.Base(f), ".md")] = strings.TrimSpace(string(b))
	}
	return nil
}

// parserFor returns the parser over the sources the question may read.
func (r *run) parserFor() *nl.Parser {
	if r.e.parser == nil {
		_ = r.e.Compile() // an engine built by hand (tests)
	}
	var names []string
	for _, s := range r.sources() {
		names = append(names, s.Name)
	}
	if len(names) == len(r.e.model.Sources) {
		return r.e.parser
	}
	key := strings.Join(names, ",")
	if p, ok := r.e.subsets.Load(key); ok {
		return p.(*nl.Parser)
	}
	p, _ := r.e.subsets.LoadOrStore(key, nl.New(r.e.model.Subset(names)))
	return p.(*nl.Parser)
}

// understand reads the question into a semantic query.
func (r *run) understand() *semantic.Query {
	if r.sq == nil {
		r.sq = r.parserFor().Parse(r.q.Text, r.now)
		r.md.SemanticQuery = r.sq
	}
	return r.sq
}

// answerSemantic answers from the data through the semantic layer: the question's
// semantic query runs as steps, each a read the tools policy decides before it runs. A
// question the query cannot fully express, or a read the policy refuses, gets no number.
func (r *run) answerSemantic(ctx context.Context) *Error {
	sq := r.understand()
	if sq.Rows && sq.Order == nil {
		sq.Limit = r.rowCap()
		if p := r.q.Options.Page; p > 1 && sq.Limit > 0 {
			sq.Offset = (p - 1) * sq.Limit
		}
	}
	if len(sq.Uncovered) > 0 {
		r.cannotAnswer(sq.Uncovered)
		return nil
	}
	res, err := semantic.Execute(ctx, r.parserFor().Model(), sq, r.readStep)
	var un *semantic.Unanswerable
	switch {
	case errors.As(err, &un):
		r.cannotAnswer([]string{un.Reason})
		return nil
	case errors.Is(err, semantic.ErrDenied):
		r.resp.Answer = r.notRead(r.denied)
		return nil
	case err != nil:
		var qe *Error
		if errors.As(err, &qe) {
			return qe
		}
		return &Error{Status: 502, Code: CodeDatabase, Message: "Unable to search the data. Please try again.",
			Suggestion: "retry in a moment; if the problem persists, the data source is unavailable", Err: err}
	}
	r.present(sq, res)
	return nil
}

// CannotAnswer starts the answer to a question the data cannot answer as asked.
const CannotAnswer = "cannot answer from the data: "

func (r *run) cannotAnswer(why []string) {
	msg := CannotAnswer + semantic.JoinAnd(why, "; ") + "."
	r.resp.Answer = msg
	for _, w := range why {
		r.warn("not covered: " + w)
	}
	r.resp.Result = &Result{Shape: "none"}
}

// readStep runs one step of a semantic query as a tool call: decided by the tools policy
// first, recorded, then run on its source.
func (r *run) readStep(ctx context.Context, st semantic.Step) (*data.Result, error) {
	src := r.e.Sources[st.Source]
	if src == nil {
		return nil, fmt.Errorf("data source %s is not configured", st.Source)
	}
	rd := r.newRead(src, st.Kind, st.Query)
	ok, aerr := r.authorize(ctx, []*read{rd})
	if aerr != nil {
		return nil, aerr
	}
	r.steps = append(r.steps, StepRecord{Source: st.Source, Tool: rd.call.Name, Why: st.Why, Query: st.Query, Allowed: ok[0]})
	if !ok[0] {
		r.denied = append(r.denied, rd)
		r.md.Sources = append(r.md.Sources, SourceUse{Name: src.Name, Tool: rd.call.Name, Error: "not read: denied by policy"})
		return nil, semantic.ErrDenied
	}
	if r.q.Options.Explain {
		r.steps[len(r.steps)-1].SQL, r.steps[len(r.steps)-1].Args = src.explain(st.Query)
	}
	res, err := src.Run(ctx, st.Query)
	n := 0
	if res != nil {
		n = len(res.Rows)
	}
	r.ran(rd, n, err)
	r.useSource(src, rd.call.Name, n, err)
	return res, err
}

// useSource records a source's contribution (rows summed over its steps).
func (r *run) useSource(src *Source, tool string, rows int, err error) {
	for i := range r.md.Sources {
		if u := &r.md.Sources[i]; u.Name == src.Name && u.Error == "" {
			u.Rows += rows
			return
		}
	}
	u := SourceUse{Name: src.Name, Tool: tool, Rows: rows, Used: err == nil}
	if err != nil {
		u.Error = err.Error()
	}
	r.md.Sources = append(r.md.Sources, u)
}

// contextRows reads the rows a model is given for an llm answer (seed 000: the findings
// relevant to the question, at most limit): the rows the question's conditions select,
// whatever it asks of them. Each read passes the tools policy.
func (r *run) contextRows(ctx context.Context, limit int) (*SourceResult, *Error) {
	sq := r.understand()
	src := sq.Source
	if src == "" {
		src = r.sources()[0].Name
	}
	lq := &semantic.Query{Source: src, Rows: true, Filters: sq.Filters, Time: sq.Time, Exists: sq.Exists, Limit: limit}
	res, err := semantic.Execute(ctx, r.parserFor().Model(), lq, r.readStep)
	switch {
	case errors.Is(err, semantic.ErrDenied):
		r.notRead(r.denied)
		return nil, nil
	case err != nil:
		var qe *Error
		if errors.As(err, &qe) {
			return nil, qe
		}
		return nil, &Error{Status: 502, Code: CodeDatabase, Message: "Unable to search the data. Please try again.", Err: err}
	}
	var q *data.Query
	for _, s := range r.steps {
		if s.Allowed && s.Source == src {
			q = s.Query
		}
	}
	return &SourceResult{Name: src, Used: true, Query: q, Columns: res.Columns, Rows: res.Rows, Total: res.Total, Quality: 1}, nil
}

// showContext is the answer without a model to a question the data does not answer by
// itself (an analysis, advice): seed 000's database results, and why they are not an answer.
func (r *run) showContext(ctx context.Context, uncovered []string) *Error {
	rows, _ := r.contextLimits()
	sr, err := r.contextRows(ctx, rows)
	if err != nil {
		return err
	}
	r.resp.Answer = AIUnavailable + " " + CannotAnswer + semantic.JoinAnd(uncovered, "; ") + "."
	for _, u := range uncovered {
		r.warn("not covered: " + u)
	}
	if sr != nil {
		r.setData(sr)
		r.resp.Answer += fmt.Sprintf(" The %d rows below are what the analysis would have read.", len(sr.Rows))
	}
	return nil
}
