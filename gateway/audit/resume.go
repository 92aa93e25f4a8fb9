package audit

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"
)

// firstRecord is what rotation needs of a file's first record.
type firstRecord struct {
	seq  uint64
	time time.Time
}

// resume returns the last complete record's seq and hash of the trail file f, and its
// first record. A last line cut short by a crash is terminated with a newline (when f is
// writable) so that the next record starts on its own line; verify reports the cut line.
func resume(f *os.File, name string) (seq uint64, prev string, first firstRecord, err error) {
	st, err := f.Stat()
	if err != nil || st.Size() == 0 {
		return 0, "", first, err
	}
	first = readFirst(f)
	last, complete, err := lastLines(f, st.Size())
	if err != nil {
		return 0, "", first, err
	}
	if !complete {
		_, _ = f.Write([]byte{'\n'})
	}
	for _, line := range last {
		var head struct {
			Seq  uint64 `json:"seq"`
			Hash string `json:"hash"`
		}
		if json.Unmarshal(line, &head) == nil && head.Hash != "" {
			return head.Seq, head.Hash, first, nil
		}
	}
	return 0, "", first, fmt.Errorf("%s: %w", name, errors.New("no complete record at the end of the file to resume the chain from"))
}

// readFirst reads the seq and time of f's first line; zero when it is not a record.
func readFirst(f *os.File) firstRecord {
	line, _ := bufio.NewReader(io.NewSectionReader(f, 0, 1<<20)).ReadSlice('\n')
	var head struct {
		Seq  uint64    `json:"seq"`
		Time time.Time `json:"time"`
	}
	_ = json.Unmarshal(line, &head)
	return firstRecord{head.Seq, head.Time}
}

// lastLines returns the file's last two lines (newest first), reading backwards from the
// end in growing chunks, and whether the file ends with a newline.
func lastLines(f *os.File, size int64) ([][]byte, bool, error) {
	chunk := int64(64 << 10)
	for {
		if chunk > size {
			chunk = size
		}
		buf := make([]byte, chunk)
		if _, err := f.ReadAt(buf, size-chunk); err != nil && err != io.EOF {
			return nil, false, err
		}
		complete := buf[len(buf)-1] == '\n'
		body := bytes.TrimRight(buf, "\n")
		lines := bytes.Split(body, []byte{'\n'})
		// Enough when two whole lines are in the buffer, or the buffer is the whole file.
		if len(lines) >= 3 || chunk == size {
			out := [][]byte{}
			for i := len(lines) - 1; i >= 0 && len(out) < 2; i-- {
				if chunk < size && i == 0 {
					break // the first line of a chunk may be cut
				}
				out = append(out, lines[i])
			}
			return out, complete, nil
		}
		chunk *= 4
	}
}
