package auth

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lestrrat-go/jwx/v3/jwt"

	"github.com/weirgw/weir/gateway/config"
)

// jwtVerifier verifies JSON Web Tokens with github.com/lestrrat-go/jwx/v3 against the
// configured key set, issuer and audience. A token that verified is kept in a cache keyed by
// its SHA-256 until it expires, so a caller that sends the same token on every request pays
// the signature check once; the cache is emptied whenever the key set changes, so that a
// key removed from the set stops its tokens at the next refresh.
type jwtVerifier struct {
	cfg    config.JWT
	keys   atomic.Pointer[keySetJWK]
	cache  *tokenCache
	now    func() time.Time
	client *http.Client

	refreshNow chan struct{} // an unknown kid asks the refresher for the set now
	stop       context.CancelFunc
	stopped    sync.WaitGroup
}

func newJWTVerifier(ctx context.Context, cfg config.JWT) (*jwtVerifier, error) {
	v := &jwtVerifier{cfg: cfg, cache: newTokenCache(cfg.CacheSize), now: time.Now,
		client: &http.Client{Timeout: 10 * time.Second}, refreshNow: make(chan struct{}, 1)}
	set, err := loadJWKS(ctx, cfg.JWKSFile, cfg.JWKSURL, v.client)
	if err != nil {
		return nil, err
	}
	v.keys.Store(set)
	if cfg.JWKSURL != "" {
		rctx, cancel := context.WithCancel(context.Background())
		v.stop = cancel
		v.stopped.Add(1)
		go v.refresh(rctx)
	}
	return v, nil
}

func (v *jwtVerifier) sameConfig(c *config.JWT) bool { return reflect.DeepEqual(&v.cfg, c) }

func (v *jwtVerifier) close() {
	if v.stop != nil {
		v.stop()
		v.stopped.Wait()
	}
}

// minRefresh spaces the early refreshes an unknown kid asks for.
const minRefresh = 10 * time.Second

// refresh fetches the JWKS every cfg.Refresh, and early (at most every minRefresh) when a
// token names a key the set lacks — the identity provider rotated its keys. A failed fetch
// keeps the last good set.
func (v *jwtVerifier) refresh(ctx context.Context) {
	defer v.stopped.Done()
	t := time.NewTicker(v.cfg.Refresh.Std())
	defer t.Stop()
	last := time.Now()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-v.refreshNow:
			if time.Since(last) < minRefresh {
				continue
			}
		}
		last = time.Now()
		set, err := loadJWKS(ctx, "", v.cfg.JWKSURL, v.client)
		if err != nil {
			continue
		}
		v.swap(set)
	}
}

// swap installs a set; a changed set empties the token cache.
func (v *jwtVerifier) swap(set *keySetJWK) {
	if old := v.keys.Swap(set); old == nil || old.sum != set.sum {
		v.cache.clear()
	}
}

// verify checks a compact JWS token and returns the identity its claims give.
func (v *jwtVerifier) verify(token string) (Identity, error) {
	sum := sha256.Sum256([]byte(token))
	now := v.now()
	if id, ok := v.cache.get(sum, now); ok {
		return id, nil
	}
	alg, kid, err := header(token)
	if err != nil {
		return Identity{}, err
	}
	k, ok := v.keys.Load().find(alg, kid)
	if !ok {
		select {
		case v.refreshNow <- struct{}{}:
		default:
		}
		return Identity{}, fail(CodeToken, "the token's signing key is not in the key set")
	}
	tok, err := jwt.Parse([]byte(token), jwt.WithKey(algorithms[alg], k.key), jwt.WithValidate(true),
		jwt.WithIssuer(v.cfg.Issuer), jwt.WithAudience(v.cfg.Audience), jwt.WithRequiredClaim("exp"),
		jwt.WithAcceptableSkew(v.cfg.Skew.Std()), jwt.WithClock(jwt.ClockFunc(v.now)))
	if err != nil {
		return Identity{}, tokenError(err)
	}
	id, err := v.identity(tok)
	if err != nil {
		return Identity{}, err
	}
	exp, _ := tok.Expiration()
	v.cache.put(sum, id, exp.Add(v.cfg.Skew.Std()))
	id.Roles = append([]string{}, id.Roles...)
	return id, nil
}

// header reads the token's protected header to choose the key: its alg must be one Weir
// accepts ("none" and HMAC are refused here, before any key is looked at).
func header(token string) (alg, kid string, err error) {
	seg, _, _ := strings.Cut(token, ".")
	raw, derr := base64.RawURLEncoding.DecodeString(seg)
	var h struct {
		Alg string `json:"alg"`
		Kid string `json:"kid"`
	}
	if derr != nil || json.Unmarshal(raw, &h) != nil {
		return "", "", fail(CodeToken, "the token is not a signed JWT")
	}
	if _, ok := algorithms[h.Alg]; !ok {
		return "", "", fail(CodeAlgorithm, "the token's algorithm is not accepted (RS256, ES256 and EdDSA are)")
	}
	return h.Alg, h.Kid, nil
}

// tokenError names why jwx refused a token, without its text (which may quote claims).
func tokenError(err error) error {
	switch {
	case errors.Is(err, jwt.TokenExpiredError()):
		return fail(CodeExpired, "the token has expired")
	case errors.Is(err, jwt.TokenNotYetValidError()):
		return fail(CodeNotYet, "the token is not valid yet")
	case errors.Is(err, jwt.InvalidIssuerError()):
		return fail(CodeIssuer, "the token's issuer is not the configured one")
	case errors.Is(err, jwt.InvalidAudienceError()):
		return fail(CodeAudience, "the token is not meant for this service (audience)")
	case errors.Is(err, jwt.MissingRequiredClaimError()):
		return fail(CodeClaims, "the token has no expiry (exp)")
	}
	return fail(CodeToken, "the token's signature or format is not valid")
}

// identity maps the claims: the subject claim is required, roles and tenant optional.
func (v *jwtVerifier) identity(tok jwt.Token) (Identity, error) {
	id := Identity{Method: MethodJWT, Roles: []string{}}
	sub, ok := claim(tok, v.cfg.SubjectClaim).(string)
	if !ok || sub == "" {
		return Identity{}, fail(CodeClaims, "the token has no subject claim "+v.cfg.SubjectClaim)
	}
	id.ID = sub
	switch r := claim(tok, v.cfg.RolesClaim).(type) {
	case []any:
		for _, e := range r {
			if s, ok := e.(string); ok && s != "" {
				id.Roles = append(id.Roles, s)
			}
		}
	case string:
		id.Roles = append(id.Roles, strings.Fields(r)...)
	}
	if v.cfg.TenantClaim != "" {
		id.Tenant, _ = claim(tok, v.cfg.TenantClaim).(string)
	}
	return id, nil
}

// claim reads a claim by name, or by a dotted path into nested objects; nil when absent.
func claim(tok jwt.Token, path string) any {
	first, rest, nested := strings.Cut(path, ".")
	var v any
	if tok.Get(path, &v) == nil && v != nil {
		return v
	}
	if !nested || tok.Get(first, &v) != nil {
		return nil
	}
	for _, key := range strings.Split(rest, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[key]
	}
	return v
}
