package auth

import (
	"fmt"
	"testing"

	"github.com/weirgw/weir/gateway/auth/authtest"
	"github.com/weirgw/weir/gateway/config"
)

// BenchmarkAPIKey is the identify stage's cost for an API key among 1000 configured.
func BenchmarkAPIKey(b *testing.B) {
	var keys []config.APIKey
	var last string
	for i := range 1000 {
		k, d, _ := NewKey()
		keys = append(keys, config.APIKey{ID: fmt.Sprintf("svc-%d", i), SHA256: d, Roles: []string{"analyst"}})
		last = k
	}
	a, _ := New(ctx, config.Auth{APIKeys: keys}, nil)
	r := bearer(last)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := a.Identify(ctx, r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkJWT verifies one token per algorithm: "verify" with the cache off (every request
// checks the signature), "cached" as a caller that sends the same token again.
func BenchmarkJWT(b *testing.B) {
	is := authtest.NewIssuer(b)
	dir := b.TempDir()
	for _, kid := range []string{authtest.KidRSA, authtest.KidEC, authtest.KidEd} {
		tok := is.Token(b, kid, authtest.Claims{"sub": "alice", "roles": []string{"analyst"}, "org": "acme"})
		for _, mode := range []string{"verify", "cached"} {
			b.Run(kid+"/"+mode, func(b *testing.B) {
				cfg := jwtConfig(is)
				cfg.JWKSFile = is.WriteJWKS(b, dir)
				if mode == "verify" {
					cfg.CacheSize = -1
				}
				a, err := New(ctx, config.Auth{JWT: &cfg}, nil)
				if err != nil {
					b.Fatal(err)
				}
				r := bearer(tok)
				b.ReportAllocs()
				for b.Loop() {
					if _, err := a.Identify(ctx, r); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
