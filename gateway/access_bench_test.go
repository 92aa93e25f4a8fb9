package gateway

import (
	"context"
	"fmt"
	"net"
	"testing"

	"github.com/valyala/fasthttp"

	"github.com/weirgw/weir/gateway/auth"
	"github.com/weirgw/weir/gateway/auth/authtest"
)

// BenchmarkAccess is what knowing the caller and keeping its budgets adds to a request: the
// identify and limit stages, from credentials in the headers to a spent request, for each
// kind of credential and store. "anonymous" is the stages with auth: none and no limits.
func BenchmarkAccess(b *testing.B) {
	key, digest, _ := auth.NewKey()
	is := authtest.NewIssuer(b)
	dir := b.TempDir()
	jwks := is.WriteJWKS(b, dir)
	token := is.Token(b, authtest.KidRSA, authtest.Claims{"sub": "alice", "roles": []string{"analyst"}, "org": "acme"})
	keys := fmt.Sprintf("auth:\n  api_keys: [{id: svc, sha256: %s, roles: [analyst], tenant: acme}]\n", digest)
	jwt := fmt.Sprintf("auth:\n  jwt: {jwks_file: %s, issuer: %q, audience: %s, tenant_claim: org}\n", jwks, is.URL, is.Audience)
	memory := "  per_subject: {requests_per_minute: 1000000000, tokens_per_minute: 1000000000}\n  per_tenant: {requests_per_minute: 1000000000}\n"
	cases := []struct {
		name, routeAuth, extra, limits, credential string
	}{
		{"anonymous", "none", "", "", ""},
		{"api_key", "required", keys, "", key},
		{"api_key+memory_limits", "required", keys, memory, key},
		{"jwt_cached", "required", jwt, "", token},
		{"jwt_cached+memory_limits", "required", jwt, memory, token},
	}
	if c, err := net.Dial("tcp", "127.0.0.1:6379"); err == nil {
		c.Close()
		cases = append(cases, struct{ name, routeAuth, extra, limits, credential string }{
			"api_key+redis_limits", "required", keys, "  redis: redis://127.0.0.1:6379/0\n  redis_prefix: \"" + randomPrefix() + "\"\n" + memory, key})
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			path := writeConfig(b, gwParams{upstreamURL: "http://127.0.0.1:1/v1", routeAuth: tc.routeAuth, extra: tc.extra, limitLines: tc.limits})
			g, err := New(context.Background(), Options{ConfigPath: path, Logger: discardLogger()})
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { g.Shutdown(context.Background()) })
			snap := g.Snapshot()
			r, sub := snap.match("/v1/chat/completions")
			rc := &fasthttp.RequestCtx{}
			rc.Init(&fasthttp.Request{}, loopback, nil)
			if tc.credential != "" {
				rc.Request.Header.Set("Authorization", "Bearer "+tc.credential)
			}
			stages := []stage{pipeline[1], pipeline[2]} // identify, limit
			b.ReportAllocs()
			for b.Loop() {
				x := newExchange(g, rc, snap, r, sub, &openaiChat{})
				if err := x.run(g.base, stages); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
