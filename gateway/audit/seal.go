package audit

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strconv"

	"github.com/gowebpki/jcs"
)

// A record's hash is the lowercase hex SHA-256 of its RFC 8785 (JCS) form without the
// "hash" member; "prev" and "seq" are members like any other. Its line is
// {"seq":…,"prev":…,"hash":…, followed by the other members in canonical order: the
// hashed bytes with seq and prev moved to the front for readers, which any JCS
// implementation turns back into the hashed form.

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

// link chains an encoded record after prev as record seq: it sets r's chain fields and
// appends the record's line to buf. This is the only part of sealing that needs the
// previous record, so the writer does only this under its lock.
func (e *encoded) link(buf []byte, seq uint64, prev string, r *Record) []byte {
	if e.sum == nil {
		e.sum = sha256.New()
	}
	h := e.sum
	h.Reset()
	h.Write(e.canon[:e.prevAt])
	e.scratch = appendString(append(e.scratch[:0], `,"prev":`...), prev)
	h.Write(e.scratch)
	h.Write(e.canon[e.prevAt:e.seqAt])
	e.scratch = strconv.AppendUint(append(e.scratch[:0], `,"seq":`...), seq, 10)
	h.Write(e.scratch)
	h.Write(e.canon[e.seqAt:])
	r.Seq, r.Prev, r.Hash = seq, prev, hex.EncodeToString(h.Sum(e.digest[:0]))

	buf = strconv.AppendUint(append(buf, `{"seq":`...), seq, 10)
	buf = appendString(append(buf, `,"prev":`...), prev)
	buf = append(append(append(buf, `,"hash":"`...), r.Hash...), `",`...)
	buf = append(buf, e.canon[1:]...)
	return append(buf, '\n')
}

// sealJSON is seal through encoding/json and the generic canonicalisation: the reference
// the direct encoding agrees with, and the sealing of records it does not take.
func sealJSON(r *Record, seq uint64, prev string) ([]byte, error) {
	r.Seq, r.Prev, r.Hash = seq, prev, ""
	members, err := jsonMembers(r)
	if err != nil {
		return nil, err
	}
	canon, err := canonicalMembers(members)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(canon)
	r.Hash = hex.EncodeToString(sum[:])
	delete(members, "seq")
	delete(members, "prev")
	rest, err := canonicalMembers(members)
	if err != nil {
		return nil, err
	}
	line := strconv.AppendUint([]byte(`{"seq":`), seq, 10)
	line = appendString(append(line, `,"prev":`...), prev)
	line = append(append(append(line, `,"hash":"`...), r.Hash...), `",`...)
	return append(append(line, rest[1:]...), '\n'), nil
}

// jsonMembers marshals r, its tool arguments in canonical form as the encoder writes
// them, and returns its top-level members without "hash".
func jsonMembers(r *Record) (map[string]json.RawMessage, error) {
	cp := *r
	cp.Hash = ""
	if r.ToolCalls != nil {
		cp.ToolCalls = make([]ToolCall, len(r.ToolCalls))
		for i, c := range r.ToolCalls {
			if len(c.Arguments) > 0 {
				c.Arguments = canonicalArguments(c.Arguments)
			}
			cp.ToolCalls[i] = c
		}
	}
	raw, err := json.Marshal(&cp)
	if err != nil {
		return nil, err
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(raw, &members); err != nil {
		return nil, err
	}
	delete(members, "hash")
	return members, nil
}

// canonicalMembers returns the JCS form of an object's members.
func canonicalMembers(m map[string]json.RawMessage) ([]byte, error) {
	raw, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	if len(m) == 0 {
		return nil, errors.New("audit: an empty record")
	}
	return jcs.Transform(raw)
}
