package mockllm

import (
	"fmt"
	"net/http"
	"os"
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package when a goroutine outlives its tests: a closed server, a
// finished stream or a client gone mid-stream must leave nothing running. The clients'
// idle keep-alive connections (net/http's default transport) are closed first: they are
// the tests', not the server's.
func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 {
		http.DefaultTransport.(*http.Transport).CloseIdleConnections()
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, "goleak:", err)
			code = 1
		}
	}
	os.Exit(code)
}
