package gateway

import "math/rand/v2"

// base32Alphabet is RFC 4648's standard base32 alphabet, the one crypto/rand.Text uses, so
// decision ids keep the format they had: 26 characters of A–Z and 2–7.
const base32Alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"

// newDecisionID returns a fresh decision id: 26 base32 characters carrying 130 random bits,
// the same format as crypto/rand.Text, which it replaces on the request path.
//
// The bits come from math/rand/v2's top-level functions. Since Go 1.22 these read the
// runtime's per-thread ChaCha8 generator, a cryptographically strong stream cipher that the
// runtime seeds from the operating system's entropy and that cannot be reseeded by user code
// (rand.Seed does not exist in v2), so its output is unpredictable to anyone who has not
// read this process's memory. That is what a decision id needs: it must be unique (130
// random bits make a collision negligible) and not guessable from other ids, but it is not a
// secret — it is sent to the client and written to logs and audit records. crypto/rand.Text
// cost a getrandom system call and two allocations per request; this costs three ChaCha8
// reads and one allocation.
func newDecisionID() string {
	var id [26]byte
	words := [3]uint64{rand.Uint64(), rand.Uint64(), rand.Uint64()}
	for i := range id {
		// Characters 0–11 take 60 bits of the first word, 12–23 60 bits of the second and
		// 24–25 10 bits of the third: 130 random bits, 5 per character.
		w := &words[i/12]
		id[i] = base32Alphabet[*w&31]
		*w >>= 5
	}
	return string(id[:])
}
