package audit

import (
	"bytes"
	"fmt"
	"sync"
	"testing"
)

// TestConcurrentWritesWithFailures writes from many goroutines to a sink that fails
// every third Write call: every record reported written is in the trail, in seq order,
// the others are not, and the trail verifies.
func TestConcurrentWritesWithFailures(t *testing.T) {
	sink := &flakySink{}
	w := NewWriter(sink)
	var mu sync.Mutex
	ok := map[uint64]bool{}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 100 {
				r := record(g*1000 + i)
				if err := w.Write(r); err == nil {
					mu.Lock()
					ok[r.Seq] = true
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	n, brk, err := Verify(bytes.NewReader(sink.out.Bytes()))
	if brk != nil || err != nil || n != len(ok) {
		t.Fatalf("Verify = %d %v %v; %d writes reported written", n, brk, err, len(ok))
	}
	for seq := uint64(1); seq <= uint64(n); seq++ {
		if !ok[seq] {
			t.Fatalf("record %d is in the file but its write reported an error", seq)
		}
	}
	if sink.failures == 0 {
		t.Fatal("the sink never failed")
	}
}

type flakySink struct {
	calls, failures int
	out             bytes.Buffer
}

func (s *flakySink) Write(p []byte) (int, error) {
	s.calls++ // the writer never calls Write concurrently; -race checks it
	if s.calls%3 == 0 {
		s.failures++
		return 0, fmt.Errorf("write %d failed", s.calls)
	}
	return s.out.Write(p)
}

// BenchmarkWriteParallel writes records from parallel goroutines to a file, as the
// gateway's handlers do. (Group commit, one write call for the lines of every writer
// waiting, was tried: on two cores fewer than one write in ten found another waiting,
// and CPU per record did not fall.)
func BenchmarkWriteParallel(b *testing.B) {
	w, err := Open(b.TempDir() + "/trail.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	b.ReportAllocs()
	b.SetParallelism(8)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := w.Write(record(1)); err != nil {
				b.Error(err)
				return
			}
		}
	})
}
