package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"slices"

	"github.com/weirgw/weir/gateway/config"
)

// KeyPrefix starts every key NewKey makes, so that a leaked one is recognisable (secret
// scanners match prefixes).
const KeyPrefix = "weir_"

// NewKey returns a fresh API key (KeyPrefix and 32 random bytes, base64url) and the hex
// SHA-256 digest to configure for it.
func NewKey() (key, digest string, err error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", "", err
	}
	key = KeyPrefix + base64.RawURLEncoding.EncodeToString(b[:])
	return key, Digest(key), nil
}

// Digest is the hex SHA-256 of a key: what auth.api_keys[].sha256 holds.
func Digest(key string) string {
	d := sha256.Sum256([]byte(key))
	return hex.EncodeToString(d[:])
}

// keySet finds a key's entry by the SHA-256 of the presented key. The index is the digest,
// not the key: the time a lookup takes depends on the digest only, which a caller cannot
// steer towards a configured digest without inverting SHA-256; the entry found is then
// confirmed with a constant-time comparison.
type keySet struct {
	byDigest map[[sha256.Size]byte]*keyEntry
}

type keyEntry struct {
	digest [sha256.Size]byte
	id     Identity
}

func newKeySet(keys []config.APIKey) *keySet {
	s := &keySet{byDigest: make(map[[sha256.Size]byte]*keyEntry, len(keys))}
	for _, k := range keys {
		var d [sha256.Size]byte
		if n, err := hex.Decode(d[:], []byte(k.SHA256)); err != nil || n != len(d) {
			continue // config validation refuses it
		}
		roles := slices.Clone(k.Roles)
		if roles == nil {
			roles = []string{}
		}
		s.byDigest[d] = &keyEntry{digest: d, id: Identity{ID: k.ID, Roles: roles, Tenant: k.Tenant, Method: MethodAPIKey}}
	}
	return s
}

var errAPIKey = fail(CodeAPIKey, "the API key is not valid")

// lookup returns the identity of a presented key.
func (s *keySet) lookup(key string) (Identity, error) {
	d := sha256.Sum256([]byte(key))
	e, ok := s.byDigest[d]
	if !ok || subtle.ConstantTimeCompare(e.digest[:], d[:]) != 1 {
		return Identity{}, errAPIKey
	}
	id := e.id
	id.Roles = slices.Clone(id.Roles) // callers may keep and extend it
	return id, nil
}
