package gateway

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWebViewOnAdminListenerOnly: /ui answers on the admin listener with the token, asks
// for it without, and is not served on the public listener.
func TestWebViewOnAdminListenerOnly(t *testing.T) {
	up := startUpstream(t)
	dir := t.TempDir()
	root, _ := filepath.Abs("..")
	cfg := fmt.Sprintf(`listen: 127.0.0.1:0
admin_listen: 127.0.0.1:0
rules: %s/examples/analytics/rules
policies: %s/examples/analytics/policies
upstreams: [{name: llm, base_url: %q}]
routes: [{name: chat, surface: openai, path: /, upstream: llm, auth: none}]
audit: {path: audit.jsonl, ui: {token: "${WEIR_TEST_UI_TOKEN}"}}
`, root, root, up.url)
	os.WriteFile(filepath.Join(dir, "weir.yaml"), []byte(cfg), 0o600)
	t.Setenv("WEIR_TEST_UI_TOKEN", "ui-token-for-the-test")
	g := serve(t, Options{ConfigPath: filepath.Join(dir, "weir.yaml")})
	tests := []struct {
		name, addr, auth string
		status           int
		want             string
	}{
		{"admin with token", g.AdminAddr(), "Bearer ui-token-for-the-test", 200, "Decisions"},
		{"admin without token", g.AdminAddr(), "", 401, "admin token is required"},
		{"admin with a wrong token", g.AdminAddr(), "Bearer nope", 401, ""},
		{"public listener", g.Addr(), "Bearer ui-token-for-the-test", 0, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest("GET", "http://"+tc.addr+"/ui/", nil)
			if tc.auth != "" {
				req.Header.Set("Authorization", tc.auth)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if tc.status == 0 {
				if strings.Contains(string(b), "Weir audit") {
					t.Fatalf("the public listener serves the web view: %d", resp.StatusCode)
				}
				return
			}
			if resp.StatusCode != tc.status || !strings.Contains(string(b), tc.want) {
				t.Fatalf("status %d %q; want %d %q", resp.StatusCode, b, tc.status, tc.want)
			}
		})
	}
}
