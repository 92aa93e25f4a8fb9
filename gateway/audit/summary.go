package audit

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"
)

// Summary counts a trail's decisions: the view a security reviewer starts from.
type Summary struct {
	Records      int            `json:"records"`
	Skipped      int            `json:"skipped"` // lines that are not records
	From, To     time.Time      `json:"-"`
	Outcomes     map[string]int `json:"outcomes"`
	Intents      map[string]int `json:"intents"`
	Violations   map[string]int `json:"violations"`
	Tools        map[string]int `json:"tools"`         // proposed tool calls by name
	BlockedTools map[string]int `json:"blocked_tools"` // denied tool calls by name
}

// Summarize reads a trail and counts the records at or after since (all when zero).
func Summarize(r io.Reader, since time.Time) (*Summary, error) {
	s := &Summary{
		Outcomes: map[string]int{}, Intents: map[string]int{}, Violations: map[string]int{},
		Tools: map[string]int{}, BlockedTools: map[string]int{},
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxLine)
	for sc.Scan() {
		var rec Record
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil || rec.DecisionID == "" {
			s.Skipped++
			continue
		}
		if !since.IsZero() && rec.Time.Before(since) {
			continue
		}
		s.add(&rec)
	}
	return s, sc.Err()
}

func (s *Summary) add(r *Record) {
	s.Records++
	if s.From.IsZero() || r.Time.Before(s.From) {
		s.From = r.Time
	}
	if r.Time.After(s.To) {
		s.To = r.Time
	}
	s.Outcomes[r.Outcome]++
	if r.Intent != "" {
		s.Intents[r.Intent]++
	}
	for _, v := range r.Violations {
		s.Violations[v.Code]++
	}
	for _, c := range r.ToolCalls {
		s.Tools[c.Name]++
		if !c.Allowed {
			s.BlockedTools[c.Name]++
		}
	}
}

// WriteText prints the summary as aligned tables, largest counts first.
func (s *Summary) WriteText(w io.Writer, top int) {
	fmt.Fprintf(w, "%d records", s.Records)
	if s.Records > 0 {
		fmt.Fprintf(w, " from %s to %s", s.From.UTC().Format(time.RFC3339), s.To.UTC().Format(time.RFC3339))
	}
	if s.Skipped > 0 {
		fmt.Fprintf(w, " (%d unreadable lines skipped)", s.Skipped)
	}
	fmt.Fprintln(w)
	section(w, "outcome", s.Outcomes, 0)
	section(w, "intent", s.Intents, 0)
	section(w, "violation", s.Violations, 0)
	section(w, "tool", s.Tools, 0)
	section(w, "top blocked tools", s.BlockedTools, top)
}

func section(w io.Writer, title string, counts map[string]int, top int) {
	fmt.Fprintf(w, "\n%s\n", title)
	if len(counts) == 0 {
		fmt.Fprintln(w, "  (none)")
		return
	}
	for _, kv := range sorted(counts, top) {
		fmt.Fprintf(w, "  %-32s %6d\n", kv.key, kv.n)
	}
}

type count struct {
	key string
	n   int
}

// sorted orders counts by count, then name; top > 0 keeps the first top.
func sorted(m map[string]int, top int) []count {
	out := make([]count, 0, len(m))
	for k, n := range m {
		out = append(out, count{k, n})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].n != out[j].n {
			return out[i].n > out[j].n
		}
		return strings.Compare(out[i].key, out[j].key) < 0
	})
	if top > 0 && len(out) > top {
		out = out[:top]
	}
	return out
}
