//go:build unix

package loadtest

import (
	"syscall"
	"time"
)

// processCPU returns the user and system CPU time the current process has used.
func processCPU() (user, sys time.Duration, err error) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, 0, err
	}
	return time.Duration(ru.Utime.Nano()), time.Duration(ru.Stime.Nano()), nil
}
