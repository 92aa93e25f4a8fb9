package gateway

import (
	"path/filepath"
	"testing"
)

// TestExampleConfigs compiles every examples/*/weir.yaml into a snapshot: an example
// config that does not load fails the build.
func TestExampleConfigs(t *testing.T) {
	paths, _ := filepath.Glob("../examples/*/weir.yaml")
	if len(paths) < 5 {
		t.Fatalf("found %d example configs, want one per example", len(paths))
	}
	for _, p := range paths {
		t.Run(filepath.Base(filepath.Dir(p)), func(t *testing.T) {
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
