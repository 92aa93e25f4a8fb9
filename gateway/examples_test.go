package gateway

import (
	"path/filepath"
	"testing"
)

// TestExampleConfigs compiles every examples/*/weir.yaml into a snapshot: an example
// config that does not load fails the build.
func TestExampleConfigs(t *testing.T) {
	paths, _ := filepath.Glob("../examples/*/weir*.yaml")
	if len(paths) < 6 {
		t.Fatalf("found %d example configs, want one per example", len(paths))
	}
	for _, p := range paths {
		t.Run(filepath.Base(filepath.Dir(p))+"/"+filepath.Base(p), func(t *testing.T) {
			t.Setenv("WEIR_LLM_URL", "")
			t.Setenv("WEIR_LLM_API_KEY", "") // a machine with no variables: the local model needs no key
			t.Setenv("WEIR_FALLBACK_MODEL", "")
			s, err := compile(ctx, p, Overrides{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.closeSources(nil, 0) }) // the query routes' databases
			if u := s.Config.Upstreams[0]; u.BaseURL != "http://127.0.0.1:8081/v1" || u.APIKey != "" {
				t.Errorf("upstream defaults = %q %q", u.BaseURL, u.APIKey)
			}
			if f := s.Config.Fallback; f != nil && (f.LLM.BaseURL != "http://127.0.0.1:8081/v1" || s.Fallback == nil) {
				t.Errorf("fallback defaults = %+v, built %v", f.LLM, s.Fallback != nil)
			}
		})
	}
}

// TestExampleAuthConfig serves examples/analytics/weir-auth.yaml: its demo keys are
// accepted on the query route, a request without one is refused, and the record names the
// key, its roles and its tenant (whose own bundle decided).
func TestExampleAuthConfig(t *testing.T) {
	t.Setenv("WEIR_LLM_URL", "")
	t.Setenv("WEIR_LLM_API_KEY", "")
	audit := filepath.Join(t.TempDir(), "audit.jsonl")
	g := serve(t, Options{ConfigPath: "../examples/analytics/weir-auth.yaml", Logger: discardLogger(),
		Overrides: Overrides{Listen: "127.0.0.1:0", AdminListen: "127.0.0.1:0", AuditPath: audit}})
	e := &testEnv{g: g}
	ask := []byte(`{"query": "Qual è il fatturato totale?"}`)
	if status, body, _ := postWith(t, e, "/v1/query", ask, nil); status != 401 {
		t.Errorf("without a key: %d %s", status, body)
	}
	if status, body, _ := postWith(t, e, "/v1/query", ask, [][2]string{{"Authorization", "Bearer weir_example_analyst"}}); status != 200 {
		t.Fatalf("the analyst's demo key: %d %s", status, body)
	}
	rec := e.lastRecord(t)
	if rec.Subject.ID != "svc-analyst" || rec.Subject.Tenant != "acme" || rec.PolicyRevision == g.Snapshot().Bundle.Revision() {
		t.Errorf("record subject %+v policy %s", rec.Subject, rec.PolicyRevision)
	}
}
