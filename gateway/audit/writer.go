package audit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
)

// Writer appends records to a sink, continuing the hash chain. It is safe for concurrent
// use: records are serialized, and each is written with a single Write call.
type Writer struct {
	mu     sync.Mutex
	w      io.Writer
	closer io.Closer
	seq    uint64
	prev   string
	line   []byte // the line being written, reused (an io.Writer does not keep it)
}

// NewWriter starts a new chain on w (stdout, a test buffer).
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Open opens (or creates) the file at path for appending and resumes the chain from its
// last record. A last line cut short by a crash is terminated with a newline and left for
// `weir audit verify` to report; the chain continues from the last complete record.
func Open(path string) (*Writer, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	w := &Writer{w: f, closer: f}
	if err := w.resume(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("audit: %s: %w", path, err)
	}
	return w, nil
}

// Write seals r (seq, prev, hash) and appends it. On error the chain does not advance, so
// the next record links to the last one written; the caller decides whether to fail
// closed or count and log.
//
// The record is encoded before the lock is taken; under the lock it is only linked to
// the previous record (its hash) and written.
func (w *Writer) Write(r *Record) error {
	e := encoders.Get().(*encoded)
	defer encoders.Put(e)
	ok, err := e.encode(r)
	if err != nil {
		return fmt.Errorf("audit: encode: %w", err)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	var line []byte
	if ok {
		line = e.link(w.line[:0], w.seq+1, w.prev, r)
		w.line = line[:0]
	} else if line, err = sealJSON(r, w.seq+1, w.prev); err != nil {
		return fmt.Errorf("audit: encode: %w", err)
	}
	if _, err := w.w.Write(line); err != nil {
		return fmt.Errorf("audit: write: %w", err)
	}
	w.seq, w.prev = r.Seq, r.Hash
	return nil
}

// encoders recycles the buffers records are encoded into.
var encoders = sync.Pool{New: func() any { return new(encoded) }}

// Close flushes the file to disk and closes it; for other sinks it does nothing.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if f, ok := w.closer.(*os.File); ok {
		_ = f.Sync()
	}
	if w.closer != nil {
		return w.closer.Close()
	}
	return nil
}

func (w *Writer) resume(f *os.File) error {
	st, err := f.Stat()
	if err != nil || st.Size() == 0 {
		return err
	}
	last, complete, err := lastLines(f, st.Size())
	if err != nil {
		return err
	}
	if !complete {
		if _, err := f.Write([]byte{'\n'}); err != nil {
			return err
		}
	}
	for _, line := range last {
		var head struct {
			Seq  uint64 `json:"seq"`
			Hash string `json:"hash"`
		}
		if json.Unmarshal(line, &head) == nil && head.Hash != "" {
			w.seq, w.prev = head.Seq, head.Hash
			return nil
		}
	}
	return errors.New("no complete record at the end of the file to resume the chain from")
}

// lastLines returns the file's last two lines (newest first), reading backwards from the
// end in growing chunks, and whether the file ends with a newline.
func lastLines(f *os.File, size int64) ([][]byte, bool, error) {
	chunk := int64(64 << 10)
	for {
		if chunk > size {
			chunk = size
		}
		buf := make([]byte, chunk)
		if _, err := f.ReadAt(buf, size-chunk); err != nil && err != io.EOF {
			return nil, false, err
		}
		complete := buf[len(buf)-1] == '\n'
		body := bytes.TrimRight(buf, "\n")
		lines := bytes.Split(body, []byte{'\n'})
		// Enough when two whole lines are in the buffer, or the buffer is the whole file.
		if len(lines) >= 3 || chunk == size {
			out := [][]byte{}
			for i := len(lines) - 1; i >= 0 && len(out) < 2; i-- {
				if chunk < size && i == 0 {
					break // the first line of a chunk may be cut
				}
				out = append(out, lines[i])
			}
			return out, complete, nil
		}
		chunk *= 4
	}
}
