package config

import (
	"strings"
	"testing"
	"time"
)

const authBase = "rules: r\npolicies: p\nupstreams:\n  - {name: llm, base_url: 'http://x/v1'}\n"

// digest is a well-formed SHA-256 in hex.
const digest = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"

func TestAuthSections(t *testing.T) {
	src := authBase + `routes:
  - {name: chat, upstream: llm}
  - {name: open, upstream: llm, path: /open, auth: optional, rules: r2, policies: p2}
auth:
  api_keys:
    - {id: svc, sha256: "` + strings.ToUpper(digest) + `", roles: [analyst], tenant: acme, limits: {requests_per_minute: 5}}
  jwt: {jwks_file: jwks.json, issuer: https://idp/, audience: weir, tenant_claim: org}
  trusted_headers: {sources: [10.0.0.0/8, 127.0.0.1]}
tenants:
  acme: {rules: acme/rules, limits: {tokens_per_minute: 1000}}
limits:
  per_subject: {requests_per_minute: 60}
  redis: redis://127.0.0.1:6379/0
`
	cfg, err := parse("weir.yaml", "/etc/weir/weir.yaml", []byte(src), env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Routes[0].Auth != AuthRequired || cfg.Routes[1].Auth != AuthOptional {
		t.Errorf("route auth = %q %q", cfg.Routes[0].Auth, cfg.Routes[1].Auth)
	}
	k := cfg.Auth.APIKeys[0]
	if k.SHA256 != digest || k.Tenant != "acme" || k.Limits.RequestsPerMinute != 5 {
		t.Errorf("api key = %+v", k)
	}
	j := cfg.Auth.JWT
	if j.JWKSFile != "/etc/weir/jwks.json" || j.SubjectClaim != "sub" || j.RolesClaim != "roles" || j.Skew.Std() != 30*time.Second || j.Refresh.Std() != 5*time.Minute || j.CacheSize != DefaultJWTCacheSize {
		t.Errorf("jwt = %+v", j)
	}
	h := cfg.Auth.TrustedHeaders
	if h.Subject != "X-Forwarded-User" || h.Roles != "X-Forwarded-Groups" || h.Tenant != "" {
		t.Errorf("trusted headers = %+v", h)
	}
	if cfg.Limits.OnStoreError != OnStoreDeny || cfg.Limits.StoreTimeout.Std() != DefaultStoreTimeout || cfg.Limits.RedisPrefix != "weir:limits:" {
		t.Errorf("limits = %+v", cfg.Limits)
	}
	for _, tc := range []struct {
		route, tenant, rules, policies string
	}{
		{"chat", "", "/etc/weir/r", "/etc/weir/p"},
		{"chat", "acme", "/etc/weir/acme/rules", "/etc/weir/p"},
		{"open", "", "/etc/weir/r2", "/etc/weir/p2"},
		{"open", "acme", "/etc/weir/acme/rules", "/etc/weir/p2"},
		{"open", "unknown", "/etc/weir/r2", "/etc/weir/p2"},
	} {
		r := &cfg.Routes[0]
		if tc.route == "open" {
			r = &cfg.Routes[1]
		}
		rules, pol := cfg.PolicyDirs(r, tc.tenant)
		if rules != tc.rules || pol != tc.policies {
			t.Errorf("PolicyDirs(%s, %q) = %s %s, want %s %s", tc.route, tc.tenant, rules, pol, tc.rules, tc.policies)
		}
	}
	if d := cfg.Dump(); strings.Contains(d, "6379") {
		t.Errorf("Dump shows the Redis URL:\n%s", d)
	}
}

func TestAuthErrors(t *testing.T) {
	withAuth := func(routes, rest string) string { return authBase + "routes:\n" + routes + rest }
	keyed := "auth:\n  api_keys: [{id: k, sha256: " + digest + "}]\n"
	tests := []struct {
		name, src string
		want      []string
	}{
		{"required without credentials", withAuth("  - {name: a, upstream: llm}\n", ""),
			[]string{`weir.yaml:6: config_invalid: route "a": auth is required (the default) but no credentials are configured`}},
		{"optional without credentials", withAuth("  - {name: a, upstream: llm, auth: optional}\n", ""), []string{`auth is optional (the default) but no credentials`}},
		{"bad auth value", withAuth("  - {name: a, upstream: llm, auth: maybe}\n", keyed), []string{`route "a": auth must be required, optional or none, not "maybe"`}},
		{"key not a digest", withAuth("  - {name: a, upstream: llm}\n", "auth:\n  api_keys: [{id: k, sha256: weir_s3cr3tk3y}]\n"),
			[]string{`weir.yaml:8: config_invalid: API key "k": sha256 must be 64 hex digits`}},
		{"key without id", withAuth("  - {name: a, upstream: llm}\n", "auth:\n  api_keys: [{sha256: "+digest+"}]\n"), []string{"auth.api_keys[0].id is required"}},
		{"same key twice", withAuth("  - {name: a, upstream: llm}\n", "auth:\n  api_keys:\n    - {id: a, sha256: "+digest+"}\n    - {id: b, sha256: "+digest+"}\n"),
			[]string{`API key "b": the same key is listed twice`}},
		{"jwt without issuer", withAuth("  - {name: a, upstream: llm}\n", "auth:\n  jwt: {jwks_file: j.json, audience: w}\n"), []string{"issuer and audience are required"}},
		{"jwt with both sources", withAuth("  - {name: a, upstream: llm}\n", "auth:\n  jwt: {jwks_file: j.json, jwks_url: 'https://x/j', issuer: i, audience: w}\n"), []string{"set one of jwks_file and jwks_url"}},
		{"jwt skew too large", withAuth("  - {name: a, upstream: llm}\n", "auth:\n  jwt: {jwks_file: j.json, issuer: i, audience: w, skew: 1h}\n"), []string{"auth.jwt.skew must be between 0 and 5m0s"}},
		{"trusted headers without sources", withAuth("  - {name: a, upstream: llm}\n", "auth:\n  trusted_headers: {subject: X-User}\n"), []string{"auth.trusted_headers.sources is required"}},
		{"trusted headers bad cidr", withAuth("  - {name: a, upstream: llm}\n", "auth:\n  trusted_headers: {sources: [10.0.0/8]}\n"), []string{`"10.0.0/8" is not an address or CIDR`}},
		{"identity header as credential header", withAuth("  - {name: a, upstream: llm}\n", "auth:\n  trusted_headers: {sources: [10.0.0.0/8], subject: Authorization}\n"),
			[]string{"auth.trusted_headers.subject cannot be Authorization"}},
		{"identity header forwarded", "rules: r\npolicies: p\nupstreams:\n  - {name: llm, base_url: 'http://x/v1', forward_headers: [x-forwarded-user]}\nroutes:\n  - {name: a, upstream: llm}\n" + "auth:\n  trusted_headers: {sources: [10.0.0.0/8]}\n",
			[]string{"forward_headers cannot name x-forwarded-user"}},
		{"bad redis url", withAuth("  - {name: a, upstream: llm, auth: none}\n", "limits: {redis: 'http://u:hunter22@x'}\n"), []string{"limits.redis must be a redis:// or rediss:// URL (value withheld)"}},
		{"bad on_store_error", withAuth("  - {name: a, upstream: llm, auth: none}\n", "limits: {on_store_error: maybe}\n"), []string{`on_store_error must be deny or allow, not "maybe"`}},
		{"negative rate", withAuth("  - {name: a, upstream: llm, auth: none}\n", "limits: {per_tenant: {requests_per_minute: -1}}\n"), []string{"limits.per_tenant: requests_per_minute and tokens_per_minute must not be negative"}},
		{"negative tenant rate", withAuth("  - {name: a, upstream: llm, auth: none}\n", "tenants: {acme: {limits: {tokens_per_minute: -5}}}\n"), []string{"tenants.acme.limits: requests_per_minute"}},
		{"unknown key in auth", withAuth("  - {name: a, upstream: llm}\n", "auth:\n  api_keys: [{id: k, sha256: "+digest+", role: x}]\n"), []string{`unknown key "role" in auth.api_keys[0]`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parse("weir.yaml", "/w/weir.yaml", []byte(tc.src), env(nil))
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q:\n%v", w, err)
				}
			}
			for _, secret := range []string{"s3cr3t", "hunter22"} {
				if strings.Contains(err.Error(), secret) {
					t.Errorf("error shows a secret:\n%v", err)
				}
			}
		})
	}
}
