package auth

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lestrrat-go/jwx/v3/jwa"

	"github.com/weirgw/weir/gateway/auth/authtest"
	"github.com/weirgw/weir/gateway/config"
)

func jwtConfig(is *authtest.Issuer) config.JWT {
	return config.JWT{Issuer: is.URL, Audience: is.Audience, SubjectClaim: "sub", RolesClaim: "roles", TenantClaim: "org",
		Skew: config.Duration(30 * time.Second), Refresh: config.Duration(time.Hour), CacheSize: 100}
}

func bearer(tok string) *fakeRequest { return req("10.0.0.1", "Authorization", "Bearer "+tok) }

func TestJWT(t *testing.T) {
	is := authtest.NewIssuer(t)
	// A second provider with the same kids: its signatures must not verify.
	forger := authtest.NewIssuer(t)
	cfg := jwtConfig(is)
	cfg.JWKSFile = is.WriteJWKS(t, t.TempDir())
	a, err := New(ctx, config.Auth{JWT: &cfg}, nil)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	alice := authtest.Claims{"sub": "alice", "roles": []string{"analyst"}, "org": "acme"}
	with := func(extra authtest.Claims) authtest.Claims {
		c := authtest.Claims{}
		for k, v := range alice {
			c[k] = v
		}
		for k, v := range extra {
			c[k] = v
		}
		return c
	}
	tests := []struct {
		name     string
		token    string
		wantCode string
	}{
		{"RS256", is.Token(t, authtest.KidRSA, alice), ""},
		{"ES256", is.Token(t, authtest.KidEC, alice), ""},
		{"EdDSA", is.Token(t, authtest.KidEd, alice), ""},
		{"expired", is.Token(t, authtest.KidRSA, with(authtest.Claims{"exp": now.Add(-time.Minute).Unix()})), CodeExpired},
		{"expired within the skew", is.Token(t, authtest.KidRSA, with(authtest.Claims{"exp": now.Add(-10 * time.Second).Unix()})), ""},
		{"not yet valid", is.Token(t, authtest.KidRSA, with(authtest.Claims{"nbf": now.Add(time.Hour).Unix()})), CodeNotYet},
		{"no expiry", is.Token(t, authtest.KidRSA, with(authtest.Claims{"exp": nil})), CodeClaims},
		{"wrong audience", is.Token(t, authtest.KidRSA, with(authtest.Claims{"aud": "another-service"})), CodeAudience},
		{"audience in a list", is.Token(t, authtest.KidRSA, with(authtest.Claims{"aud": []string{"x", "weir"}})), ""},
		{"wrong issuer", is.Token(t, authtest.KidRSA, with(authtest.Claims{"iss": "https://evil.test/"})), CodeIssuer},
		{"no subject", is.Token(t, authtest.KidRSA, with(authtest.Claims{"sub": nil})), CodeClaims},
		{"wrong signature: another key under a published kid", forger.Token(t, authtest.KidRSA, alice), CodeToken},
		{"wrong signature: another EC key", forger.Token(t, authtest.KidEC, alice), CodeToken},
		{"tampered claims", tamper(is.Token(t, authtest.KidEd, alice)), CodeToken},
		{"alg none", is.Unsigned(alice), CodeAlgorithm},
		{"HS256 keyed with the RSA public key", is.HMACWithPublicKey(t, alice), CodeAlgorithm},
		{"unknown kid", unknownKid(t, is), CodeToken},
		{"not a JWT but three segments", "a.b.c", CodeToken},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			id, err := a.Identify(ctx, bearer(tc.token))
			if code := codeOf(err); code != tc.wantCode {
				t.Fatalf("code = %q (%v), want %q", code, err, tc.wantCode)
			}
			if err != nil {
				if strings.Contains(err.Error(), tc.token) {
					t.Errorf("the error quotes the token")
				}
				return
			}
			if id.ID != "alice" || id.Tenant != "acme" || id.Method != MethodJWT || !slices.Equal(id.Roles, []string{"analyst"}) {
				t.Errorf("identity = %+v", id)
			}
		})
	}
}

// tamper changes the payload of a signed token, keeping its signature.
func tamper(tok string) string {
	parts := strings.Split(tok, ".")
	parts[1] = strings.Replace(parts[1], parts[1][4:8], "AAAA", 1)
	return strings.Join(parts, ".")
}

// unknownKid signs with a key the JWKS does not publish.
func unknownKid(t *testing.T, is *authtest.Issuer) string {
	k, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	is.Add(t, "ec-unpublished", jwa.ES256(), k)
	is.Unpublish("ec-unpublished")
	return is.Token(t, "ec-unpublished", authtest.Claims{"sub": "alice"})
}

func TestJWTClaims(t *testing.T) {
	is := authtest.NewIssuer(t)
	cfg := jwtConfig(is)
	cfg.JWKSFile = is.WriteJWKS(t, t.TempDir())
	cfg.RolesClaim, cfg.TenantClaim, cfg.SubjectClaim = "realm_access.roles", "tenant", "email"
	a, err := New(ctx, config.Auth{JWT: &cfg}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		claims authtest.Claims
		want   Identity
	}{
		{"nested roles", authtest.Claims{"email": "a@x", "realm_access": map[string]any{"roles": []string{"analyst", "ops"}}, "tenant": "acme"},
			Identity{ID: "a@x", Roles: []string{"analyst", "ops"}, Tenant: "acme", Method: MethodJWT}},
		{"no roles", authtest.Claims{"email": "b@x"}, Identity{ID: "b@x", Roles: []string{}, Method: MethodJWT}},
		{"roles of another type", authtest.Claims{"email": "c@x", "realm_access": map[string]any{"roles": 7}}, Identity{ID: "c@x", Roles: []string{}, Method: MethodJWT}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			id, err := a.Identify(ctx, bearer(is.Token(t, authtest.KidEd, tc.claims)))
			if err != nil {
				t.Fatal(err)
			}
			if id.ID != tc.want.ID || id.Tenant != tc.want.Tenant || id.Method != tc.want.Method || !slices.Equal(id.Roles, tc.want.Roles) {
				t.Errorf("identity = %+v, want %+v", id, tc.want)
			}
		})
	}
	// A space-separated string of roles (an OAuth scope).
	cfg.RolesClaim = "scope"
	b, _ := New(ctx, config.Auth{JWT: &cfg}, nil)
	id, err := b.Identify(ctx, bearer(is.Token(t, authtest.KidEd, authtest.Claims{"email": "d@x", "scope": "read write"})))
	if err != nil || !slices.Equal(id.Roles, []string{"read", "write"}) {
		t.Errorf("scope roles = %v, %v", id.Roles, err)
	}
}

// TestJWTCache: a verified token is answered from the cache until it expires, by the
// verifier's clock; a changed key set empties the cache.
func TestJWTCache(t *testing.T) {
	is := authtest.NewIssuer(t)
	cfg := jwtConfig(is)
	cfg.JWKSFile = is.WriteJWKS(t, t.TempDir())
	a, err := New(ctx, config.Auth{JWT: &cfg}, nil)
	if err != nil {
		t.Fatal(err)
	}
	v := a.jwt
	now := time.Now()
	v.now = func() time.Time { return now }
	tok := is.Token(t, authtest.KidRSA, authtest.Claims{"sub": "alice", "exp": now.Add(time.Minute).Unix()})
	if _, err := a.Identify(ctx, bearer(tok)); err != nil {
		t.Fatal(err)
	}
	if n := len(v.cache.m); n != 1 {
		t.Fatalf("cache has %d entries", n)
	}
	// The cache answers without the key set: remove every key, the token still passes.
	keep := v.keys.Load()
	v.keys.Store(&keySetJWK{sum: keep.sum})
	if _, err := a.Identify(ctx, bearer(tok)); err != nil {
		t.Fatalf("not answered from the cache: %v", err)
	}
	// Past its expiry and the skew, the cache no longer answers and the token is refused.
	v.keys.Store(keep)
	now = now.Add(time.Minute + 31*time.Second)
	if _, err := a.Identify(ctx, bearer(tok)); codeOf(err) != CodeExpired {
		t.Fatalf("expired token: %v", err)
	}
	// A key set that changes empties the cache.
	now = time.Now()
	tok2 := is.Token(t, authtest.KidRSA, authtest.Claims{"sub": "bob"})
	a.Identify(ctx, bearer(tok2))
	is.Unpublish(authtest.KidRSA)
	set, err := parseJWKS(is.JWKS(t))
	if err != nil {
		t.Fatal(err)
	}
	v.swap(set)
	if _, err := a.Identify(ctx, bearer(tok2)); codeOf(err) != CodeToken {
		t.Fatalf("a token of a removed key: %v", err)
	}
}

// TestJWKSURL fetches the set over loopback, refreshes it early when a token names a
// rotated-in key, and keeps a verifier across reloads when the section is unchanged.
func TestJWKSURL(t *testing.T) {
	is := authtest.NewIssuer(t)
	url, fetches := is.Serve(t)
	cfg := jwtConfig(is)
	cfg.JWKSURL = url
	a, err := New(ctx, config.Auth{JWT: &cfg}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close(nil)
	if fetches() != 1 {
		t.Fatalf("fetches = %d", fetches())
	}
	if _, err := a.Identify(ctx, bearer(is.Token(t, authtest.KidEC, authtest.Claims{"sub": "alice"}))); err != nil {
		t.Fatal(err)
	}
	// Rotation: a new key is published; the first token naming it triggers a fetch.
	rk, _ := rsa.GenerateKey(rand.Reader, 2048)
	is.Add(t, "rsa-2", jwa.RS256(), rk)
	tok := is.Token(t, "rsa-2", authtest.Claims{"sub": "alice"})
	if _, err := a.Identify(ctx, bearer(tok)); codeOf(err) != CodeToken {
		t.Fatalf("before the refresh: %v", err)
	}
	a.jwt.stop() // stop the refresher; drive one early refresh by hand below
	a.jwt.stopped.Wait()
	set, err := loadJWKS(ctx, "", url, a.jwt.client)
	if err != nil {
		t.Fatal(err)
	}
	a.jwt.swap(set)
	if _, err := a.Identify(ctx, bearer(tok)); err != nil {
		t.Fatalf("after the refresh: %v", err)
	}
	b, err := New(ctx, config.Auth{JWT: &cfg}, a)
	if err != nil || b.jwt != a.jwt {
		t.Errorf("an unchanged jwt section rebuilt the verifier: %v", err)
	}
	c := cfg
	c.Audience = "other"
	if d, _ := New(ctx, config.Auth{JWT: &c}, a); d.jwt == a.jwt {
		t.Errorf("a changed jwt section kept the verifier")
	} else {
		d.Close(nil)
	}
}

func TestJWKSRefused(t *testing.T) {
	tests := []struct{ name, doc, want string }{
		{"not JSON", `nope`, "not a JSON Web Key Set"},
		{"HMAC secret", `{"keys":[{"kty":"oct","k":"c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0","kid":"h"}]}`, "symmetric"},
		{"no usable key", `{"keys":[]}`, "has no RS256"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseJWKS([]byte(tc.doc))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
		})
	}
}
