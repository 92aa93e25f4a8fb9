package audit

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// Break describes the first place where a chain does not hold.
type Break struct {
	File   string // the file, when the trail was read from files
	Line   int    // 1-based line in the file; 0 when the break is past the end
	Seq    uint64 // the seq the record carries (or the first missing one), 0 when unknown
	Reason string
}

// Error formats the break as "FILE:line N (seq S): reason".
func (b *Break) Error() string {
	where := ""
	if b.File != "" {
		where = b.File + ": "
	}
	if b.Line > 0 {
		where += fmt.Sprintf("line %d ", b.Line)
	}
	if b.Seq != 0 {
		where += fmt.Sprintf("(seq %d)", b.Seq)
	}
	if where == "" {
		return b.Reason
	}
	return fmt.Sprintf("%s: %s", trimSpace(where), b.Reason)
}

func trimSpace(s string) string {
	for len(s) > 0 && s[len(s)-1] == ' ' {
		s = s[:len(s)-1]
	}
	return s
}

// maxLine bounds one record; a longer line is reported as broken.
const maxLine = 64 << 20

// Verify reads one trail and checks every record: its hash, its link to the previous
// record and its sequence number. It returns the number of intact records and the first
// Break (nil when the chain is intact); err is an I/O error. A Verifier checks a trail
// spread over rotated files, and against checkpoints.
func Verify(r io.Reader) (records int, brk *Break, err error) {
	v := NewVerifier()
	brk, err = v.Read("", r)
	return v.Records, brk, err
}

// Verifier checks a trail fed to it file by file, in order: the chain continues from one
// file to the next. It is not safe for concurrent use.
type Verifier struct {
	Records  int      // intact records so far
	LastSeq  uint64   // the last intact record's seq
	LastHash string   // and its hash
	Formats  []Format // the hash formats met, in order

	checkpoints map[uint64]Checkpoint
}

// Format is a run of consecutive records that use one hash format: FormatJCS, or
// FormatLegacy for trails written before RFC 8785 hashing.
type Format struct {
	Name     string
	From, To uint64
}

// The hash formats a trail may use.
const (
	FormatJCS    = "jcs"
	FormatLegacy = "legacy"
)

// NewVerifier returns a Verifier for a trail that starts at seq 1.
func NewVerifier() *Verifier { return &Verifier{} }

// Read checks the records of one file (name is used in the Break) and returns the first
// Break; err is an I/O error.
func (v *Verifier) Read(name string, r io.Reader) (*Break, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	for line := 1; ; line++ {
		raw, rerr := br.ReadSlice('\n')
		if errors.Is(rerr, bufio.ErrBufferFull) {
			raw, rerr = readLong(br, raw)
		}
		if len(raw) == 0 && rerr == io.EOF {
			return nil, nil
		}
		if rerr != nil && rerr != io.EOF {
			return nil, fmt.Errorf("%s: %w", name, rerr)
		}
		if brk := v.line(raw); brk != nil {
			brk.File, brk.Line = name, line
			return brk, nil
		}
	}
}

// readLong reads the rest of a line longer than the reader's buffer, up to maxLine.
func readLong(br *bufio.Reader, first []byte) ([]byte, error) {
	buf := append([]byte(nil), first...)
	for len(buf) <= maxLine {
		more, err := br.ReadSlice('\n')
		buf = append(buf, more...)
		if !errors.Is(err, bufio.ErrBufferFull) {
			return buf, err
		}
	}
	return buf, nil
}

// line checks one line against the chain so far and advances it.
func (v *Verifier) line(raw []byte) *Break {
	if len(raw) > maxLine {
		return &Break{Seq: v.LastSeq + 1, Reason: "line too long"}
	}
	truncated := raw[len(raw)-1] != '\n'
	rec, reason := v.check(raw)
	if reason != "" {
		if truncated {
			reason = "truncated record (the file ends mid-line): " + reason
		}
		return &Break{Seq: rec.seq, Reason: reason}
	}
	v.Records++
	v.LastSeq, v.LastHash = rec.seq, rec.hash
	if n := len(v.Formats); n > 0 && v.Formats[n-1].Name == rec.format {
		v.Formats[n-1].To = rec.seq
	} else {
		v.Formats = append(v.Formats, Format{Name: rec.format, From: rec.seq, To: rec.seq})
	}
	return nil
}

// check verifies one line against its predecessor and returns its chain members, or
// why it fails.
func (v *Verifier) check(raw []byte) (head, string) {
	h, err := parseHead(raw)
	first := v.Records == 0
	switch {
	case err != nil:
		return h, err.Error()
	case first && h.seq != 1:
		return h, fmt.Sprintf("the trail starts at seq %d: records 1..%d are missing", h.seq, h.seq-1)
	case !first && h.seq != v.LastSeq+1:
		return h, fmt.Sprintf("expected seq %d after seq %d: a record is missing or out of order", v.LastSeq+1, v.LastSeq)
	case h.prev != v.LastHash:
		return h, "chain broken: prev does not match the previous record's hash (a record was altered, removed or replaced)"
	}
	if cp, ok := v.checkpoints[h.seq]; ok && cp.Hash != h.hash {
		return h, fmt.Sprintf("differs from the signed checkpoint of seq %d (hash %s, checkpoint %s)", h.seq, h.hash, cp.Hash)
	}
	return h, ""
}
