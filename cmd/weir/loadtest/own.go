package loadtest

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"time"
)

// The client sees the gateway's latency whole: its own work and the wait for the upstream,
// which on a small machine includes waiting for a core the load generator or the upstream
// holds. The gateway's audit record splits it (latency_us: total and upstream), so the
// harness reads the records a slice of load wrote and reports the gateway's own time —
// total minus the upstream stage — beside the client's numbers. It is read after the
// slice, never during it.

// trail follows an audit trail file: mark notes its end, since returns the gateway's own
// time of every record written after the mark.
type trail struct {
	path string
	off  int64
}

func (t *trail) mark() error {
	st, err := os.Stat(t.path)
	if os.IsNotExist(err) {
		t.off = 0
		return nil
	}
	if err != nil {
		return err
	}
	t.off = st.Size()
	return nil
}

// since reads the records appended after the last mark. A record without latencies (one
// the passthrough would not write, or a refused request) is skipped.
func (t *trail) since() ([]time.Duration, error) {
	f, err := os.Open(t.path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if _, err := f.Seek(t.off, io.SeekStart); err != nil {
		return nil, err
	}
	var own []time.Duration
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		var rec struct {
			Latency map[string]int64 `json:"latency_us"`
		}
		if json.Unmarshal(sc.Bytes(), &rec) != nil || rec.Latency == nil {
			continue
		}
		total, ok := rec.Latency["total"]
		if !ok {
			continue
		}
		own = append(own, time.Duration(total-rec.Latency["upstream"])*time.Microsecond)
	}
	return own, sc.Err()
}
