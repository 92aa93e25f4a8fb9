package audit

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strconv"

	"github.com/gowebpki/jcs"
)

// head is what the chain needs of a record line.
type head struct {
	seq        uint64
	prev, hash string
	format     string
}

// parseHead reads a line's chain members and checks its hash, in the JCS format or else
// in the legacy one. The error says why the line is not an intact record.
func parseHead(raw []byte) (head, error) {
	var h head
	canon, err := jcs.Transform(raw)
	if err != nil {
		return h, errors.New("not a JSON record: " + err.Error())
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(canon, &members); err != nil {
		return h, errors.New("not a JSON object: " + err.Error())
	}
	if h.seq, err = strconv.ParseUint(string(members["seq"]), 10, 64); err != nil {
		return h, errors.New("no valid seq")
	}
	if json.Unmarshal(members["hash"], &h.hash) != nil || h.hash == "" {
		return h, errors.New("no hash")
	}
	if json.Unmarshal(members["prev"], &h.prev) != nil {
		return h, errors.New("no prev")
	}
	if h.format, err = hashFormat(raw, members, h); err != nil {
		return h, err
	}
	return h, nil
}

// hashFormat returns the format whose hash the record carries, or an error when neither
// matches.
func hashFormat(raw []byte, members map[string]json.RawMessage, h head) (string, error) {
	delete(members, "hash")
	canon, err := canonicalMembers(members)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(canon)
	if hex.EncodeToString(sum[:]) == h.hash {
		return FormatJCS, nil
	}
	if legacy, err := legacyCanonical(raw); err == nil && legacyHash(h.prev, legacy) == h.hash {
		return FormatLegacy, nil
	}
	return "", errors.New("record altered: its hash does not match its content")
}
