package gateway

import (
	"context"
	"fmt"
	"time"

	"github.com/weirgw/weir/adapters/llm"
	"github.com/weirgw/weir/gateway/config"
	"github.com/weirgw/weir/gateway/query"
)

// sourceDrain is how long a replaced data or document source stays open after a reload, so
// that the requests still answering from the old snapshot finish: the longest query timeout.
var sourceDrain = 2 * time.Minute

// openQuery opens the data and document sources (reusing prev's unchanged ones: open
// connections, embedded data, document indexes) and builds the engine of every query route.
// It runs last in compile, so that a failure closes only what it opened.
func (s *Snapshot) openQuery(ctx context.Context, prev *Snapshot) error {
	if len(s.Config.Data) == 0 && len(s.Config.Documents) == 0 {
		return nil
	}
	var prevSources map[string]*query.Source
	var prevDocs map[string]*query.DocIndex
	if prev != nil {
		prevSources, prevDocs = prev.sources, prev.docs
	}
	sources, err := query.OpenSources(ctx, s.Config.Data, prevSources)
	if err != nil {
		return err
	}
	s.sources = sources
	if s.docs, err = query.OpenDocs(ctx, s.Config.Documents, prevDocs); err != nil {
		s.closeSources(prev, 0)
		return err
	}
	for _, r := range s.routes {
		if r.cfg.Surface != config.SurfaceQuery {
			continue
		}
		if r.engine, err = s.buildEngine(r.cfg); err != nil {
			s.closeSources(prev, 0)
			return fmt.Errorf("route %s: %w", r.cfg.Name, err)
		}
	}
	s.Warnings = append(s.Warnings, s.checkSources()...)
	s.Warnings = append(s.Warnings, query.Warnings(s.sources)...)
	s.Warnings = append(s.Warnings, query.DocWarnings(s.docs)...)
	return nil
}

func (s *Snapshot) buildEngine(rc config.Route) (*query.Engine, error) {
	e := &query.Engine{Sources: s.sources, Opts: rc.QueryOptions, Docs: map[string]query.DocSource{}}
	for _, d := range s.Config.Data {
		e.Order = append(e.Order, d.Name)
	}
	for name, d := range s.docs {
		e.Docs[name] = d
	}
	if err := e.Compile(); err != nil {
		return nil, err
	}
	if m := rc.QueryOptions.Model; m != nil {
		model, err := llm.New(*m)
		if err != nil {
			return nil, err
		}
		e.Model = model
	}
	if p := rc.QueryOptions.KnownAnswers; p != "" {
		k, err := query.LoadKnown(p)
		if err != nil {
			return nil, fmt.Errorf("known_answers: %w", err)
		}
		e.Known = k
	}
	return e, nil
}

// checkSources warns about intents whose route names sources that are neither data nor
// document sources of the config: those intents read only the sources that are.
func (s *Snapshot) checkSources() []string {
	known := false // "context" names the known answers (seed 004's context cache)
	for _, r := range s.Config.Routes {
		known = known || r.QueryOptions.KnownAnswers != ""
	}
	var out []string
	for _, in := range s.Pack.Intents() {
		for _, name := range in.Route.Sources {
			if s.sources[name] == nil && s.docs[name] == nil && !(known && name == "context") {
				out = append(out, fmt.Sprintf("intent %s: route source %q is not a data or document source of this config; the intent reads only the sources that are", in.Name, name))
			}
		}
	}
	return out
}

// closeSources closes the data sources and document indexes of s that next does not use,
// after delay (0: now).
func (s *Snapshot) closeSources(next *Snapshot, delay time.Duration) {
	var closers []func() error
	for name, src := range s.sources {
		if next == nil || next.sources[name] != src {
			closers = append(closers, src.Close)
		}
	}
	var nextDocs map[string]*query.DocIndex
	if next != nil {
		nextDocs = next.docs
	}
	for _, d := range query.RetiredDocs(s.docs, nextDocs) {
		closers = append(closers, d.Close)
	}
	for _, c := range closers {
		if delay == 0 {
			_ = c()
			continue
		}
		time.AfterFunc(delay, func() { _ = c() })
	}
}
