package audit

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
)

// spool is the shipper's queue on disk: record lines appended in order, delivered from
// off on. off is kept in <spool>.offset after every delivered batch, so a restart replays
// only what was not delivered; once everything is delivered the spool is emptied.
type spool struct {
	path    string
	f       *os.File
	mu      sync.Mutex
	off     int64 // delivered up to here
	size    int64 // written up to here
	err     error // the last append's error
	grew    chan struct{}
	flushed chan struct{} // closed when the spooler has written its last lines
}

// openSpool opens the spool and checks that what it holds past its offset are complete
// record lines; an error names the file and line.
func openSpool(path string) (*spool, error) {
	if path == "" {
		return nil, errors.New("ship: on_error spool needs a spool file")
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("spool: %w", err)
	}
	s := &spool{path: path, f: f, grew: make(chan struct{}, 1), flushed: make(chan struct{})}
	if err := s.load(); err != nil {
		f.Close()
		return nil, err
	}
	return s, nil
}

// load reads the offset and checks the lines not yet delivered.
func (s *spool) load() error {
	b, err := os.ReadFile(s.path)
	if err != nil {
		return fmt.Errorf("spool: %w", err)
	}
	s.size = int64(len(b))
	if off, err := os.ReadFile(s.path + ".offset"); err == nil {
		n, perr := strconv.ParseInt(strings.TrimSpace(string(off)), 10, 64)
		if perr != nil || n < 0 || n > s.size {
			return fmt.Errorf("spool: %s.offset: %q is not an offset into %s (%d bytes)", s.path, off, s.path, s.size)
		}
		s.off = n
	} else if !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("spool: %w", err)
	}
	line := 1 + bytes.Count(b[:s.off], []byte{'\n'})
	for rest := b[s.off:]; len(rest) > 0; line++ {
		l, tail, ok := bytes.Cut(rest, []byte{'\n'})
		if !ok {
			return fmt.Errorf("spool: %s:%d: the last line is cut short (a crash while spooling); its record is in the trail — remove the partial line to go on", s.path, line)
		}
		if _, ok := firstSeq(l); !ok {
			return fmt.Errorf("spool: %s:%d: not an audit record line", s.path, line)
		}
		rest = tail
	}
	return nil
}

func (s *spool) append(b []byte) error {
	s.mu.Lock()
	n, err := s.f.Write(b)
	s.size += int64(n)
	s.err = err
	s.mu.Unlock()
	if err != nil {
		return err
	}
	select {
	case s.grew <- struct{}{}:
	default:
	}
	return nil
}

func (s *spool) lastError() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err == nil {
		return errors.New("the spool is behind")
	}
	return s.err
}

// read returns up to max lines from off on, the number of lines and where they end.
func (s *spool) read(max int) (body []byte, lines int, end int64, err error) {
	s.mu.Lock()
	off, size := s.off, s.size
	s.mu.Unlock()
	for chunk := int64(1 << 20); off < size; chunk *= 4 {
		buf := make([]byte, min(chunk, size-off))
		if _, err := s.f.ReadAt(buf, off); err != nil {
			return nil, 0, 0, fmt.Errorf("%s: %w", s.path, err)
		}
		cut := 0
		for lines < max {
			i := bytes.IndexByte(buf[cut:], '\n')
			if i < 0 {
				break
			}
			cut += i + 1
			lines++
		}
		if lines > 0 {
			return buf[:cut], lines, off + int64(cut), nil
		}
		if int64(len(buf)) == size-off {
			return nil, 0, 0, fmt.Errorf("%s: a line at byte %d has no end", s.path, off)
		}
	}
	return nil, 0, off, nil
}

// ack marks everything before end delivered; an emptied spool is truncated.
func (s *spool) ack(end int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.off = end
	if s.off == s.size {
		s.off, s.size = 0, 0
		if err := s.f.Truncate(0); err != nil {
			return err
		}
	}
	return os.WriteFile(s.path+".offset", []byte(strconv.FormatInt(s.off, 10)+"\n"), 0o600)
}

func (s *spool) close() error {
	_ = s.f.Sync()
	return s.f.Close()
}
