package audit

import (
	"errors"
	"io"
	"os"
	"sync"
	"time"
)

// checkpointer writes signed checkpoints of the writer's chain. Its methods run under the
// writer's lock, but for the interval goroutine, which takes it.
type checkpointer struct {
	opts    CheckpointOptions
	out     io.Writer
	file    *os.File
	now     func() time.Time
	w       *Writer
	pending int // records since the last checkpoint
	seq     uint64
	hash    string
	stop    chan struct{}
	done    sync.WaitGroup
}

func newCheckpointer(opts CheckpointOptions, now func() time.Time, w *Writer) (*checkpointer, error) {
	if opts.Key == nil {
		return nil, errors.New("no signing key")
	}
	c := &checkpointer{opts: opts, out: opts.Out, now: now, w: w, seq: w.seq, hash: w.prev, stop: make(chan struct{})}
	if opts.Path != "" {
		f, err := os.OpenFile(opts.Path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
		if err != nil {
			return nil, err
		}
		c.out, c.file = f, f
	}
	if opts.Interval > 0 {
		c.done.Add(1)
		go c.tick()
	}
	return c, nil
}

// recorded notes a record written and checkpoints every Every records.
func (c *checkpointer) recorded(seq uint64, hash string) {
	c.seq, c.hash = seq, hash
	c.pending++
	if c.opts.Every > 0 && c.pending >= c.opts.Every {
		_ = c.emit() // logged by emit; the next checkpoint covers these records
	}
}

// emit writes a checkpoint of the last record when records were written since the last
// one. A checkpoint that cannot be written is logged; the next one covers its records.
func (c *checkpointer) emit() error {
	if c.pending == 0 {
		return nil
	}
	cp, err := SignCheckpoint(c.opts.Key, c.seq, c.hash, c.now())
	var line []byte
	if err == nil {
		line, err = cp.Line()
	}
	if err == nil {
		_, err = c.out.Write(line)
	}
	if err != nil {
		c.w.log.Error("audit checkpoint not written", "seq", c.seq, "err", err)
		return err
	}
	c.pending = 0
	return nil
}

func (c *checkpointer) tick() {
	defer c.done.Done()
	t := time.NewTicker(c.opts.Interval)
	defer t.Stop()
	for {
		select {
		case <-c.stop:
			return
		case <-t.C:
			c.w.mu.Lock()
			_ = c.emit()
			c.w.mu.Unlock()
		}
	}
}

// close writes the last checkpoint and closes the checkpoint file.
func (c *checkpointer) close() error {
	close(c.stop)
	c.done.Wait()
	c.w.mu.Lock()
	err := c.emit()
	c.w.mu.Unlock()
	if c.file != nil {
		_ = c.file.Sync()
		err = errors.Join(err, c.file.Close())
	}
	return err
}
