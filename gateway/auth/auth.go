// Package auth establishes who is asking: it verifies a request's credentials — API keys
// (stored as SHA-256 digests), JSON Web Tokens (signed with RS256, ES256 or EdDSA, checked
// against a JWKS), or identity headers from an authenticating proxy at a trusted address —
// and returns the caller's Identity. It is the gateway's identify stage without the wire:
// the gateway hands it a protocol-neutral view of the request (Request) and maps its
// errors to 401 answers.
//
// What it believes, and from whom: a key whose digest is configured; a token whose
// signature verifies with a key of the configured set, whose issuer and audience are the
// configured ones and which is within its validity (with a small skew); identity headers
// only from the configured proxy addresses. Nothing else of a request says who sent it.
// Credentials are never logged, kept or returned: an Identity holds the configured id or the
// token's claims, and an Error holds a code and a fixed message.
package auth

import (
	"context"
	"errors"
	"net/netip"

	"github.com/weirgw/weir/gateway/config"
)

// The auth methods an Identity records.
const (
	MethodAPIKey = "api_key"
	MethodJWT    = "jwt"
	MethodHeader = "header"
	MethodNone   = "none"
)

// Identity is a verified caller.
type Identity struct {
	ID     string
	Roles  []string
	Tenant string
	Method string // MethodAPIKey, MethodJWT, MethodHeader or MethodNone
}

// Anonymous is the identity of a caller without credentials (auth none or optional).
var Anonymous = Identity{Roles: []string{}, Method: MethodNone}

// Request is what identification reads of a request.
type Request interface {
	// Header returns every value of the header name (case-insensitive), in order. The
	// values are valid only during the call.
	Header(name string) [][]byte
	// RemoteAddr is the address of the peer that sent the request.
	RemoteAddr() netip.Addr
}

// Authenticator verifies credentials with the keys, token settings and trusted proxies of
// one config. It is immutable but for the JWKS it refreshes; safe for concurrent use.
type Authenticator struct {
	keys    *keySet
	jwt     *jwtVerifier
	headers *headerTrust
	cfg     config.Auth
}

// New builds the authenticator of cfg. prev, when not nil, lends its JWT verifier (with its
// refreshed key set and token cache) when the jwt section did not change. A jwks_file or a
// first jwks_url fetch that fails is an error.
func New(ctx context.Context, cfg config.Auth, prev *Authenticator) (*Authenticator, error) {
	a := &Authenticator{keys: newKeySet(cfg.APIKeys), cfg: cfg}
	if cfg.JWT != nil {
		if prev != nil && prev.jwt != nil && prev.jwt.sameConfig(cfg.JWT) && cfg.JWT.JWKSFile == "" {
			a.jwt = prev.jwt
		} else {
			v, err := newJWTVerifier(ctx, *cfg.JWT)
			if err != nil {
				return nil, err
			}
			a.jwt = v
		}
	}
	if cfg.TrustedHeaders != nil {
		h, err := newHeaderTrust(*cfg.TrustedHeaders)
		if err != nil {
			return nil, err
		}
		a.headers = h
	}
	return a, nil
}

// Close stops the JWKS refresh of a's verifier unless next uses the same verifier.
func (a *Authenticator) Close(next *Authenticator) {
	if a == nil || a.jwt == nil || (next != nil && next.jwt == a.jwt) {
		return
	}
	a.jwt.close()
}

// Identify returns the caller's identity. ErrNoCredentials (as an *Error with code
// missing_credentials) means the request carries none: an optional route serves it
// anonymously. Every other error means credentials were sent and are not valid, or are
// ambiguous.
func (a *Authenticator) Identify(ctx context.Context, r Request) (Identity, error) {
	if a.headers != nil {
		if id, ok, err := a.headers.identify(r); ok || err != nil {
			return id, err
		}
	}
	cred, err := credential(r)
	if err != nil {
		return Identity{}, err
	}
	switch {
	case cred.token == "":
		return Identity{}, ErrNoCredentials
	case cred.bearer && a.jwt != nil && looksLikeJWT(cred.token):
		return a.jwt.verify(cred.token)
	}
	return a.keys.lookup(cred.token)
}

// Error is a refused credential: a stable code and a message that never quotes the
// credential.
type Error struct {
	Code    string
	Message string
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// The codes of Error.
const (
	CodeMissing   = "missing_credentials"
	CodeAmbiguous = "ambiguous_credentials"
	CodeAPIKey    = "invalid_api_key"
	CodeToken     = "invalid_token"
	CodeExpired   = "token_expired"
	CodeNotYet    = "token_not_yet_valid"
	CodeIssuer    = "invalid_issuer"
	CodeAudience  = "invalid_audience"
	CodeAlgorithm = "unsupported_token_algorithm"
	CodeClaims    = "invalid_claims"
	CodeHeaders   = "invalid_identity_headers"
)

// ErrNoCredentials is the error of a request that carries no credentials.
var ErrNoCredentials error = &Error{Code: CodeMissing, Message: "this route needs credentials: send an API key as Authorization: Bearer <key> or x-api-key, or a token as Authorization: Bearer <token>"}

// IsMissing reports whether err says the request carried no credentials.
func IsMissing(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == CodeMissing
}

func fail(code, msg string) error { return &Error{Code: code, Message: msg} }
