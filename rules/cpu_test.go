package rules

import (
	"syscall"
	"testing"
	"time"
)

// cpuPerOp reports the process CPU time per operation as cpu-ns/op. On a machine shared
// with other work, wall-clock ns/op counts the time other processes hold the cores; the
// CPU time this process spent does not, so benchstat comparisons stay meaningful. Call it
// after setup and call the returned function after the loop; run with -cpu 1 so that the
// CPU time is the benchmark's own (plus its garbage collection).
func cpuPerOp(b *testing.B) func() {
	start := cpuTime()
	return func() {
		if b.N > 0 {
			b.ReportMetric(float64((cpuTime()-start).Nanoseconds())/float64(b.N), "cpu-ns/op")
		}
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
