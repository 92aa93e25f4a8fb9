package ui

import (
	"net/http"
	"slices"

	"github.com/weirgw/weir/gateway/audit"
)

// pageSize is the number of decisions per list page.
const pageSize = 50

type listPage struct {
	Filter       Filter
	Facets       facets
	Rows         []entry
	Total, Pages int
	Prev, Next   string // query strings of the neighbouring pages, "" when none
	Error        string
}

// list shows the decisions that pass the filter, newest first, a page at a time.
func (h *Handler) list(w http.ResponseWriter, r *http.Request) {
	p := listPage{Filter: parseFilter(r.URL.Query())}
	var rows []entry
	seen := newFacetSet()
	err := h.scan(func(_ string, _ int, rec *audit.Record) bool {
		seen.add(rec)
		if p.Filter.match(rec) {
			rows = append(rows, newEntry(rec))
		}
		return true
	})
	if err != nil {
		p.Error = err.Error()
	}
	slices.Reverse(rows)
	p.Facets, p.Total = seen.sorted(), len(rows)
	p.Pages = max(1, (p.Total+pageSize-1)/pageSize)
	page := min(p.Filter.Page, p.Pages)
	p.Rows = rows[min((page-1)*pageSize, len(rows)):min(page*pageSize, len(rows))]
	if page > 1 {
		p.Prev = "?" + p.Filter.query(page-1)
	}
	if page < p.Pages {
		p.Next = "?" + p.Filter.query(page+1)
	}
	p.Filter.Page = page
	h.render(w, http.StatusOK, "list.html", p)
}

type decisionPage struct {
	Record     *audit.Record
	File       string
	Line       int
	Latency    []stage
	HasContent bool
}

type stage struct {
	Name string
	US   int64
}

// decision shows every field of one record.
func (h *Handler) decision(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	rec, file, line, err := h.find(id)
	switch {
	case err != nil:
		h.render(w, http.StatusInternalServerError, "error.html", err.Error())
		return
	case rec == nil:
		h.render(w, http.StatusNotFound, "error.html", "no decision "+id+" in the trail")
		return
	}
	p := decisionPage{Record: rec, File: file, Line: line, HasContent: rec.Content != nil}
	for name, us := range rec.LatencyUS {
		p.Latency = append(p.Latency, stage{name, us})
	}
	slices.SortFunc(p.Latency, func(a, b stage) int { return int(b.US - a.US) })
	h.render(w, http.StatusOK, "decision.html", p)
}

type summaryPage struct {
	Filter Filter
	Facets facets
	Total  int
	Charts []chart
	Error  string
}

// summary shows the charts of the decisions that pass the filter.
func (h *Handler) summary(w http.ResponseWriter, r *http.Request) {
	p := summaryPage{Filter: parseFilter(r.URL.Query())}
	var recs []summaryRecord
	seen := newFacetSet()
	err := h.scan(func(_ string, _ int, rec *audit.Record) bool {
		seen.add(rec)
		if p.Filter.match(rec) {
			recs = append(recs, newSummaryRecord(rec))
		}
		return true
	})
	if err != nil {
		p.Error = err.Error()
	}
	p.Facets, p.Total = seen.sorted(), len(recs)
	p.Charts = charts(recs)
	h.render(w, http.StatusOK, "summary.html", p)
}
