package audit

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"
)

// Options configure a Writer.
type Options struct {
	// Path is the trail file; empty writes to Out (stdout, a test buffer) instead.
	Path string
	Out  io.Writer
	// Rotate rotates Path by size or age; the chain continues in the next file.
	Rotate Rotate
	// Checkpoint, when set, writes signed checkpoints of the chain.
	Checkpoint *CheckpointOptions
	// Ship, when set, also sends every record to an HTTP sink.
	Ship *ShipOptions
	// Log receives what cannot be returned to a caller (a failed checkpoint, a sink
	// that went down and came back). Default slog.Default().
	Log *slog.Logger
	// Now is the clock (tests); default time.Now.
	Now func() time.Time
}

// CheckpointOptions configure signed checkpoints: one after every Every records and one
// every Interval when records were written since the last, and one at Close.
type CheckpointOptions struct {
	Path     string
	Out      io.Writer // instead of Path (tests)
	Every    int
	Interval time.Duration
	Key      ed25519.PrivateKey
}

// Writer appends records to the trail, continuing the hash chain. It is safe for
// concurrent use: records are serialized, and each is written with a single Write call.
type Writer struct {
	mu   sync.Mutex
	w    io.Writer // where lines go: the rotating file, or Options.Out
	file *rotFile  // nil when writing to Out
	cp   *checkpointer
	ship *Shipper
	log  *slog.Logger
	seq  uint64
	prev string
	line []byte // the line being written, reused (an io.Writer does not keep it)
}

// NewWriter starts a new chain on w (stdout, a test buffer).
func NewWriter(w io.Writer) *Writer { return &Writer{w: w, log: slog.Default()} }

// Open opens (or creates) the file at path for appending and resumes the chain from its
// last record. A last line cut short by a crash is terminated with a newline and left for
// `weir audit verify` to report; the chain continues from the last complete record.
func Open(path string) (*Writer, error) { return New(Options{Path: path}) }

// New opens the trail opts describe, resuming the chain from the last record of the
// file or of its newest rotated file, and starts the checkpointer and the shipper.
func New(opts Options) (*Writer, error) {
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	w := &Writer{w: opts.Out, log: opts.Log}
	if opts.Path != "" {
		f, seq, prev, err := openRotating(opts.Path, opts.Rotate, opts.Now)
		if err != nil {
			return nil, fmt.Errorf("audit: %w", err)
		}
		w.w, w.file, w.seq, w.prev = f, f, seq, prev
	}
	var err error
	if opts.Checkpoint != nil {
		if w.cp, err = newCheckpointer(*opts.Checkpoint, opts.Now, w); err != nil {
			_ = w.closeFile()
			return nil, fmt.Errorf("audit: checkpoint: %w", err)
		}
	}
	if opts.Ship != nil {
		if w.ship, err = NewShipper(*opts.Ship, opts.Log); err != nil {
			_ = w.closeFile()
			return nil, fmt.Errorf("audit: %w", err)
		}
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
	if w.ship != nil {
		if err := w.ship.reserve(); err != nil {
			return err
		}
	}
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
	if w.ship != nil {
		w.ship.enqueue(line)
	}
	w.seq, w.prev = r.Seq, r.Hash
	if w.cp != nil {
		w.cp.recorded(r.Seq, r.Hash)
	}
	return nil
}

// encoders recycles the buffers records are encoded into.
var encoders = sync.Pool{New: func() any { return new(encoded) }}

// Close writes a last checkpoint, delivers what the shipper still holds (or leaves it in
// its spool), and flushes the file to disk and closes it.
func (w *Writer) Close() error {
	var errs []error
	if w.cp != nil {
		errs = append(errs, w.cp.close())
	}
	if w.ship != nil {
		errs = append(errs, w.ship.Close())
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return errors.Join(append(errs, w.closeFile())...)
}

func (w *Writer) closeFile() error {
	if w.file == nil {
		return nil
	}
	return w.file.Close()
}

// Files returns the trail's files in chain order: the rotated files of path, oldest
// first, then path itself when it exists.
func Files(path string) ([]string, error) { return trailFiles(path) }
