package audit

import (
	"bufio"
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"
)

// Checkpoint is a signed statement that record Seq of a trail has hash Hash. Checkpoints
// are written to their own file (or sink), away from the trail: removing the trail's last
// records then shows, because a checkpoint names a seq the trail no longer has. Sig is
// the standard base64 (RFC 4648, padded) Ed25519 signature of the checkpoint's JCS form
// without "sig": {"hash":…,"key_id":…,"seq":…,"time":…}.
type Checkpoint struct {
	Seq   uint64    `json:"seq"`
	Hash  string    `json:"hash"`
	Time  time.Time `json:"time"`
	KeyID string    `json:"key_id"`
	Sig   string    `json:"sig"`
}

// signed returns the bytes the signature covers.
func (c *Checkpoint) signed() ([]byte, error) {
	b := appendString([]byte(`{"hash":`), c.Hash)
	b = appendString(append(b, `,"key_id":`...), c.KeyID)
	b = strconv.AppendUint(append(b, `,"seq":`...), c.Seq, 10)
	b = append(b, `,"time":`...)
	b, err := c.Time.UTC().AppendText(append(b, '"'))
	if err != nil {
		return nil, err
	}
	return append(b, `"}`...), nil
}

// SignCheckpoint returns the checkpoint of record seq with hash, signed with key.
func SignCheckpoint(key ed25519.PrivateKey, seq uint64, hash string, at time.Time) (Checkpoint, error) {
	c := Checkpoint{Seq: seq, Hash: hash, Time: at.UTC(), KeyID: KeyID(key.Public().(ed25519.PublicKey))}
	msg, err := c.signed()
	if err != nil {
		return c, err
	}
	c.Sig = base64.StdEncoding.EncodeToString(ed25519.Sign(key, msg))
	return c, nil
}

// Line returns the checkpoint as a JSON line in canonical member order.
func (c *Checkpoint) Line() ([]byte, error) {
	msg, err := c.signed()
	if err != nil {
		return nil, err
	}
	msg = appendString(append(msg[:len(msg)-1], `,"sig":`...), c.Sig)
	return append(msg, '}', '\n'), nil
}

// Verify checks the checkpoint's signature with pub.
func (c *Checkpoint) Verify(pub ed25519.PublicKey) error {
	if id := KeyID(pub); c.KeyID != id {
		return fmt.Errorf("signed with key %s, not with the given public key (%s)", c.KeyID, id)
	}
	sig, err := base64.StdEncoding.DecodeString(c.Sig)
	if err != nil {
		return errors.New("sig is not base64")
	}
	msg, err := c.signed()
	if err != nil {
		return err
	}
	if !ed25519.Verify(pub, msg, sig) {
		return errors.New("the signature does not verify: the checkpoint was altered or forged")
	}
	return nil
}

// ReadCheckpoints reads a checkpoint file and verifies every signature with pub. Errors
// name the file, the line and the checkpoint's seq.
func ReadCheckpoints(name string, r io.Reader, pub ed25519.PublicKey) ([]Checkpoint, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4096), 1<<20)
	var out []Checkpoint
	for line := 1; sc.Scan(); line++ {
		var c Checkpoint
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&c); err != nil {
			return nil, fmt.Errorf("%s:%d: not a checkpoint: %v", name, line, err)
		}
		if err := c.Verify(pub); err != nil {
			return nil, fmt.Errorf("%s:%d (seq %d): %v", name, line, c.Seq, err)
		}
		if n := len(out); n > 0 && c.Seq < out[n-1].Seq {
			return nil, fmt.Errorf("%s:%d (seq %d): checkpoints out of order (after seq %d)", name, line, c.Seq, out[n-1].Seq)
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return out, nil
}

// UseCheckpoints makes the verifier compare every record a checkpoint names with it, and
// Finish report a trail that ends before the last checkpoint.
func (v *Verifier) UseCheckpoints(cps []Checkpoint) {
	v.checkpoints = make(map[uint64]Checkpoint, len(cps))
	for _, c := range cps {
		v.checkpoints[c.Seq] = c
	}
}

// Finish is called after the last file: with checkpoints, it returns a Break when the
// trail is shorter than a checkpoint says, naming the first missing seq.
func (v *Verifier) Finish() *Break {
	var last uint64
	for seq := range v.checkpoints {
		last = max(last, seq)
	}
	if last <= v.LastSeq {
		return nil
	}
	return &Break{Seq: v.LastSeq + 1, Reason: fmt.Sprintf(
		"the trail ends at seq %d but a signed checkpoint covers seq %d: records %d..%d were removed",
		v.LastSeq, last, v.LastSeq+1, last)}
}

// VerifyFiles verifies a trail spread over files, given in chain order, against
// checkpoints (none: the trail alone). It returns the verifier (records, formats) and
// the first Break; err is an I/O error.
func VerifyFiles(files []string, cps []Checkpoint) (*Verifier, *Break, error) {
	v := NewVerifier()
	if cps != nil {
		v.UseCheckpoints(cps)
	}
	for _, name := range files {
		brk, err := verifyFile(v, name)
		if brk != nil || err != nil {
			return v, brk, err
		}
	}
	return v, v.Finish(), nil
}

func verifyFile(v *Verifier, name string) (*Break, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return v.Read(name, f)
}
