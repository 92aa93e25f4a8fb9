package audit

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// sink is an HTTP audit receiver on a fixed loopback address that the test takes down
// (the listener closed, connections refused) and brings back, or makes answer 503.
type sink struct {
	t       *testing.T
	addr    string
	mu      sync.Mutex
	got     bytes.Buffer
	srv     *http.Server
	failing atomic.Bool
	posts   atomic.Int64
}

func newSink(t *testing.T) *sink {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &sink{t: t, addr: ln.Addr().String()}
	s.serve(ln)
	t.Cleanup(s.down)
	return s
}

func (s *sink) url() string { return "http://" + s.addr + "/audit" }

func (s *sink) serve(ln net.Listener) {
	s.srv = &http.Server{Handler: http.HandlerFunc(s.handle)}
	go s.srv.Serve(ln)
}

func (s *sink) handle(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil || s.failing.Load() {
		http.Error(w, "unavailable", http.StatusServiceUnavailable)
		return
	}
	s.posts.Add(1)
	s.mu.Lock()
	s.got.Write(body)
	s.mu.Unlock()
}

// down shuts the server (in-flight batches finish and are answered), refusing connections.
func (s *sink) down() {
	if s.srv != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		s.srv.Shutdown(ctx)
		s.srv = nil
	}
}

func (s *sink) up() {
	var ln net.Listener
	var err error
	for range 100 { // the port may linger a moment
		if ln, err = net.Listen("tcp", s.addr); err == nil {
			s.serve(ln)
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	s.t.Fatal(err)
}

func (s *sink) received() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return bytes.Clone(s.got.Bytes())
}

func shipOptions(s *sink, mode, spool string) *ShipOptions {
	return &ShipOptions{URL: s.url(), OnError: mode, Spool: spool, Batch: 50, FlushInterval: 5 * time.Millisecond,
		MinBackoff: 5 * time.Millisecond, MaxBackoff: 40 * time.Millisecond, Timeout: 2 * time.Second, CloseTimeout: 10 * time.Second,
		Headers: map[string]string{"Authorization": "Bearer t"}}
}

// load writes from 8 goroutines while flap takes the sink down and up, and returns the
// local trail and how many writes succeeded.
func load(t *testing.T, w *Writer, flap func()) (written, refused int64) {
	var ok, no atomic.Int64
	var wg sync.WaitGroup
	stop := make(chan struct{})
	go func() { flap(); close(stop) }()
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				if err := w.Write(record(g*100000 + i)); err == nil {
					ok.Add(1)
				} else if errors.Is(err, ErrSinkDown) {
					no.Add(1)
				} else {
					t.Error(err)
					return
				}
				time.Sleep(50 * time.Microsecond)
			}
		}()
	}
	wg.Wait()
	return ok.Load(), no.Load()
}

func flapper(s *sink) func() {
	return func() {
		for i := range 3 {
			time.Sleep(60 * time.Millisecond)
			if i%2 == 0 {
				s.down()
			} else {
				s.failing.Store(true)
			}
			time.Sleep(80 * time.Millisecond)
			if i%2 == 0 {
				s.up()
			} else {
				s.failing.Store(false)
			}
		}
		time.Sleep(40 * time.Millisecond)
	}
}

// TestShipUnderLoad: every record arrives exactly once, in order, chain intact, while
// the sink goes down (connections refused, or 503) and comes back under load and the
// trail rotates. With spool no write fails; with fail_closed writes fail while it is down.
func TestShipUnderLoad(t *testing.T) {
	for _, mode := range []string{ShipSpool, ShipFailClosed} {
		t.Run(mode, func(t *testing.T) {
			s := newSink(t)
			dir := t.TempDir()
			path := filepath.Join(dir, "audit.jsonl")
			w, err := New(Options{Path: path, Rotate: Rotate{MaxBytes: 256 << 10}, Log: quiet,
				Ship: shipOptions(s, mode, filepath.Join(dir, "spool.jsonl"))})
			if err != nil {
				t.Fatal(err)
			}
			written, refused := load(t, w, flapper(s))
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			if (mode == ShipSpool) != (refused == 0) {
				t.Errorf("%s: %d writes refused", mode, refused)
			}
			local := readTrail(t, path)
			got := s.received()
			if !bytes.Equal(got, local) {
				t.Fatalf("the sink received %d bytes, the trail has %d: not every record arrived exactly once in order", len(got), len(local))
			}
			n, brk, err := Verify(bytes.NewReader(got))
			if brk != nil || err != nil || int64(n) != written {
				t.Fatalf("received chain: %d records (%d written), %v %v", n, written, brk, err)
			}
			t.Logf("%d records in %d POSTs, %d writes refused", n, s.posts.Load(), refused)
		})
	}
}

var quiet = slog.New(slog.DiscardHandler)

// readTrail concatenates the trail's files in order.
func readTrail(t *testing.T, path string) []byte {
	t.Helper()
	files, err := Files(path)
	if err != nil || len(files) < 2 {
		t.Fatalf("trail files %v %v: want it rotated", files, err)
	}
	var out []byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b...)
	}
	return out
}

// TestSpoolReplayedAfterRestart: records spooled while the sink was down at shutdown are
// delivered, in order and once, by the next start.
func TestSpoolReplayedAfterRestart(t *testing.T) {
	s := newSink(t)
	s.failing.Store(true)
	dir := t.TempDir()
	opts := shipOptions(s, ShipSpool, filepath.Join(dir, "spool.jsonl"))
	opts.CloseTimeout = 20 * time.Millisecond
	var trail bytes.Buffer
	w, err := New(Options{Out: &trail, Ship: opts, Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 20; i++ {
		if err := w.Write(record(i)); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	if len(s.received()) != 0 {
		t.Fatal("a failing sink received records")
	}
	s.failing.Store(false)
	w, err = New(Options{Out: io.Discard, Ship: shipOptions(s, ShipSpool, opts.Spool), Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	if got := s.received(); !bytes.Equal(got, trail.Bytes()) {
		t.Fatalf("after restart the sink has %d bytes, want the %d spooled", len(got), trail.Len())
	}
	if st, _ := os.Stat(opts.Spool); st.Size() != 0 {
		t.Fatalf("the delivered spool still holds %d bytes", st.Size())
	}
}

func TestSpoolErrors(t *testing.T) {
	line := `{"seq":1,"prev":"","hash":"x"}` + "\n"
	tests := []struct {
		name, spool, offset, want string
	}{
		{"cut last line", line + `{"seq":2,"pr`, "", "spool.jsonl:2: the last line is cut short"},
		{"not a record", line + "hello\n", "", "spool.jsonl:2: not an audit record line"},
		{"bad offset", line, "99\n", "spool.jsonl.offset: \"99\\n\" is not an offset"},
		{"delivered garbage is skipped", "hello\n" + line, "6", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "spool.jsonl")
			os.WriteFile(p, []byte(tc.spool), 0o600)
			if tc.offset != "" {
				os.WriteFile(p+".offset", []byte(tc.offset), 0o600)
			}
			sp, err := openSpool(p)
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				sp.close()
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
	if _, err := openSpool(filepath.Join(t.TempDir(), "no", "dir")); err == nil || !strings.Contains(err.Error(), "no/dir") {
		t.Fatalf("an unopenable spool: %v", err)
	}
}
