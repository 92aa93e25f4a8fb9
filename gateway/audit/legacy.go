package audit

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
)

// Trails written before the RFC 8785 chain (format "legacy") hashed each record as
// SHA-256 over prev, a newline and the record without "hash" re-encoded by encoding/json
// with sorted keys (which escapes <, > and &, so only Weir reproduces it). Verify still
// checks them; a trail resumed by a newer Weir continues in the JCS format.

// legacyCanonical returns line's JSON object in the legacy canonical form, without "hash".
func legacyCanonical(line []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	var fields map[string]any
	if err := dec.Decode(&fields); err != nil {
		return nil, err
	}
	if fields == nil {
		return nil, errors.New("not a JSON object")
	}
	delete(fields, "hash")
	return json.Marshal(fields)
}

// legacyHash is a legacy record's hash: SHA-256 over prev, "\n" and the canonical JSON.
func legacyHash(prev string, canon []byte) string {
	h := sha256.New()
	h.Write([]byte(prev))
	h.Write([]byte{'\n'})
	h.Write(canon)
	return hex.EncodeToString(h.Sum(nil))
}

// legacySeal writes r as the legacy format did: the reference for the legacy tests.
func legacySeal(r *Record, seq uint64, prev string) ([]byte, error) {
	r.Seq, r.Prev, r.Hash = seq, prev, ""
	raw, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	canon, err := legacyCanonical(raw)
	if err != nil {
		return nil, err
	}
	r.Hash = legacyHash(prev, canon)
	line, err := json.Marshal(r)
	return append(line, '\n'), err
}
