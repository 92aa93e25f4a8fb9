package auth

import (
	"bytes"
	"strings"
)

// cred is the one credential a request presents.
type cred struct {
	token  string
	bearer bool // it came in Authorization: Bearer (a token may be a JWT)
}

// credential reads the request's credential from every copy of Authorization (Bearer) and
// x-api-key. Copies that carry the same credential are one; copies that differ are
// ambiguous — Weir would have to guess which one the caller meant — and refused, as is an
// Authorization of another scheme.
func credential(r Request) (cred, error) {
	var c cred
	add := func(v []byte, bearer bool) error {
		v = bytes.TrimSpace(v)
		if len(v) == 0 {
			return nil
		}
		switch {
		case c.token == "":
			c.token, c.bearer = string(v), bearer
		case c.token != string(v):
			return fail(CodeAmbiguous, "the request carries more than one credential (Authorization and x-api-key, or several copies that differ); send one")
		default:
			c.bearer = c.bearer || bearer
		}
		return nil
	}
	for _, v := range r.Header("Authorization") {
		scheme, rest, _ := bytes.Cut(bytes.TrimSpace(v), []byte(" "))
		if !bytes.EqualFold(scheme, []byte("Bearer")) {
			return cred{}, fail(CodeAPIKey, "the Authorization header must be Bearer <key or token>")
		}
		if err := add(rest, true); err != nil {
			return cred{}, err
		}
	}
	for _, v := range r.Header("X-Api-Key") {
		if err := add(v, false); err != nil {
			return cred{}, err
		}
	}
	return c, nil
}

// looksLikeJWT reports whether a bearer credential has the shape of a compact JWS (three
// base64url segments): such a credential is verified as a token, anything else as a key.
func looksLikeJWT(s string) bool {
	return strings.Count(s, ".") == 2 && !strings.ContainsAny(s, " +/=")
}
