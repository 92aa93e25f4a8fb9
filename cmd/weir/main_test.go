package main

import (
	"fmt"
	"net/http"
	"os"
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package when a goroutine outlives its tests: the gateways, mock
// models and load harnesses the commands start must be gone when they return. Ignored,
// as in gateway/main_test.go: fasthttp's process-wide Date clock and compression workers,
// a stopped server's idle-worker cleaner (it sleeps 10s before it sees the stop), a
// client's connection cleaner (it ends at its first wake-up without connections) and the
// default dialer's address-cache cleaner, started by the first upstream call and kept for
// the process.
func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 {
		http.DefaultTransport.(*http.Transport).CloseIdleConnections()
		err := goleak.Find(
			goleak.IgnoreAnyFunction("github.com/valyala/fasthttp.updateServerDate.func1"),
			goleak.IgnoreAnyFunction("github.com/valyala/fasthttp/stackless.funcWorker"),
			goleak.IgnoreAnyFunction("github.com/valyala/fasthttp.(*workerPool).Start.func2"),
			goleak.IgnoreAnyFunction("github.com/valyala/fasthttp.(*HostClient).connsCleaner"),
			goleak.IgnoreAnyFunction("github.com/valyala/fasthttp.(*TCPDialer).tcpAddrsClean"),
		)
		if err != nil {
			fmt.Fprintln(os.Stderr, "goleak:", err)
			code = 1
		}
	}
	os.Exit(code)
}
