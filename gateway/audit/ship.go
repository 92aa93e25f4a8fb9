package audit

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"
)

// ShipOptions configure the HTTP sink: batches of record lines POSTed in order
// (Content-Type application/x-ndjson, X-Weir-Audit-First-Seq naming the batch's first seq),
// a 2xx answer meaning delivered; anything else is retried with exponential backoff.
type ShipOptions struct {
	URL     string
	Headers map[string]string // e.g. Authorization
	// OnError is ShipSpool (records pass through the spool file, so a sink that is down
	// or slow makes it grow and it is replayed in order when the sink is back; requests
	// are served) or ShipFailClosed (records wait in memory; while the sink is down or
	// MaxPending records wait, Writer.Write fails, so requests are refused).
	OnError       string
	Spool         string        // the spool file, required with ShipSpool
	Batch         int           // lines per POST; default 500
	FlushInterval time.Duration // how long a partial batch waits; default 1s
	Timeout       time.Duration // per POST; default 10s
	MinBackoff    time.Duration // first retry delay; default 100ms, doubling
	MaxBackoff    time.Duration // default 30s
	MaxPending    int           // records held in memory; default 10000
	CloseTimeout  time.Duration // how long Close tries to deliver; default 5s
	Client        *http.Client
}

// The values of ShipOptions.OnError.
const (
	ShipSpool      = "spool"
	ShipFailClosed = "fail_closed"
)

// ErrSinkDown is returned by Writer.Write, with ShipFailClosed, while the HTTP sink cannot
// take records.
var ErrSinkDown = errors.New("audit: the HTTP sink is down")

// Shipper delivers record lines to an HTTP sink, each exactly once and in order (a
// receiver that also dedups by seq survives a crash between a delivery and its
// acknowledgement in the spool).
type Shipper struct {
	opts   ShipOptions
	log    *slog.Logger
	mu     sync.Mutex
	mem    [][]byte // accepted lines not yet spooled (spool) or delivered (fail_closed)
	down   bool     // the last POST failed
	spool  *spool
	wake   chan struct{}
	closed chan struct{}
	wg     sync.WaitGroup
	post   poster
}

// NewShipper starts shipping; with ShipSpool it first replays what the spool holds.
func NewShipper(opts ShipOptions, log *slog.Logger) (*Shipper, error) {
	opts.defaults()
	s := &Shipper{opts: opts, log: log, wake: make(chan struct{}, 1), closed: make(chan struct{}),
		post: poster{opts: &opts}}
	switch opts.OnError {
	case ShipSpool:
		sp, err := openSpool(opts.Spool)
		if err != nil {
			return nil, err
		}
		s.spool = sp
		s.wg.Add(2)
		go s.spoolLoop()
		go s.shipSpool()
	case ShipFailClosed:
		s.wg.Add(1)
		go s.shipMemory()
	default:
		return nil, fmt.Errorf("ship: on_error must be %s or %s, not %q", ShipSpool, ShipFailClosed, opts.OnError)
	}
	return s, nil
}

func (o *ShipOptions) defaults() {
	setDefault(&o.Batch, 500)
	setDefault(&o.MaxPending, 10000)
	setDefault(&o.FlushInterval, time.Second)
	setDefault(&o.Timeout, 10*time.Second)
	setDefault(&o.MinBackoff, 100*time.Millisecond)
	setDefault(&o.MaxBackoff, 30*time.Second)
	setDefault(&o.CloseTimeout, 5*time.Second)
	if o.Client == nil {
		o.Client = &http.Client{Timeout: o.Timeout}
	}
}

func setDefault[T int | time.Duration](v *T, d T) {
	if *v <= 0 {
		*v = d
	}
}

// reserve says whether a record may be written now; it runs under the writer's lock,
// before the record is written anywhere.
func (s *Shipper) reserve() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.spool != nil && len(s.mem) >= s.opts.MaxPending:
		return fmt.Errorf("audit: %d records wait to be spooled: %w", len(s.mem), s.spool.lastError())
	case s.spool == nil && s.down:
		return ErrSinkDown
	case s.spool == nil && len(s.mem) >= s.opts.MaxPending:
		return fmt.Errorf("%w: %d records wait for it", ErrSinkDown, len(s.mem))
	}
	return nil
}

// enqueue takes a copy of a written record's line.
func (s *Shipper) enqueue(line []byte) {
	s.mu.Lock()
	s.mem = append(s.mem, append([]byte(nil), line...))
	n := len(s.mem)
	s.mu.Unlock()
	if s.spool != nil || n == 1 || n >= s.opts.Batch {
		select {
		case s.wake <- struct{}{}:
		default:
		}
	}
}

// Close delivers what it can within CloseTimeout and stops; with ShipSpool the rest
// stays in the spool for the next start.
func (s *Shipper) Close() error {
	close(s.closed)
	s.wg.Wait()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.spool != nil {
		return s.spool.close()
	}
	if n := len(s.mem); n > 0 {
		return fmt.Errorf("audit: %d records were not delivered to %s (they are in the local trail)", n, s.opts.URL)
	}
	return nil
}

// setDown records a POST's result and logs the transitions.
func (s *Shipper) setDown(err error) {
	s.mu.Lock()
	was := s.down
	s.down = err != nil
	s.mu.Unlock()
	switch {
	case err != nil && !was:
		s.log.Error("audit sink down; retrying with backoff", "url", s.opts.URL, "err", err)
	case err == nil && was:
		s.log.Info("audit sink back; delivering in order", "url", s.opts.URL)
	}
}
