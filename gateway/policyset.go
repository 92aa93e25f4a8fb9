package gateway

import (
	"context"
	"fmt"
	"os"
	"sort"

	"github.com/weirgw/weir/policies"
	"github.com/weirgw/weir/rules"
	"github.com/weirgw/weir/rules/fallback"
)

// policySet is a rule pack and a policy bundle that serve a request together: the
// top-level pair, a route's own, or a tenant's own (config.PolicyDirs). Classify, admit and
// the checks read the set the identify stage chose for the caller, never another.
type policySet struct {
	Pack       *rules.Pack
	Classifier *rules.Classifier
	Bundle     *policies.Bundle
}

// setKey names a set by its directories.
type setKey struct{ rules, policies string }

// setLoader compiles each pack and bundle directory once per snapshot, however many routes
// and tenants share it.
type setLoader struct {
	fb      *fallback.Classifier
	packs   map[string]*rules.Pack
	bundles map[string]*policies.Bundle
	sets    map[setKey]*policySet
}

func newSetLoader(fb *fallback.Classifier) *setLoader {
	return &setLoader{fb: fb, packs: map[string]*rules.Pack{}, bundles: map[string]*policies.Bundle{}, sets: map[setKey]*policySet{}}
}

// set returns the compiled set of the two directories.
func (l *setLoader) set(ctx context.Context, k setKey) (*policySet, error) {
	if s := l.sets[k]; s != nil {
		return s, nil
	}
	pack := l.packs[k.rules]
	if pack == nil {
		var err error
		if pack, err = rules.LoadDir(k.rules); err != nil {
			return nil, fmt.Errorf("rule pack %s:\n%w", k.rules, err)
		}
		l.packs[k.rules] = pack
	}
	bundle := l.bundles[k.policies]
	if bundle == nil {
		var err error
		if bundle, err = policies.Load(ctx, k.policies); err != nil {
			return nil, fmt.Errorf("policy bundle %s:\n%w", k.policies, err)
		}
		l.bundles[k.policies] = bundle
	}
	s := &policySet{Pack: pack, Classifier: newClassifier(pack, l.fb), Bundle: bundle}
	l.sets[k] = s
	return s, nil
}

// compileSets gives every route its set per tenant (the route's own without a tenant, or
// for a tenant that selects nothing). The top-level set is compiled first, as s's Pack,
// Classifier and Bundle.
func (s *Snapshot) compileSets(ctx context.Context, fb *fallback.Classifier) error {
	l := newSetLoader(fb)
	top, err := l.set(ctx, setKey{s.Config.Rules, s.Config.Policies})
	if err != nil {
		return err
	}
	s.Pack, s.Classifier, s.Bundle, s.top = top.Pack, top.Classifier, top.Bundle, top
	s.Warnings = crossCheck(top.Pack, top.Bundle)
	tenants := []string{""}
	for t := range s.Config.Tenants {
		tenants = append(tenants, t)
	}
	sort.Strings(tenants)
	for _, r := range s.routes {
		r.sets = map[string]*policySet{}
		for _, t := range tenants {
			rd, pd := s.Config.PolicyDirs(&r.cfg, t)
			set, err := l.set(ctx, setKey{rd, pd})
			if err != nil {
				return err
			}
			if set != top && (t == "" || set != r.sets[""]) {
				for _, w := range crossCheck(set.Pack, set.Bundle) {
					s.Warnings = append(s.Warnings, fmt.Sprintf("route %s, tenant %q: %s", r.cfg.Name, t, w))
				}
			}
			r.sets[t] = set
		}
	}
	return nil
}

// setFor returns the set that serves a caller of tenant on r.
func (r *route) setFor(tenant string) *policySet {
	if s, ok := r.sets[tenant]; ok {
		return s
	}
	return r.sets[""]
}

// watchRoots are the directories of every pack and bundle a route or tenant uses, which
// hot reload watches (with the config's directory and the JWKS file).
func (s *Snapshot) watchRoots() []string {
	c := s.Config
	roots := []string{c.Rules, c.Policies}
	for _, r := range c.Routes {
		roots = append(roots, r.Rules, r.Policies)
	}
	for _, t := range c.Tenants {
		roots = append(roots, t.Rules, t.Policies)
	}
	out := roots[:0]
	seen := map[string]bool{}
	for _, r := range roots {
		if r == "" || seen[r] {
			continue
		}
		if _, err := os.Stat(r); err == nil {
			seen[r] = true
			out = append(out, r)
		}
	}
	return out
}
