// Package authtest is an identity provider for tests: real keys made in the test (RSA 2048,
// ECDSA P-256, Ed25519), a JWKS of their public halves served over loopback or written to
// a file, and tokens signed with them — plus the forged tokens a verifier must refuse.
package authtest

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/lestrrat-go/jwx/v3/jwa"
	"github.com/lestrrat-go/jwx/v3/jwk"
	"github.com/lestrrat-go/jwx/v3/jwt"
)

// Issuer is a test identity provider.
type Issuer struct {
	URL      string // its iss
	Audience string
	mu       sync.Mutex
	keys     map[string]signer // by kid
	served   []string          // the kids the JWKS publishes
}

type signer struct {
	alg  jwa.SignatureAlgorithm
	priv jwk.Key
	pub  jwk.Key
	raw  any // the public key, for forgeries
}

// The kids of the keys NewIssuer makes.
const (
	KidRSA = "rsa-1"
	KidEC  = "ec-1"
	KidEd  = "ed-1"
)

// NewIssuer makes an RSA, an ECDSA P-256 and an Ed25519 key, all published.
func NewIssuer(t testing.TB) *Issuer {
	t.Helper()
	is := &Issuer{URL: "https://idp.test/", Audience: "weir", keys: map[string]signer{}}
	rk, err := rsa.GenerateKey(rand.Reader, 2048)
	must(t, err)
	ek, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	must(t, err)
	_, edk, err := ed25519.GenerateKey(rand.Reader)
	must(t, err)
	is.Add(t, KidRSA, jwa.RS256(), rk)
	is.Add(t, KidEC, jwa.ES256(), ek)
	is.Add(t, KidEd, jwa.EdDSA(), edk)
	return is
}

// Add makes priv a signing key of kid and publishes it.
func (is *Issuer) Add(t testing.TB, kid string, alg jwa.SignatureAlgorithm, priv any) {
	t.Helper()
	k, err := jwk.Import(priv)
	must(t, err)
	must(t, k.Set(jwk.KeyIDKey, kid))
	pub, err := k.PublicKey()
	must(t, err)
	must(t, pub.Set(jwk.AlgorithmKey, alg))
	var raw any
	must(t, jwk.Export(pub, &raw))
	is.mu.Lock()
	defer is.mu.Unlock()
	is.keys[kid] = signer{alg: alg, priv: k, pub: pub, raw: raw}
	is.served = append(is.served, kid)
}

// Unpublish removes kid from the JWKS (its tokens still sign).
func (is *Issuer) Unpublish(kid string) {
	is.mu.Lock()
	defer is.mu.Unlock()
	out := is.served[:0]
	for _, k := range is.served {
		if k != kid {
			out = append(out, k)
		}
	}
	is.served = out
}

// JWKS is the set of published public keys.
func (is *Issuer) JWKS(t testing.TB) []byte {
	t.Helper()
	is.mu.Lock()
	defer is.mu.Unlock()
	set := jwk.NewSet()
	for _, kid := range is.served {
		must(t, set.AddKey(is.keys[kid].pub))
	}
	b, err := json.Marshal(set)
	must(t, err)
	return b
}

// WriteJWKS writes the JWKS to dir/jwks.json and returns its path.
func (is *Issuer) WriteJWKS(t testing.TB, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "jwks.json")
	must(t, os.WriteFile(p, is.JWKS(t), 0o600))
	return p
}

// Serve serves the JWKS over loopback (its current keys on every request) and returns the
// URL and a counter of the fetches.
func (is *Issuer) Serve(t testing.TB) (string, func() int) {
	t.Helper()
	var mu sync.Mutex
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		n++
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(is.JWKS(t))
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/jwks.json", func() int { mu.Lock(); defer mu.Unlock(); return n }
}

// Claims are a token's claims; Token fills iss, aud, iat and exp (one hour) unless set.
type Claims map[string]any

// Token signs claims with the key kid.
func (is *Issuer) Token(t testing.TB, kid string, c Claims) string {
	t.Helper()
	is.mu.Lock()
	s, ok := is.keys[kid]
	is.mu.Unlock()
	if !ok {
		t.Fatalf("authtest: no key %s", kid)
	}
	b := jwt.NewBuilder()
	for k, v := range is.defaults(c) {
		b = b.Claim(k, v)
	}
	tok, err := b.Build()
	must(t, err)
	out, err := jwt.Sign(tok, jwt.WithKey(s.alg, s.priv))
	must(t, err)
	return string(out)
}

func (is *Issuer) defaults(c Claims) Claims {
	out := Claims{"iss": is.URL, "aud": is.Audience, "iat": time.Now().Unix(), "exp": time.Now().Add(time.Hour).Unix()}
	for k, v := range c {
		if v == nil {
			delete(out, k)
			continue
		}
		out[k] = v
	}
	return out
}

// Unsigned is a token with "alg": "none" and no signature.
func (is *Issuer) Unsigned(c Claims) string {
	return seg(map[string]any{"alg": "none", "typ": "JWT"}) + "." + seg(is.defaults(c)) + "."
}

// HMACWithPublicKey forges the classic confusion: HS256 keyed with the RSA public key's
// PEM, under the RSA key's kid.
func (is *Issuer) HMACWithPublicKey(t testing.TB, c Claims) string {
	t.Helper()
	der, err := x509.MarshalPKIXPublicKey(is.keys[KidRSA].raw)
	must(t, err)
	secret := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})
	signing := seg(map[string]any{"alg": "HS256", "typ": "JWT", "kid": KidRSA}) + "." + seg(is.defaults(c))
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(signing))
	return signing + "." + base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

func seg(v any) string {
	b, _ := json.Marshal(v)
	return base64.RawURLEncoding.EncodeToString(b)
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
