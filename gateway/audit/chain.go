package audit

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
)

// canonical returns line's JSON object re-encoded with sorted keys and without "hash".
func canonical(line []byte) (fields map[string]any, canon []byte, err error) {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	if err := dec.Decode(&fields); err != nil {
		return nil, nil, err
	}
	if dec.More() {
		return nil, nil, errors.New("data after the record")
	}
	if fields == nil {
		return nil, nil, errors.New("not a JSON object")
	}
	h := fields["hash"]
	delete(fields, "hash")
	canon, err = json.Marshal(fields)
	if h != nil {
		fields["hash"] = h
	}
	return fields, canon, err
}

// chainHash is the hash of a record: SHA-256 over prev, "\n" and the canonical JSON.
func chainHash(prev string, canon []byte) string {
	h := sha256.New()
	h.Write([]byte(prev))
	h.Write([]byte{'\n'})
	h.Write(canon)
	return hex.EncodeToString(h.Sum(nil))
}

// seal sets r's chain fields and returns its line, newline included.
func seal(r *Record, seq uint64, prev string) ([]byte, error) {
	r.Seq, r.Prev, r.Hash = seq, prev, ""
	raw, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	_, canon, err := canonical(raw)
	if err != nil {
		return nil, err
	}
	r.Hash = chainHash(prev, canon)
	line, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	return append(line, '\n'), nil
}
