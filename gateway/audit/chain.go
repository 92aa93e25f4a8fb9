package audit

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strconv"
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
	var e encoded
	ok, err := e.encode(r)
	if err != nil {
		return nil, err
	}
	if !ok {
		return sealJSON(r, seq, prev)
	}
	return e.link(nil, seq, prev, r), nil
}

// sealJSON is seal through encoding/json: the record marshaled, its canonical form
// computed from the marshaled line, and the record marshaled again with its hash. It is
// the reference the direct encoding (encode.go) agrees with, and it seals what that
// encoding does not take.
func sealJSON(r *Record, seq uint64, prev string) ([]byte, error) {
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

// link chains an encoded record after prev as record seq: it sets r's chain fields and
// appends the record's line to buf. This is the only part of sealing that needs the
// previous record, so the writer does only this under its lock.
func (e *encoded) link(buf []byte, seq uint64, prev string, r *Record) []byte {
	h := append(e.hashed[:0], prev...)
	h = append(h, '\n')
	h = append(h, e.canon[:e.prevAt]...)
	h = appendString(h, prev, true)
	h = append(h, e.canon[e.prevAt:e.seqAt]...)
	h = strconv.AppendUint(h, seq, 10)
	h = append(h, e.canon[e.seqAt:]...)
	e.hashed = h
	sum := sha256.Sum256(h)
	r.Seq, r.Prev, r.Hash = seq, prev, hex.EncodeToString(sum[:])

	buf = append(buf, `{"seq":`...)
	buf = strconv.AppendUint(buf, seq, 10)
	buf = append(buf, `,"prev":`...)
	buf = appendString(buf, prev, false)
	buf = append(buf, `,"hash":"`...)
	buf = append(buf, r.Hash...)
	buf = append(buf, `",`...)
	buf = append(buf, e.rest...)
	return append(buf, '\n')
}

// canonicalValue re-encodes one JSON value the way canonical does: keys sorted, numbers
// as written.
func canonicalValue(raw []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return json.Marshal(v)
}
