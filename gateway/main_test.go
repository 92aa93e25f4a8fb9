package gateway

import (
	"fmt"
	"net/http"
	"os"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// TestMain fails the package when a goroutine outlives its tests: a gateway shut down,
// an abandoned stream or a failed reload must leave nothing running.
func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 {
		// The openai client keeps idle keep-alive connections in net/http's default
		// transport; they belong to the client, not to the gateway.
		http.DefaultTransport.(*http.Transport).CloseIdleConnections()
		if err := findLeaks(leakOptions()...); err != nil {
			fmt.Fprintln(os.Stderr, "goleak:", err)
			code = 1
		}
	}
	os.Exit(code)
}

// leakOptions ignore fasthttp's background goroutines, each understood:
//   - updateServerDate, stackless.funcWorker, TCPDialer.tcpAddrsClean and
//     Client.mCleaner are process-wide: the Date header clock, the compression workers,
//     the default dialer's DNS cache and the default client (which the tests' raw requests
//     use); they start once and never end.
//   - workerPool.Start.func2 is a stopped server's idle-worker cleaner; it sleeps
//     MaxIdleWorkerDuration (10s) before it sees the stop and returns.
//   - HostClient.connsCleaner exists per client that dialled; it returns at its first
//     wake-up (after the client's idle-connection duration) with no connection left, and
//     fasthttp offers no way to end it sooner.
//
// Everything else a gateway starts (listeners, connection workers, stream relays, upstream
// writers, the reload watcher) must be gone after Shutdown.
func leakOptions() []goleak.Option {
	return []goleak.Option{
		goleak.IgnoreAnyFunction("github.com/valyala/fasthttp.updateServerDate.func1"),
		goleak.IgnoreAnyFunction("github.com/valyala/fasthttp/stackless.funcWorker"),
		goleak.IgnoreAnyFunction("github.com/valyala/fasthttp.(*TCPDialer).tcpAddrsClean"),
		goleak.IgnoreAnyFunction("github.com/valyala/fasthttp.(*Client).mCleaner"),
		goleak.IgnoreAnyFunction("github.com/valyala/fasthttp.(*workerPool).Start.func2"),
		goleak.IgnoreAnyFunction("github.com/valyala/fasthttp.(*HostClient).connsCleaner"),
	}
}

// checkLeaks fails t when goroutines started during the test are still running after its
// cleanups (the gateway's and the upstream's shutdowns) ran. Call it first in the test, so
// its cleanup runs last.
func checkLeaks(t *testing.T) {
	t.Helper()
	opts := append(leakOptions(), goleak.IgnoreCurrent())
	t.Cleanup(func() {
		http.DefaultTransport.(*http.Transport).CloseIdleConnections()
		if err := findLeaks(opts...); err != nil {
			t.Error(err)
		}
	})
}

// findLeaks looks for leaked goroutines for up to leakWait: goroutines that are ending
// (a scripted upstream's writer between two paced parts, a connection being closed) get
// the time to finish. goleak's own retries last well under a second.
//
// Each attempt first closes net/http's idle keep-alive connections again: they belong to
// the clients (the openai client, the fallback model's and the http data source's
// langchaingo and net/http clients), and a connection whose last answer a client finished
// reading after the previous attempt has only just become idle.
func findLeaks(opts ...goleak.Option) error {
	deadline := time.Now().Add(leakWait)
	for {
		http.DefaultTransport.(*http.Transport).CloseIdleConnections()
		err := goleak.Find(opts...)
		if err == nil || time.Now().After(deadline) {
			return err
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// leakWait bounds findLeaks; the slowest scripted upstream pauses 1s between parts.
const leakWait = 5 * time.Second
