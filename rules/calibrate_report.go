package rules

import (
	"fmt"
	"strings"
	"text/tabwriter"
)

// Summary is the calibration in a few lines, as `weir check` prints it: the held sets at the
// pack's threshold, the threshold that keeps the target precision with its cross-validated
// estimate, and the rules whose confidence is not earned.
func (c *Calibration) Summary() string {
	var b strings.Builder
	var parts []string
	for _, s := range c.Sets[1:] {
		parts = append(parts, fmt.Sprintf("%s %d", s.Name, s.N))
	}
	if c.Held.N == 0 {
		fmt.Fprintf(&b, "calibration %s: no labelled sets besides the inline tests\n", c.Pack)
		return b.String()
	}
	fmt.Fprintf(&b, "calibration %s: %d held questions (%s): at threshold %.2f the rules decide %s, precision %s (target %s)\n",
		c.Pack, c.Held.N, strings.Join(parts, ", "), c.Threshold, pct(c.Held.Coverage()), pctOf(c.Held), pct(c.Target))
	if c.Found {
		fmt.Fprintf(&b, "  threshold for ≥ %s: %.2f (decides %s, precision %s); %d-fold estimate: decides %s, precision %s\n",
			pct(c.Target), c.Suggested, pct(c.AtSuggested.Coverage()), pctOf(c.AtSuggested), c.Folds, pct(c.CrossVal.Coverage()), pctOf(c.CrossVal))
	} else {
		fmt.Fprintf(&b, "  no threshold reaches %s precision\n", pct(c.Target))
	}
	if c.Held.Decided > 0 && c.Held.Precision() < c.Target {
		fmt.Fprintf(&b, "  confidence not earned: precision at the pack's threshold is under the target\n")
	}
	if len(c.Suspects) > 0 {
		var s []string
		for _, t := range c.Suspects[:min(len(c.Suspects), 5)] {
			s = append(s, fmt.Sprintf("%s (%d wrong of %d)", t.Name, t.Decided-t.Right, t.Decided))
		}
		fmt.Fprintf(&b, "  confidently wrong most often: %s\n", strings.Join(s, ", "))
	}
	return b.String()
}

// Report is the full calibration: per set, intent, style and confidence band, the suspects
// and, when misses is true, every question decided wrongly.
func (c *Calibration) Report(misses bool) string {
	var b strings.Builder
	b.WriteString(c.Summary())
	tw := tabwriter.NewWriter(&b, 0, 4, 2, ' ', tabwriter.AlignRight)
	row := func(name string, t Tally) {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%d\t%s\t\n", name, t.N, t.Decided, pct(t.Coverage()), t.Right, pctOf(t))
	}
	fmt.Fprintln(tw, "\nset\tquestions\tdecided\tcoverage\tright\tprecision\t")
	for _, s := range c.Sets {
		row(s.Name, s)
	}
	row("held", c.Held)
	if len(c.Styles) > 0 {
		fmt.Fprintln(tw, "\nstyle (held)\tquestions\tdecided\tcoverage\tright\tprecision\t")
		for _, s := range c.Styles {
			row(s.Name, s)
		}
	}
	fmt.Fprintln(tw, "\nconfidence (held)\tanswered\tright\tprecision\t")
	for _, s := range c.Bands {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t\n", s.Name, s.N, s.Right, pctOf(s))
	}
	fmt.Fprintln(tw, "\nintent (held)\tlabelled\tdecided\tcoverage\tclaimed\tprecision\tthreshold\t")
	for _, in := range c.Intents {
		th := "none"
		if in.Found {
			th = fmt.Sprintf("%.2f", in.Threshold)
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%d\t%s\t%s\t\n", in.Intent, in.Labelled.N, in.Labelled.Decided, pct(in.Labelled.Coverage()), in.Claimed.Decided, pctOf(in.Claimed), th)
	}
	if len(c.Suspects) > 0 {
		fmt.Fprintln(tw, "\nsuspect (held)\tdecided\twrong\tprecision\t")
		for _, s := range c.Suspects {
			fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t\n", s.Name, s.Decided, s.Decided-s.Right, pctOf(s))
		}
	}
	_ = tw.Flush()
	if misses {
		b.WriteString("\ndecided wrongly:\n")
		for _, o := range c.Outcomes {
			if o.Decided && !o.Right() {
				fmt.Fprintf(&b, "  %s:%d: %q → %s (%.2f), labelled %s; %s\n", o.File, o.Line, o.Query, o.Got, o.Confidence, o.Intent, supportText(o))
			}
		}
	}
	return b.String()
}

func supportText(o Outcome) string {
	s := strings.Join(o.Support, " ")
	if o.Override != "" {
		s = "decide " + o.Override + "; " + s
	}
	return s
}

func pct(f float64) string { return fmt.Sprintf("%.1f%%", 100*f) }

// pctOf is t's precision, or "-" when it decided nothing.
func pctOf(t Tally) string {
	if t.Decided == 0 {
		return "-"
	}
	return pct(t.Precision())
}
