package replay

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/weirgw/weir/gateway/audit"
)

// Report is the replay of a trail: counts, and the exchanges that would change.
type Report struct {
	Records int      `json:"records"`
	Changed int      `json:"changed"`
	Partial int      `json:"partial"` // exchanges replayed from their recorded fields only
	Errors  int      `json:"errors"`  // exchanges the candidate failed to decide
	Skipped int      `json:"skipped"` // lines that are not records
	Changes []Result `json:"changes"`
}

// Files replays every record of the trail's files, in order.
func (c *Candidate) Files(ctx context.Context, files []string) (*Report, error) {
	rep := &Report{Changes: []Result{}}
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		skipped, err := audit.Scan(f, func(_ int, rec *audit.Record) bool {
			rep.add(c.Replay(ctx, rec))
			return ctx.Err() == nil
		})
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		rep.Skipped += skipped
	}
	return rep, ctx.Err()
}

func (rep *Report) add(r Result) {
	rep.Records++
	if len(r.Partial) > 0 {
		rep.Partial++
	}
	if r.Error != "" {
		rep.Errors++
	}
	if r.Changed() {
		rep.Changed++
		rep.Changes = append(rep.Changes, r)
	}
}

// WriteJSON writes the report as one JSON document.
func (rep *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}

// WriteText writes the report as a table, one changed exchange per line.
func (rep *Report) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "%d exchanges replayed: %d would change, %d partial (no content recorded), %d errors",
		rep.Records, rep.Changed, rep.Partial, rep.Errors)
	if rep.Skipped > 0 {
		fmt.Fprintf(w, ", %d unreadable lines skipped", rep.Skipped)
	}
	fmt.Fprintln(w, "\nresponse checks (numbers in answers) are not replayed: the trail does not hold the tool results")
	if len(rep.Changes) == 0 {
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "\nTIME\tDECISION\tROUTE\tINTENT\tWHAT CHANGES\tPARTIAL")
	for _, r := range rep.Changes {
		intent := r.Intent.Now
		if r.Intent.Was != r.Intent.Now {
			intent = r.Intent.Was + " → " + r.Intent.Now
		}
		partial := ""
		if len(r.Partial) > 0 {
			partial = "yes"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.Time, r.DecisionID, r.Route, intent, r.describe(), partial)
	}
	return tw.Flush()
}

// describe lists what changes, in words.
func (r *Result) describe() string {
	var parts []string
	if r.Error != "" {
		parts = append(parts, "error: "+r.Error)
	}
	if r.Admitted.Was != r.Admitted.Now {
		parts = append(parts, "admitted "+verdict(r.Admitted.Was)+" → "+verdict(r.Admitted.Now))
	}
	for _, t := range r.Tools {
		parts = append(parts, "tool "+t.Name+" "+verdict(t.Was)+" → "+verdict(t.Now))
	}
	for _, c := range r.Calls {
		parts = append(parts, "call "+c.Name+" "+verdict(c.Was)+" → "+verdict(c.Now))
	}
	for _, v := range r.Added {
		parts = append(parts, "+"+v)
	}
	for _, v := range r.Removed {
		parts = append(parts, "-"+v)
	}
	return strings.Join(parts, "; ")
}

func verdict(allowed bool) string {
	if allowed {
		return "allowed"
	}
	return "denied"
}
