package gateway

import (
	"context"
	"fmt"
	"time"

	"github.com/weirgw/weir/adapters/llm"
	"github.com/weirgw/weir/gateway/config"
	"github.com/weirgw/weir/gateway/query"
)

// sourceDrain is how long a replaced data source stays open after a reload, so that the
// requests still answering from the old snapshot finish: the longest query timeout.
var sourceDrain = 2 * time.Minute

// openQuery opens the data sources (reusing prev's unchanged ones) and builds the engine of
// every query route. It runs last in compile, so that a failure closes only what it opened.
func (s *Snapshot) openQuery(ctx context.Context, prev *Snapshot) error {
	if len(s.Config.Data) == 0 {
		return nil
	}
	var prevSources map[string]*query.Source
	if prev != nil {
		prevSources = prev.sources
	}
	sources, err := query.OpenSources(ctx, s.Config.Data, prevSources)
	if err != nil {
		return err
	}
	s.sources = sources
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
	return nil
}

func (s *Snapshot) buildEngine(rc config.Route) (*query.Engine, error) {
	e := &query.Engine{Sources: s.sources, Opts: rc.QueryOptions}
	for _, d := range s.Config.Data {
		e.Order = append(e.Order, d.Name)
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

// checkSources warns about intents whose route names sources that are not configured (a
// protocol document store, say): those intents answer from the route's default sources.
func (s *Snapshot) checkSources() []string {
	known := false // "context" names the known answers (seed 004's context cache)
	for _, r := range s.Config.Routes {
		known = known || r.QueryOptions.KnownAnswers != ""
	}
	var out []string
	for _, in := range s.Pack.Intents() {
		for _, name := range in.Route.Sources {
			if s.sources[name] == nil && !(known && name == "context") {
				out = append(out, fmt.Sprintf("intent %s: route source %q is not a data source of this config; the intent reads only the sources that are", in.Name, name))
			}
		}
	}
	return out
}

// closeSources closes the sources of s that next does not use, after delay (0: now).
func (s *Snapshot) closeSources(next *Snapshot, delay time.Duration) {
	for name, src := range s.sources {
		if next != nil && next.sources[name] == src {
			continue
		}
		if delay == 0 {
			_ = src.Close()
			continue
		}
		time.AfterFunc(delay, func() { _ = src.Close() })
	}
}
