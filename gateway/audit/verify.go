package audit

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// Break describes the first place where a chain does not hold.
type Break struct {
	Line   int    // 1-based line in the file
	Seq    uint64 // the seq the record carries, or 0 when it has none
	Reason string
}

// Error formats the break as "line N (seq S): reason".
func (b *Break) Error() string {
	if b.Seq == 0 {
		return fmt.Sprintf("line %d: %s", b.Line, b.Reason)
	}
	return fmt.Sprintf("line %d (seq %d): %s", b.Line, b.Seq, b.Reason)
}

// maxLine bounds one record; a longer line is reported as broken.
const maxLine = 64 << 20

// Verify reads a trail and checks every record: its hash, its link to the previous record
// and its sequence number. It returns the number of intact records and the first Break
// (nil when the chain is intact); err is an I/O error.
func Verify(r io.Reader) (records int, brk *Break, err error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var prevHash string
	var prevSeq uint64
	for line := 1; ; line++ {
		raw, rerr := br.ReadBytes('\n')
		if len(raw) == 0 && rerr == io.EOF {
			return records, nil, nil
		}
		if rerr != nil && rerr != io.EOF {
			return records, nil, rerr
		}
		if len(raw) > maxLine {
			return records, &Break{Line: line, Reason: "line too long"}, nil
		}
		truncated := raw[len(raw)-1] != '\n'
		seq, hash, reason := check(raw, prevHash, prevSeq, records == 0)
		if reason != "" {
			if truncated {
				reason = "truncated record (the file ends mid-line): " + reason
			}
			return records, &Break{Line: line, Seq: seq, Reason: reason}, nil
		}
		records++
		prevHash, prevSeq = hash, seq
	}
}

// check verifies one line against its predecessor and returns its seq and hash, or why it
// fails.
func check(raw []byte, prevHash string, prevSeq uint64, first bool) (uint64, string, string) {
	fields, canon, err := canonical(raw)
	if err != nil {
		return 0, "", "not a JSON record: " + err.Error()
	}
	seq, serr := seqOf(fields["seq"])
	hash, _ := fields["hash"].(string)
	prev, _ := fields["prev"].(string)
	switch {
	case serr != nil:
		return 0, "", "no valid seq: " + serr.Error()
	case hash == "":
		return seq, "", "no hash"
	case chainHash(prev, canon) != hash:
		return seq, "", "record altered: its hash does not match its content"
	case first && seq != 1:
		return seq, "", fmt.Sprintf("the trail starts at seq %d: records 1..%d are missing", seq, seq-1)
	case !first && seq != prevSeq+1:
		return seq, "", fmt.Sprintf("expected seq %d after seq %d: a record is missing or out of order", prevSeq+1, prevSeq)
	case prev != prevHash:
		return seq, "", "chain broken: prev does not match the previous record's hash (a record was altered, removed or replaced)"
	}
	return seq, hash, ""
}

func seqOf(v any) (uint64, error) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, errors.New("missing or not a number")
	}
	return strconv.ParseUint(string(n), 10, 64)
}
