package audit

import (
	"bytes"
	"time"
)

// shipMemory is the ShipFailClosed loop: batches from memory, retried until delivered.
func (s *Shipper) shipMemory() {
	defer s.wg.Done()
	deadline := time.Time{}
	for {
		closing := s.isClosed() // before reading mem: then nothing enqueued is left behind
		s.mu.Lock()
		n := min(len(s.mem), s.opts.Batch)
		batch := s.mem[:n:n]
		s.mu.Unlock()
		if n == 0 {
			if closing {
				return
			}
			s.wait()
			continue
		}
		if n < s.opts.Batch && !s.isClosed() {
			s.sleep(s.opts.FlushInterval)
		}
		if !s.deliver(bytes.Join(batch, nil), &deadline) {
			return
		}
		s.mu.Lock()
		s.mem = s.mem[n:]
		s.mu.Unlock()
	}
}

// shipSpool is the ShipSpool loop: batches read from the spool, acknowledged there once
// delivered.
func (s *Shipper) shipSpool() {
	defer s.wg.Done()
	deadline := time.Time{}
	for {
		done := s.isClosed() && s.spoolerDone() // before the read: then the read sees all
		body, lines, end, err := s.spool.read(s.opts.Batch)
		if err != nil {
			s.log.Error("audit spool unreadable; shipping stopped", "spool", s.spool.path, "err", err)
			return
		}
		if lines == 0 {
			if done {
				return
			}
			s.waitSpool()
			continue
		}
		if lines < s.opts.Batch && !s.isClosed() {
			s.sleep(s.opts.FlushInterval) // let the batch fill, then send what is there
			if body, _, end, err = s.spool.read(s.opts.Batch); err != nil {
				continue
			}
		}
		if !s.deliver(body, &deadline) {
			return
		}
		if err := s.spool.ack(end); err != nil {
			s.log.Error("audit spool offset not saved (records may be sent again at the next start)", "err", err)
		}
	}
}

// spoolLoop moves accepted lines from memory to the spool file.
func (s *Shipper) spoolLoop() {
	defer s.wg.Done()
	defer close(s.spool.flushed)
	for {
		closing := s.isClosed() // before the swap: then the swap takes the last lines
		s.mu.Lock()
		lines := s.mem
		s.mem = nil
		s.mu.Unlock()
		if len(lines) > 0 {
			if err := s.spool.append(bytes.Join(lines, nil)); err != nil {
				s.mu.Lock()
				s.mem = append(lines, s.mem...) // keep the order; retried below
				s.mu.Unlock()
				s.log.Error("audit spool write failed", "spool", s.spool.path, "err", err)
				s.sleep(s.opts.MinBackoff)
				continue
			}
		}
		if closing {
			return
		}
		s.wait()
	}
}

// waitSpool waits until the spool grows, the shipper closes, or FlushInterval passes.
func (s *Shipper) waitSpool() {
	t := time.NewTimer(s.opts.FlushInterval)
	defer t.Stop()
	select {
	case <-s.spool.grew:
	case <-s.spool.flushed:
		time.Sleep(time.Millisecond)
	case <-t.C:
	}
}

func (s *Shipper) spoolerDone() bool {
	select {
	case <-s.spool.flushed:
		return true
	default:
		return false
	}
}

// deliver POSTs body until it is accepted; false when the shipper closed and
// CloseTimeout passed without delivering it.
func (s *Shipper) deliver(body []byte, deadline *time.Time) bool {
	backoff := s.opts.MinBackoff
	for {
		err := s.post.send(body)
		s.setDown(err)
		if err == nil {
			return true
		}
		if s.isClosed() {
			if deadline.IsZero() {
				*deadline = time.Now().Add(s.opts.CloseTimeout)
			}
			if time.Now().After(*deadline) {
				return false
			}
		}
		s.sleep(backoff)
		backoff = min(2*backoff, s.opts.MaxBackoff)
	}
}

// wait blocks until lines are enqueued or the shipper closes (then false).
func (s *Shipper) wait() bool {
	select {
	case <-s.wake:
		return true
	case <-s.closed:
		return false
	}
}

// sleep waits d, or less when the shipper closes.
func (s *Shipper) sleep(d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-s.closed:
		time.Sleep(min(d, 10*time.Millisecond))
	}
}

func (s *Shipper) isClosed() bool {
	select {
	case <-s.closed:
		return true
	default:
		return false
	}
}
