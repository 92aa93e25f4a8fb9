package loadtest

import (
	"net"
	"testing"
	"time"

	"github.com/valyala/fasthttp"
)

// TestFixedRateCountsFromDue: when the load generator itself falls behind (here its first
// pause lasts 60 ms, as a descheduled generator's would on a busy machine), the requests
// that fell due meanwhile count their latency from when they were due, not from when the
// generator got round to sending them. Otherwise a late generator hides the wait it
// caused (coordinated omission). The target answers at once, so without due-time
// accounting every latency would be well under a millisecond.
func TestFixedRateCountsFromDue(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &fasthttp.Server{Handler: func(rc *fasthttp.RequestCtx) { rc.SetBodyString("{}") }}
	go srv.Serve(ln)
	defer srv.Shutdown()

	first := true
	defer func(p func()) { pace = p }(pace)
	pace = func() {
		if first {
			first = false
			time.Sleep(60 * time.Millisecond)
			return
		}
		time.Sleep(100 * time.Microsecond)
	}
	c := newClient(ln.Addr().String(), 4)
	defer c.CloseIdleConnections()
	s := fixedRate(c, &Scenario{Path: "/", Body: []byte("{}")}, 4, 1000, 100*time.Millisecond)
	if s.errors > 0 {
		t.Fatalf("%d errors: %s", s.errors, s.firstErr)
	}
	// About 60 of the ~100 requests fell due during the stall; the earliest waited ~60 ms.
	if worst := s.quantile(1); worst < 40*time.Millisecond {
		t.Errorf("worst latency %v: the requests delayed by the generator's 60 ms stall were timed from their release", worst)
	}
	if median := s.quantile(0.5); median < 5*time.Millisecond {
		t.Errorf("median latency %v: over half the requests fell due during the stall", median)
	}
}
