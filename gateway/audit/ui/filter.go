package ui

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/weirgw/weir/gateway/audit"
)

// timeLayout is the value of an <input type="datetime-local">; times are UTC.
const timeLayout = "2006-01-02T15:04"

// Filter selects decisions; zero fields select everything.
type Filter struct {
	From, To                          time.Time
	Outcome, Intent, Route, Violation string
	Subject, Tool                     string // Subject: the subject's id; Tool: any call of it
	Page                              int    // 1-based
	FromText, ToText                  string // as typed, for the form
	Problems                          []string
}

// parseFilter reads a filter from a query string; values it cannot read are named in
// Problems and ignored.
func parseFilter(q url.Values) Filter {
	f := Filter{Outcome: q.Get("outcome"), Intent: q.Get("intent"), Route: q.Get("route"),
		Violation: q.Get("violation"), Subject: strings.TrimSpace(q.Get("subject")), Tool: q.Get("tool"),
		FromText: q.Get("from"), ToText: q.Get("to"), Page: 1}
	f.From = f.parseTime("from", f.FromText)
	f.To = f.parseTime("to", f.ToText)
	if p, err := strconv.Atoi(q.Get("page")); err == nil && p > 0 {
		f.Page = p
	}
	return f
}

func (f *Filter) parseTime(name, v string) time.Time {
	if v == "" {
		return time.Time{}
	}
	t, err := time.Parse(timeLayout, v)
	if err != nil {
		if t, err = time.Parse(time.RFC3339, v); err != nil {
			f.Problems = append(f.Problems, name+": "+strconv.Quote(v)+" is not a date and time (YYYY-MM-DDTHH:MM, UTC)")
			return time.Time{}
		}
	}
	return t.UTC()
}

// match reports whether rec passes the filter.
func (f *Filter) match(rec *audit.Record) bool {
	switch {
	case !f.From.IsZero() && rec.Time.Before(f.From),
		!f.To.IsZero() && !rec.Time.Before(f.To),
		f.Outcome != "" && rec.Outcome != f.Outcome,
		f.Intent != "" && rec.Intent != f.Intent,
		f.Route != "" && rec.Route != f.Route,
		f.Subject != "" && rec.Subject.ID != f.Subject:
		return false
	}
	if f.Tool != "" && !slices.ContainsFunc(rec.ToolCalls, func(c audit.ToolCall) bool { return c.Name == f.Tool }) {
		return false
	}
	return f.Violation == "" || slices.ContainsFunc(rec.Violations, func(v audit.Violation) bool { return v.Code == f.Violation })
}

// query returns the filter as a query string for page.
func (f *Filter) query(page int) string {
	q := url.Values{}
	for k, v := range map[string]string{"from": f.FromText, "to": f.ToText, "outcome": f.Outcome, "intent": f.Intent,
		"route": f.Route, "violation": f.Violation, "subject": f.Subject, "tool": f.Tool} {
		if v != "" {
			q.Set(k, v)
		}
	}
	if page > 1 {
		q.Set("page", strconv.Itoa(page))
	}
	return q.Encode()
}
