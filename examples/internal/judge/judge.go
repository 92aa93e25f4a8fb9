// Package judge grades the answers of the query surface (POST /v1/query) against answers
// computed independently by SQL: it reads the VALUES an answer presents — the value of a
// metric, the groups of a breakdown or ranking, the rows of a listing, or the count of
// matching rows — and compares them with the expected ones at their precision.
//
// A question is one line of a question set:
//
//	{"query": "...", "kind": "scalar|groups|ranking|compare|rows|refuse", "expected": ..., "unit": "EUR"}
//
// Each answer falls into one class: exact; wrong (a number presented as the answer that
// differs from the expected one — worse than a refusal); refused (an explicit refusal, an
// error status, or an empty result where a value was expected); other (an answer that
// presents no comparable value: rows where a sum was asked, more groups than asked for).
package judge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/weirgw/weir/adapters/data"
)

// Question is one line of a question set.
type Question struct {
	Query    string          `json:"query"`
	Kind     string          `json:"kind"`
	Expected json.RawMessage `json:"expected"`
	Unit     string          `json:"unit"`
	SQL      string          `json:"sql"`
	Note     string          `json:"note"`
	// Known, when set, marks a question the engine is known not to answer exactly, with the
	// reason; the regression test expects it not to become a wrong number.
	Known string `json:"known,omitempty"`
}

// The classes of an answer.
const (
	Exact   = "exact"
	Wrong   = "wrong"
	Refused = "refused"
	Other   = "other"
)

// Verdict is the class of one answer, and why.
type Verdict struct {
	Class  string
	Detail string
}

// response is the part of a /v1/query answer (or error body) the judge reads.
type response struct {
	Answer   string           `json:"answer"`
	Columns  []string         `json:"columns"`
	Rows     []map[string]any `json:"rows"`
	Metadata *struct {
		DataQuery *struct {
			Aggregations []struct {
				GroupBy string `json:"groupBy"`
			} `json:"aggregations"`
		} `json:"dataQuery"`
		Pagination *struct {
			TotalCount int64 `json:"totalCount"`
		} `json:"pagination"`
		FindingsAnalyzed int `json:"findingsAnalyzed"`
	} `json:"metadata"`
	Result   *Result           `json:"result"`
	Passages []json.RawMessage `json:"passages"`
}

// Result is the structured value of an answer, when the engine gives one: what a reader
// takes as the answer (the value, the groups, or the rows).
type Result struct {
	Shape  string  `json:"shape"` // scalar, groups, rows, none
	Value  any     `json:"value,omitempty"`
	Groups [][]any `json:"groups,omitempty"`
	Count  *int64  `json:"count,omitempty"`
}

// countUnits are units that count rows: a listing of rows presents its size as the answer.
var countUnits = map[string]bool{"findings": true, "orders": true, "declarations": true, "events": true,
	"patients": true, "subjects": true, "companies": true, "customers": true, "products": true}

// Judge grades one answer: status is the HTTP status, body the response JSON.
func Judge(q Question, status int, body []byte) Verdict {
	var r response
	if status != 200 {
		return refusedOrWrong(q, Verdict{Refused, fmt.Sprintf("status %d", status)})
	}
	if err := json.Unmarshal(body, &r); err != nil {
		return Verdict{Other, "undecodable answer: " + err.Error()}
	}
	p := present(&r)
	if p.passages {
		return Verdict{Other, "passages of the documents, no value from the data"}
	}
	if q.Kind == "refuse" {
		if p.refusal {
			return Verdict{Exact, "refused"}
		}
		if p.empty {
			return Verdict{Refused, "an empty result, not a refusal"}
		}
		return Verdict{Wrong, "answered a question the data cannot answer: " + p.String()}
	}
	if p.refusal {
		return Verdict{Refused, truncate(r.Answer, 120)}
	}
	switch q.Kind {
	case "scalar":
		return judgeScalar(q, p)
	case "groups", "compare":
		return judgeGroups(q, p)
	case "ranking":
		return judgeRanking(q, p)
	case "rows":
		return judgeRows(q, p)
	}
	return Verdict{Other, "unknown kind " + q.Kind}
}

func refusedOrWrong(q Question, v Verdict) Verdict {
	if q.Kind == "refuse" {
		return Verdict{Exact, v.Detail}
	}
	return v
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// presented is what an answer presents.
type presented struct {
	refusal bool
	empty   bool
	scalar  *float64
	groups  [][2]any // label, value, in order
	rows    []map[string]any
	count   *int64 // the number of matching rows of a listing
	// passages: the answer cites passages of documents and presents no value of the data
	// (the numbers in their text are the documents', never the answer's).
	passages bool
}

func (p presented) String() string {
	switch {
	case p.scalar != nil:
		return "value " + fmtNum(*p.scalar)
	case p.groups != nil:
		return fmt.Sprintf("%d groups %v", len(p.groups), p.groups)
	case p.count != nil:
		return fmt.Sprintf("%d rows", *p.count)
	}
	return "nothing"
}

// refusalWords mark an answer that declines to answer.
var refusalWords = []string{"cannot answer", "not answered from the data", "was not read", "non posso rispondere"}

func present(r *response) presented {
	var p presented
	low := strings.ToLower(r.Answer)
	for _, w := range refusalWords {
		if strings.Contains(low, w) {
			p.refusal = true
		}
	}
	if r.Result != nil {
		return presentResult(p, r.Result, r.Rows)
	}
	if len(r.Rows) == 0 && len(r.Passages) > 0 && !p.refusal {
		p.passages = true
		return p
	}
	if len(r.Rows) == 0 {
		if f, ok := firstNumber(r.Answer); ok && !p.refusal {
			p.scalar = &f // a number in a text answer (a known answer) is presented as the answer
			return p
		}
		p.empty = !p.refusal
		zero := int64(0)
		if p.empty {
			p.count = &zero
		}
		return p
	}
	if p.refusal {
		return p
	}
	md := r.Metadata
	aggregated := md != nil && md.DataQuery != nil && len(md.DataQuery.Aggregations) > 0
	if !aggregated {
		p.rows = r.Rows
		n := int64(len(r.Rows))
		if md != nil && md.Pagination != nil && md.Pagination.TotalCount > n {
			n = md.Pagination.TotalCount
		}
		p.count = &n
		return p
	}
	grouped := md.DataQuery.Aggregations[0].GroupBy != ""
	if !grouped || len(r.Columns) < 2 {
		if f, ok := num(r.Rows[0][r.Columns[0]]); ok {
			p.scalar = &f
		}
		return p
	}
	for _, row := range r.Rows {
		p.groups = append(p.groups, [2]any{row[r.Columns[0]], row[r.Columns[1]]})
	}
	return p
}

func presentResult(p presented, res *Result, rows []map[string]any) presented {
	switch res.Shape {
	case "rows":
		n := int64(len(rows))
		if res.Count != nil {
			n = *res.Count
		}
		p.count = &n
		if n == 0 {
			p.empty = true
		} else {
			p.rows = rows
		}
	case "scalar":
		if f, ok := num(res.Value); ok {
			p.scalar = &f
		}
	case "groups":
		for _, g := range res.Groups {
			if len(g) >= 2 {
				p.groups = append(p.groups, [2]any{g[0], g[1]})
			}
		}
	default:
		p.empty = !p.refusal
	}
	return p
}

var numberRE = regexp.MustCompile(`(?:^|[^\p{L}\d.-])(\d+(?:\.\d+)?)(?:[^\p{L}\d]|$)`)

// firstNumber is the first number of a text that is not part of a word or a code.
func firstNumber(s string) (float64, bool) {
	m := numberRE.FindStringSubmatch(s)
	if m == nil {
		return 0, false
	}
	f, err := strconv.ParseFloat(m[1], 64)
	return f, err == nil
}

func num(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	case string:
		f, err := strconv.ParseFloat(x, 64)
		return f, err == nil
	}
	return 0, false
}

// same reports a value that the expected one stands for at the set's precision: within
// half a cent of it (1.025 is 1.03 as SQLite rounds it and 1.02 as a float of PostgreSQL's
// 1.025 rounds; both are the data's value), or, for a percentage the set wrote with one
// decimal, within half a tenth (42.86 is 42.9 at one decimal).
func (q Question) same(got, want float64) bool {
	tol := 0.005
	if q.Unit == "%" && maxDecimals(q.Expected) <= 1 {
		tol = 0.05
	}
	return math.Abs(got-want) <= tol+1e-9
}

// maxDecimals is the most digits after the point among the numbers an expected answer
// writes (labels, which are strings, do not count).
func maxDecimals(raw json.RawMessage) int {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	most := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return most
		}
		if n, ok := tok.(json.Number); ok {
			frac, _, _ := strings.Cut(string(n), "e")
			if _, digits, ok := strings.Cut(frac, "."); ok {
				most = max(most, len(digits))
			}
		}
	}
}

func fmtNum(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func label(v any) string {
	switch x := v.(type) {
	case float64:
		return fmtNum(x)
	case nil:
		return ""
	}
	l := periodLabel.ReplaceAllString(data.Fold(fmt.Sprint(v)), "$2-$1")
	if en, ok := weekdays[l]; ok {
		return en
	}
	return l
}

// weekdays are the Italian names of the days of the week, which an answer may write in
// English (the same day).
var weekdays = map[string]string{"lunedi": "monday", "martedi": "tuesday", "mercoledi": "wednesday",
	"giovedi": "thursday", "venerdi": "friday", "sabato": "saturday", "domenica": "sunday"}

// periodLabel matches a quarter or half written before its year ("h1 2024", "q3-2023"),
// which the query surface writes as 2024-h1, 2023-q3.
var periodLabel = regexp.MustCompile(`^([hq][1-4])[ -](\d{4})$`)
