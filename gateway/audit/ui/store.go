package ui

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/weirgw/weir/gateway/audit"
)

// entry is a row of the decisions list.
type entry struct {
	Seq                                         uint64
	Time                                        time.Time
	DecisionID, Route, Subject, Intent, Outcome string
	Status                                      int
	Calls                                       []call
	Violations                                  []string
}

type call struct {
	Name    string
	Allowed bool
}

func newEntry(rec *audit.Record) entry {
	e := entry{Seq: rec.Seq, Time: rec.Time, DecisionID: rec.DecisionID, Route: rec.Route, Subject: rec.Subject.ID,
		Intent: rec.Intent, Outcome: rec.Outcome, Status: rec.Status}
	for _, c := range rec.ToolCalls {
		e.Calls = append(e.Calls, call{c.Name, c.Allowed})
	}
	for _, v := range rec.Violations {
		e.Violations = append(e.Violations, v.Code)
	}
	return e
}

// errNoFile says the trail is not in a file the web view can read.
var errNoFile = errors.New("the audit trail is not written to a file (audit.path is stdout): there is nothing to show")

// scan calls fn with every record of the live trail and its rotated files, oldest first.
func (h *Handler) scan(fn func(file string, line int, rec *audit.Record) bool) error {
	if h.opts.Trail == "" || h.opts.Trail == "stdout" {
		return errNoFile
	}
	files, err := audit.Files(h.opts.Trail)
	if err != nil {
		return err
	}
	for _, name := range files {
		stop := false
		if err := scanFile(name, func(line int, rec *audit.Record) bool {
			stop = !fn(filepath.Base(name), line, rec)
			return !stop
		}); err != nil || stop {
			return err
		}
	}
	return nil
}

func scanFile(name string, fn func(int, *audit.Record) bool) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = audit.Scan(f, fn)
	return err
}

// facets are the values seen in the trail, offered in the filter form.
type facets struct {
	Outcomes, Intents, Routes, Violations, Tools []string
}

type facetSet struct{ outcomes, intents, routes, violations, tools map[string]bool }

func newFacetSet() facetSet {
	return facetSet{map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string]bool{}}
}

func (s facetSet) add(rec *audit.Record) {
	s.outcomes[rec.Outcome] = true
	s.routes[rec.Route] = true
	if rec.Intent != "" {
		s.intents[rec.Intent] = true
	}
	for _, v := range rec.Violations {
		s.violations[v.Code] = true
	}
	for _, c := range rec.ToolCalls {
		s.tools[c.Name] = true
	}
}

func (s facetSet) sorted() facets {
	keys := func(m map[string]bool) []string {
		out := make([]string, 0, len(m))
		for k := range m {
			out = append(out, k)
		}
		slices.Sort(out)
		return out
	}
	return facets{keys(s.outcomes), keys(s.intents), keys(s.routes), keys(s.violations), keys(s.tools)}
}

// find returns the record with the decision id, and its file and line.
func (h *Handler) find(id string) (rec *audit.Record, file string, line int, err error) {
	err = h.scan(func(f string, l int, r *audit.Record) bool {
		if r.DecisionID != id {
			return true
		}
		cp := *r
		rec, file, line = &cp, f, l
		return false
	})
	return rec, file, line, err
}
