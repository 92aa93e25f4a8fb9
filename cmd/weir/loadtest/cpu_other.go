//go:build !unix

package loadtest

import (
	"errors"
	"time"
)

// processCPU is not measured outside Unix: the report shows no CPU per request.
func processCPU() (user, sys time.Duration, err error) {
	return 0, 0, errors.New("CPU time is measured on Unix systems only")
}
