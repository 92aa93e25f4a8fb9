package gateway

import (
	"context"

	"github.com/weirgw/weir/gateway/auth"
)

// compileAccess builds who may ask and how often: the authenticator of auth: (reusing
// prev's JWT verifier, with its refreshed key set and token cache, when the jwt section is
// unchanged; nil without credentials) and the limiter (reusing prev's store when its
// settings are unchanged; nil without budgets).
func (s *Snapshot) compileAccess(ctx context.Context, prev *Snapshot) error {
	var prevAuth *auth.Authenticator
	var prevLimits *limiter
	if prev != nil {
		prevAuth, prevLimits = prev.auth, prev.limits
	}
	var a *auth.Authenticator
	if s.Config.Auth.Configured() {
		var err error
		if a, err = auth.New(ctx, s.Config.Auth, prevAuth); err != nil {
			return err
		}
	}
	l, err := newLimiter(s.Config, prevLimits)
	if err != nil {
		a.Close(prevAuth)
		return err
	}
	s.auth, s.limits = a, l
	return nil
}

// closeAccess releases what compileAccess made for s and prev does not use: a snapshot
// that failed to compile must not leave a JWKS refresher or a Redis client behind.
func (s *Snapshot) closeAccess(prev *Snapshot) {
	var pa *auth.Authenticator
	var pl *limiter
	if prev != nil {
		pa, pl = prev.auth, prev.limits
	}
	s.auth.Close(pa)
	s.limits.close(pl)
}
