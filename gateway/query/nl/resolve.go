package nl

import (
	"fmt"
	"strings"
	"time"

	"github.com/weirgw/weir/adapters/data/semantic"
)

const day = "2006-01-02"

// span is a resolved period: inclusive days.
type span struct{ from, to time.Time }

// bounds are the first and last days of a point of a given year (y replaces p.y).
func bounds(p point, y int) span {
	switch {
	case p.m > 0 && p.d > 0:
		t := time.Date(y, time.Month(p.m), p.d, 0, 0, 0, 0, time.UTC)
		return span{t, t}
	case p.m > 0:
		t := time.Date(y, time.Month(p.m), 1, 0, 0, 0, 0, time.UTC)
		return span{t, t.AddDate(0, 1, -1)}
	case p.q > 0:
		t := time.Date(y, time.Month(3*p.q-2), 1, 0, 0, 0, 0, time.UTC)
		return span{t, t.AddDate(0, 3, -1)}
	case p.h > 0:
		t := time.Date(y, time.Month(6*p.h-5), 1, 0, 0, 0, 0, time.UTC)
		return span{t, t.AddDate(0, 6, -1)}
	}
	t := time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC)
	return span{t, t.AddDate(1, 0, -1)}
}

// resolved is a time expression resolved against a source's data.
type resolved struct {
	spans []span
	label string
	note  string
	// outside reports that the data has no day in the period: the question is about a
	// time the data does not cover.
	outside bool
}

// resolve turns an expression into day ranges. Parts without a year are resolved against
// the data's own range (Min..Max of the time field), not against today: "March" in data of
// 2025 is March 2025; in data spanning several years it is March of each of them, and the
// note says so. Relative periods (last month) are taken against now.
func resolve(e dateExpr, min, max time.Time, now time.Time) resolved {
	if min.IsZero() { // no data: yearless periods are this year's, and nothing is outside
		min, max = time.Date(now.Year(), 1, 1, 0, 0, 0, 0, time.UTC), now
		r := resolveIn(e, min, max, now)
		r.outside = false
		return r
	}
	return resolveIn(e, min, max, now)
}

func resolveIn(e dateExpr, min, max time.Time, now time.Time) resolved {
	if e.rel != "" && e.ofData {
		s := ofData(e.rel, e.n, max)
		note := fmt.Sprintf("%s of the data, whose last day is %s: %s to %s", relText(e.rel, e.n), max.Format(day), s.from.Format(day), s.to.Format(day))
		return check(resolved{spans: []span{s}, label: e.rel, note: note}, min, max)
	}
	if e.rel != "" {
		s := relative(e.rel, e.n, now)
		return check(resolved{spans: []span{s}, label: e.rel}, min, max)
	}
	var r resolved
	switch e.open {
	case "from", "after":
		s := openStart(e, min, max)
		if e.open == "after" {
			s.from = bounds(e.from, s.from.Year()).to.AddDate(0, 0, 1)
		}
		r.spans, r.label = []span{{s.from, max}}, "from "+s.from.Format(day)
		if e.yearStart {
			r.note = fmt.Sprintf("the year so far is read in the data's last year: %s to %s", s.from.Format(day), max.Format(day))
		}
	case "to", "before":
		y := e.from.y
		if y == 0 {
			y = max.Year()
		}
		b := bounds(e.from, y)
		end := b.to
		if e.open == "before" {
			end = b.from.AddDate(0, 0, -1)
		}
		r.spans, r.label = []span{{min, end}}, "until "+end.Format(day)
	default:
		r = closed(e, min, max)
	}
	return check(r, min, max)
}

// openStart is the start of "since X": X's year, else its latest occurrence in the data.
func openStart(e dateExpr, min, max time.Time) span {
	if e.from.y != 0 {
		return bounds(e.from, e.from.y)
	}
	for y := max.Year(); y >= min.Year(); y-- {
		if b := bounds(e.from, y); !b.from.After(max) {
			return b
		}
	}
	return bounds(e.from, max.Year())
}

// closed resolves a period or a closed range, expanding a yearless one to every year of
// the data.
func closed(e dateExpr, min, max time.Time) resolved {
	if e.from.y != 0 && e.to.y != 0 {
		s := span{bounds(e.from, e.from.y).from, bounds(e.to, e.to.y).to}
		return resolved{spans: []span{s}, label: label(e)}
	}
	var r resolved
	var years []string
	for y := min.Year(); y <= max.Year(); y++ {
		s := span{bounds(e.from, y).from, bounds(e.to, y).to}
		if s.to.Before(min) || s.from.After(max) {
			continue
		}
		r.spans = append(r.spans, s)
		years = append(years, fmt.Sprint(y))
	}
	r.label = label(e)
	if len(years) == 1 {
		r.label = strings.ReplaceAll(r.label, "?", years[0])
	}
	if len(years) > 0 {
		r.note = fmt.Sprintf("%s without a year is read as %s in the data (%s)", describePeriod(e), yearWord(len(years)), strings.Join(years, ", "))
	}
	if len(r.spans) == 0 {
		r.spans = []span{{bounds(e.from, max.Year()).from, bounds(e.to, max.Year()).to}}
	}
	return r
}

func yearWord(n int) string {
	if n == 1 {
		return "the year"
	}
	return "every year"
}

// check marks a period the data does not cover, and notes one it covers only in part.
func check(r resolved, min, max time.Time) resolved {
	if min.IsZero() {
		return r
	}
	any := false
	for _, s := range r.spans {
		if !s.to.Before(min) && !s.from.After(max) {
			any = true
			if s.from.Before(min) || s.to.After(max) {
				r.note = joinNotes(r.note, fmt.Sprintf("the data covers %s to %s only", min.Format(day), max.Format(day)))
			}
		}
	}
	r.outside = !any
	return r
}

func joinNotes(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// label names a period as groups of a time dimension are named: 2025-03, 2024-Q1, 2023,
// a day, or a range; ? stands for a missing year.
func label(e dateExpr) string {
	one := func(p point) string {
		y := "?"
		if p.y != 0 {
			y = fmt.Sprint(p.y)
		}
		switch {
		case p.m > 0 && p.d > 0:
			return fmt.Sprintf("%s-%02d-%02d", y, p.m, p.d)
		case p.m > 0:
			return fmt.Sprintf("%s-%02d", y, p.m)
		case p.q > 0:
			return fmt.Sprintf("%s-Q%d", y, p.q)
		case p.h > 0:
			return fmt.Sprintf("%s-H%d", y, p.h)
		}
		return y
	}
	if e.from == e.to {
		return one(e.from)
	}
	return one(e.from) + ".." + one(e.to)
}

// describePeriod names a yearless period for a note: "March", "Q2", "10 February".
func describePeriod(e dateExpr) string {
	one := func(p point) string {
		switch {
		case p.m > 0 && p.d > 0:
			return fmt.Sprintf("%d %s", p.d, time.Month(p.m))
		case p.m > 0:
			return time.Month(p.m).String()
		case p.q > 0:
			return fmt.Sprintf("Q%d", p.q)
		case p.h > 0:
			return fmt.Sprintf("H%d", p.h)
		}
		return "the period"
	}
	if e.from == e.to {
		return one(e.from)
	}
	return one(e.from) + " to " + one(e.to)
}

// relative resolves today, last_month, last_n_days... against now.
func relative(rel string, n int, now time.Time) span {
	d := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	month := time.Date(d.Year(), d.Month(), 1, 0, 0, 0, 0, time.UTC)
	quarter := time.Date(d.Year(), time.Month((int(d.Month())-1)/3*3+1), 1, 0, 0, 0, 0, time.UTC)
	week := d.AddDate(0, 0, -((int(d.Weekday()) + 6) % 7))
	switch rel {
	case "today":
		return span{d, d}
	case "yesterday":
		return span{d.AddDate(0, 0, -1), d.AddDate(0, 0, -1)}
	case "this_week":
		return span{week, d}
	case "last_week":
		return span{week.AddDate(0, 0, -7), week.AddDate(0, 0, -1)}
	case "this_month":
		return span{month, d}
	case "last_month":
		return span{month.AddDate(0, -1, 0), month.AddDate(0, 0, -1)}
	case "this_quarter":
		return span{quarter, d}
	case "last_quarter":
		return span{quarter.AddDate(0, -3, 0), quarter.AddDate(0, 0, -1)}
	case "this_year":
		return span{time.Date(d.Year(), 1, 1, 0, 0, 0, 0, time.UTC), d}
	case "last_year":
		return span{time.Date(d.Year()-1, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(d.Year()-1, 12, 31, 0, 0, 0, 0, time.UTC)}
	case "last_n_day":
		return span{d.AddDate(0, 0, -n), d}
	case "last_n_week":
		return span{d.AddDate(0, 0, -7*n), d}
	case "last_n_month":
		return span{d.AddDate(0, -n, 0), d}
	case "last_n_year":
		return span{d.AddDate(-n, 0, 0), d}
	}
	return span{d, d}
}

// ofData resolves a last_* period up to the data's last day, in whole calendar units: the
// last two months of data ending 2024-10-27 are September and October 2024 (to the 27th).
func ofData(rel string, n int, last time.Time) span {
	month := time.Date(last.Year(), last.Month(), 1, 0, 0, 0, 0, time.UTC)
	n = max(n, 1)
	switch rel {
	case "last_n_day":
		return span{last.AddDate(0, 0, 1-n), last}
	case "last_week", "last_n_week":
		return span{last.AddDate(0, 0, 1-7*n), last}
	case "last_month", "last_n_month":
		return span{month.AddDate(0, 1-n, 0), last}
	case "last_quarter":
		return span{time.Date(last.Year(), time.Month((int(last.Month())-1)/3*3+1), 1, 0, 0, 0, 0, time.UTC), last}
	case "last_year", "last_n_year":
		return span{time.Date(last.Year()+1-n, 1, 1, 0, 0, 0, 0, time.UTC), last}
	}
	return span{last, last}
}

// relText names a last_* period for a note: "the last 2 months", "the last month".
func relText(rel string, n int) string {
	unit := strings.TrimPrefix(strings.TrimPrefix(rel, "last_n_"), "last_")
	if strings.HasPrefix(rel, "last_n_") && n != 1 {
		return fmt.Sprintf("the last %d %ss", n, unit)
	}
	return "the last " + unit
}

// timeFilter turns a resolution into the semantic query's time filter.
func timeFilter(src, field string, r resolved) semantic.TimeFilter {
	tf := semantic.TimeFilter{Source: src, Field: field, Label: r.label}
	for _, s := range r.spans {
		tf.Ranges = append(tf.Ranges, semantic.Range{From: s.from.Format(day), To: s.to.Format(day)})
	}
	return tf
}
