package gateway

import (
	"context"
	"reflect"
	"sort"
	"strings"
	"time"

	"github.com/weirgw/weir/gateway/auth"
	"github.com/weirgw/weir/gateway/config"
	"github.com/weirgw/weir/gateway/query"
	"github.com/weirgw/weir/policies"
	"github.com/weirgw/weir/rules"
	"github.com/weirgw/weir/rules/fallback"
)

// Snapshot is everything a request needs, compiled once: the config, the rule pack and its
// classifier, the policy bundle, the routes and the upstream clients. It is immutable; a
// request keeps the snapshot it started with while reloads publish new ones.
type Snapshot struct {
	Config     *config.Config
	Pack       *rules.Pack
	Classifier *rules.Classifier
	Bundle     *policies.Bundle
	// Fallback is the LLM tier of Classifier, nil without a fallback section. It is handed
	// from snapshot to snapshot while the section stays the same, so its cache, breaker and
	// counters survive reloads.
	Fallback *fallback.Classifier
	LoadedAt time.Time
	// Warnings are the pack/bundle mismatches policies.CrossCheck found (an intent without
	// a policy entry, a route tool the policy denies) and intent sources the config does not
	// define. They do not stop a reload: a bundle may deny an intent on purpose.
	Warnings []string

	routes    []*route // longest path first
	upstreams map[string]*upstream
	sources   map[string]*query.Source   // the data sources of query routes
	top       *policySet                 // Pack, Classifier and Bundle as a set
	auth      *auth.Authenticator        // the credentials of auth:
	limits    *limiter                   // the rate limits of limits:
	docs      map[string]*query.DocIndex // the document sources of query routes
}

// route is a compiled config route.
type route struct {
	cfg      config.Route
	upstream *upstream
	engine   *query.Engine         // query routes
	sets     map[string]*policySet // by tenant; "" for callers without one (policyset.go)
}

// Overrides replace config values from the command line.
type Overrides struct {
	Listen, AdminListen, AuditPath string
}

// compile builds a snapshot from the config file. prev, when not nil, lends its upstream
// clients to upstreams whose settings did not change, so reloads keep warm connections,
// and its fallback classifier when the fallback section did not change.
func compile(ctx context.Context, path string, ov Overrides, prev *Snapshot) (*Snapshot, error) {
	cfg, err := config.Load(path)
	if err != nil {
		return nil, err
	}
	ov.apply(cfg)
	fb, err := buildFallback(cfg, prev)
	if err != nil {
		return nil, err
	}
	s := &Snapshot{Config: cfg, Fallback: fb, LoadedAt: time.Now(), upstreams: map[string]*upstream{}}
	for _, u := range cfg.Upstreams {
		if prev != nil && prev.upstreams[u.Name] != nil && reflect.DeepEqual(prev.upstreams[u.Name].cfg, u) {
			s.upstreams[u.Name] = prev.upstreams[u.Name]
			continue
		}
		up, err := newUpstream(u)
		if err != nil {
			return nil, err
		}
		s.upstreams[u.Name] = up
	}
	for _, r := range cfg.Routes {
		s.routes = append(s.routes, &route{cfg: r, upstream: s.upstreams[r.Upstream]})
	}
	if err := s.compileSets(ctx, fb); err != nil {
		return nil, err
	}
	if err := s.compileAccess(ctx, prev); err != nil {
		return nil, err
	}
	if err := s.openQuery(ctx, prev); err != nil {
		s.closeAccess(prev)
		return nil, err
	}
	sort.SliceStable(s.routes, func(i, j int) bool { return len(s.routes[i].cfg.Path) > len(s.routes[j].cfg.Path) })
	return s, nil
}

func (ov Overrides) apply(cfg *config.Config) {
	if ov.Listen != "" {
		cfg.Listen = ov.Listen
	}
	if ov.AdminListen != "" {
		cfg.AdminListen = ov.AdminListen
	}
	if ov.AuditPath != "" {
		cfg.Audit.Path = ov.AuditPath
	}
}

// match returns the route serving path and the rest of the path below its prefix.
func (s *Snapshot) match(path string) (*route, string) {
	for _, r := range s.routes {
		p := strings.TrimSuffix(r.cfg.Path, "/")
		if path == p || strings.HasPrefix(path, p+"/") {
			return r, path[len(p):]
		}
	}
	return nil, ""
}

// closeUnused closes the idle connections of old's upstream clients that s no longer uses,
// and, once requests still holding old have had time to finish, its data sources that s no
// longer uses.
func (s *Snapshot) closeUnused(old *Snapshot) {
	if old == nil {
		return
	}
	for name, u := range old.upstreams {
		if s.upstreams[name] != u {
			u.client.CloseIdleConnections()
			u.retire()
		}
	}
	old.closeSources(s, sourceDrain)
	old.auth.Close(s.auth)
	old.limits.close(s.limits)
}

func crossCheck(pack *rules.Pack, bundle *policies.Bundle) []string {
	var names []string
	routeTools := map[string][]string{}
	for _, in := range pack.Intents() {
		names = append(names, in.Name)
		routeTools[in.Name] = in.Route.AllTools()
	}
	var out []string
	for _, err := range policies.CrossCheck(bundle, names, routeTools) {
		out = append(out, err.Error())
	}
	return out
}

// logWarnings reports the snapshot's cross-check warnings.
func (s *Snapshot) logWarnings(log interface{ Warn(string, ...any) }) {
	for _, w := range s.Warnings {
		log.Warn("config, rule pack and policy bundle disagree", "warning", w)
	}
}
