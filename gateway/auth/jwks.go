package auth

import (
	"context"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/lestrrat-go/jwx/v3/jwa"
	"github.com/lestrrat-go/jwx/v3/jwk"
)

// The signature algorithms Weir accepts. HMAC is not among them (a shared secret in a JWKS
// would let every holder of the set mint tokens), nor is "none".
var algorithms = map[string]jwa.SignatureAlgorithm{
	"RS256": jwa.RS256(),
	"ES256": jwa.ES256(),
	"EdDSA": jwa.EdDSA(),
}

// verKey is a public key of the set with the one algorithm it verifies.
type verKey struct {
	kid string
	alg string
	key any // *rsa.PublicKey, *ecdsa.PublicKey (P-256) or ed25519.PublicKey
}

// keySetJWK is a parsed JWKS: its usable keys, by kid.
type keySetJWK struct {
	keys []verKey
	sum  [sha256.Size]byte // of the document: a refresh that changes nothing keeps the cache
}

// parseJWKS reads a JWKS document. Keys of algorithms Weir does not accept (RSA under 2048
// bits, other curves, encryption keys) are skipped; symmetric and private keys make the set
// an error, since publishing them is a mistake that gives signing power away; a set without
// a usable key is an error.
func parseJWKS(doc []byte) (*keySetJWK, error) {
	set, err := jwk.Parse(doc)
	if err != nil {
		return nil, fmt.Errorf("the JWKS is not a JSON Web Key Set: %w", err)
	}
	out := &keySetJWK{sum: sha256.Sum256(doc)}
	for i := 0; i < set.Len(); i++ {
		k, _ := set.Key(i)
		if use, ok := k.KeyUsage(); ok && use != "sig" {
			continue
		}
		var raw any
		if err := jwk.Export(k, &raw); err != nil {
			return nil, fmt.Errorf("JWKS key %d: %w", i, err)
		}
		alg, err := algorithmOf(raw)
		if err != nil {
			return nil, fmt.Errorf("JWKS key %d: %w", i, err)
		}
		if alg == "" {
			continue
		}
		if a, ok := k.Algorithm(); ok && a.String() != alg {
			continue // the key is declared for another algorithm
		}
		kid, _ := k.KeyID()
		out.keys = append(out.keys, verKey{kid: kid, alg: alg, key: raw})
	}
	if len(out.keys) == 0 {
		return nil, errors.New("the JWKS has no RS256 (RSA ≥ 2048 bits), ES256 (P-256) or EdDSA (Ed25519) signature key")
	}
	return out, nil
}

// algorithmOf returns the algorithm a public key verifies, "" for a key Weir does not use.
func algorithmOf(raw any) (string, error) {
	switch k := raw.(type) {
	case *rsa.PublicKey:
		if k.N.BitLen() < 2048 {
			return "", nil
		}
		return "RS256", nil
	case *ecdsa.PublicKey:
		if k.Curve != elliptic.P256() {
			return "", nil
		}
		return "ES256", nil
	case ed25519.PublicKey:
		return "EdDSA", nil
	case []byte:
		return "", errors.New("a symmetric (oct) key: weir accepts only public signature keys, never HMAC secrets")
	case *rsa.PrivateKey, *ecdsa.PrivateKey, ed25519.PrivateKey:
		return "", errors.New("a private key: publish only public keys")
	}
	return "", nil
}

// find returns the key that verifies a token with header alg and kid: the key with that
// kid, or without a kid the set's only key of that algorithm.
func (s *keySetJWK) find(alg, kid string) (verKey, bool) {
	var found verKey
	n := 0
	for _, k := range s.keys {
		if k.alg != alg || (kid != "" && k.kid != kid) {
			continue
		}
		if kid != "" {
			return k, true
		}
		found = k
		n++
	}
	return found, n == 1
}

// maxJWKS bounds a fetched JWKS document.
const maxJWKS = 1 << 20

// loadJWKS reads the configured set: the file, or the URL.
func loadJWKS(ctx context.Context, file, url string, client *http.Client) (*keySetJWK, error) {
	var doc []byte
	var err error
	if file != "" {
		doc, err = os.ReadFile(file)
	} else {
		doc, err = fetch(ctx, client, url)
	}
	if err != nil {
		return nil, err
	}
	return parseJWKS(doc)
}

func fetch(ctx context.Context, client *http.Client, url string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("JWKS fetch: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("JWKS fetch: status %d", resp.StatusCode)
	}
	doc, err := io.ReadAll(io.LimitReader(resp.Body, maxJWKS+1))
	if err == nil && len(doc) > maxJWKS {
		err = fmt.Errorf("JWKS fetch: the document is larger than %d bytes", maxJWKS)
	}
	return doc, err
}
