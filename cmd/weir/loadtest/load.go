package loadtest

import (
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/valyala/fasthttp"
)

// sample is what the load of one target and scenario collected, over one or more slices.
type sample struct {
	requests int
	errors   int
	missed   int // fixed rate: requests not sent because the target was too far behind
	firstErr string
	elapsed  time.Duration
	cpu      time.Duration // the target process's CPU time over the slices
	// upstreamCPU and clientCPU are the canned upstream's and the load generator's.
	upstreamCPU, clientCPU time.Duration
	lat                    []time.Duration
	// own is the target's own time per request, from its audit trail: the record's total
	// latency minus its upstream stage (empty for the passthrough, which writes none).
	own []time.Duration
}

func (s *sample) add(o sample) {
	s.requests += o.requests
	s.errors += o.errors
	s.missed += o.missed
	if s.firstErr == "" {
		s.firstErr = o.firstErr
	}
	s.elapsed += o.elapsed
	s.cpu += o.cpu
	s.upstreamCPU += o.upstreamCPU
	s.clientCPU += o.clientCPU
	s.lat = append(s.lat, o.lat...)
	s.own = append(s.own, o.own...)
}

// quantile returns the q-quantile of the latencies (sorting them).
func (s *sample) quantile(q float64) time.Duration { return quantile(s.lat, q) }

// quantile returns the q-quantile of ds (sorting them); 0 for none.
func quantile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	if !sort.SliceIsSorted(ds, func(i, j int) bool { return ds[i] < ds[j] }) {
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	}
	i := int(q*float64(len(ds))+0.5) - 1
	return ds[max(0, min(i, len(ds)-1))]
}

// newClient returns a keep-alive client for a target with at most conns connections.
func newClient(addr string, conns int) *fasthttp.HostClient {
	return &fasthttp.HostClient{
		Addr:                addr,
		Name:                "weir-bench",
		MaxConns:            conns,
		MaxIdleConnDuration: time.Minute,
		ReadTimeout:         30 * time.Second,
		WriteTimeout:        30 * time.Second,
		MaxConnWaitTimeout:  30 * time.Second,
	}
}

// worker sends one scenario's request over and over with its own request and response.
type worker struct {
	c    *fasthttp.HostClient
	req  fasthttp.Request
	resp fasthttp.Response
	s    sample
}

func newWorker(c *fasthttp.HostClient, sc *Scenario) *worker {
	w := &worker{c: c}
	w.req.Header.SetMethod(fasthttp.MethodPost)
	w.req.SetRequestURI("http://" + c.Addr + sc.Path)
	w.req.Header.SetContentType("application/json")
	w.req.SetBody(sc.Body)
	return w
}

// do sends the request once; latency counts from since.
func (w *worker) do(since time.Time) {
	err := w.c.Do(&w.req, &w.resp)
	d := time.Since(since)
	w.s.requests++
	w.s.lat = append(w.s.lat, d)
	switch {
	case err != nil:
		w.fail(err.Error())
	case w.resp.StatusCode() != fasthttp.StatusOK:
		w.fail(fmt.Sprintf("status %d: %.200s", w.resp.StatusCode(), w.resp.Body()))
	}
}

func (w *worker) fail(msg string) {
	w.s.errors++
	if w.s.firstErr == "" {
		w.s.firstErr = msg
	}
}

// closedLoop keeps conns requests in flight for d, each connection sending its next request
// as soon as the previous one is answered: the target's peak throughput at that
// concurrency.
func closedLoop(c *fasthttp.HostClient, sc *Scenario, conns int, d time.Duration) sample {
	workers := make([]*worker, conns)
	var wg sync.WaitGroup
	start := time.Now()
	deadline := start.Add(d)
	for i := range workers {
		w := newWorker(c, sc)
		workers[i] = w
		wg.Go(func() {
			for t := time.Now(); t.Before(deadline); t = time.Now() {
				w.do(t)
			}
		})
	}
	wg.Wait()
	return merge(workers, time.Since(start))
}

// maxQueue is how far a target may fall behind the fixed rate: requests that would wait
// longer are not sent but counted as missed, so an overloaded target is reported as such
// without the run lasting until its backlog is answered.
const maxQueue = 250 * time.Millisecond

// pace is the fixed-rate loop's pause between releases (a variable for the tests).
var pace = func() { time.Sleep(100 * time.Microsecond) }

// fixedRate sends rate requests per second for d over at most conns connections. A
// request's latency counts from the moment it was released, so time spent waiting for a
// free connection (queueing when the target falls behind) is part of it.
func fixedRate(c *fasthttp.HostClient, sc *Scenario, conns int, rate float64, d time.Duration) sample {
	due := make(chan time.Time, max(conns, int(rate*maxQueue.Seconds())))
	missed := 0
	workers := make([]*worker, conns)
	var wg sync.WaitGroup
	for i := range workers {
		w := newWorker(c, sc)
		workers[i] = w
		wg.Go(func() {
			for t := range due {
				w.do(t)
			}
		})
	}
	start := time.Now()
	for sent := 0; ; {
		now := time.Now()
		elapsed := now.Sub(start)
		if elapsed >= d {
			break
		}
		for n := int(elapsed.Seconds()*rate) + 1; sent < n; sent++ {
			// Request k is due at k/rate, and its latency counts from then, not from when
			// this loop got round to releasing it: a load generator that was itself
			// late (descheduled on a busy machine) must not hide the wait it caused.
			select {
			case due <- start.Add(time.Duration(float64(sent) / rate * float64(time.Second))):
			default:
				missed++
			}
		}
		pace()
	}
	close(due)
	wg.Wait()
	// A target that falls behind answers its backlog after d: the rate it sustained
	// counts that time too.
	s := merge(workers, time.Since(start))
	s.missed = missed
	return s
}

func merge(workers []*worker, elapsed time.Duration) sample {
	var s sample
	for _, w := range workers {
		s.add(w.s)
	}
	s.elapsed = elapsed
	return s
}
