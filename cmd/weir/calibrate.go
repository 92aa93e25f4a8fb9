package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/weirgw/weir/rules"
)

// checkCalibration measures the pack on its declared labelled sets and extra ones: the
// summary when the pack declares sets, the full report with full. Unreadable or malformed
// sets fail the check.
func checkCalibration(w io.Writer, pack *rules.Pack, extra []string, full, misses bool) bool {
	sets, err := pack.CalibrationSets()
	ok := err == nil
	if err != nil {
		fmt.Fprintln(w, err)
	}
	for _, path := range extra {
		set, err := rules.ReadLabelled(path)
		if err != nil {
			fmt.Fprintln(w, err)
			ok = false
			continue
		}
		sets = append(sets, set)
	}
	if len(sets) == 0 && !full {
		return ok
	}
	cal, err := pack.Calibrate(sets)
	if err != nil {
		fmt.Fprintln(w, err)
		return false
	}
	if full {
		fmt.Fprint(w, cal.Report(misses))
	} else {
		fmt.Fprint(w, cal.Summary())
	}
	return ok
}

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }
