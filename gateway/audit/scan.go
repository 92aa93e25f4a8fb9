package audit

import (
	"bufio"
	"encoding/json"
	"io"
)

// Scan decodes the records of a trail in order and calls fn with each (and its 1-based
// line) until fn returns false. Lines that are not records (a cut last line) are counted
// in skipped. Old records (a plain-string subject) decode too. The Record passed to fn is
// reused: fn must copy what it keeps.
func Scan(r io.Reader, fn func(line int, rec *Record) bool) (skipped int, err error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxLine)
	var rec Record
	for line := 1; sc.Scan(); line++ {
		rec = Record{}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil || rec.DecisionID == "" {
			skipped++
			continue
		}
		if !fn(line, &rec) {
			return skipped, nil
		}
	}
	return skipped, sc.Err()
}
