package rules

import (
	"context"
	"path/filepath"
	"strings"
	"time"
)

// Defaults of pack.calibration.
const (
	defaultTarget = 0.95
	defaultFolds  = 5
)

// calibSettings is the compiled pack.calibration: the labelled sets and the precision target.
type calibSettings struct {
	sets   []setRef
	target float64
	folds  int
}

// setRef is a declared labelled set: its path and where it was declared.
type setRef struct {
	path, file string
	line       int
}

func compileCalibration(p *Pack, s *source, d *calibrationDoc, e *errs) {
	if d == nil {
		return
	}
	if d.Target != nil {
		if t := *d.Target; t <= 0 || t > 1 {
			e.add(s.name, s.line("pack", "calibration", "target"), "calibration_invalid", "target must be within (0, 1], got %v", t)
		} else {
			p.calib.target = t
		}
	}
	if d.Folds != nil {
		if k := *d.Folds; k < 2 || k > 20 {
			e.add(s.name, s.line("pack", "calibration", "folds"), "calibration_invalid", "folds must be within [2, 20], got %d", k)
		} else {
			p.calib.folds = k
		}
	}
	for i, path := range d.Sets {
		line := s.line("pack", "calibration", "sets", i)
		if strings.TrimSpace(path) == "" {
			e.add(s.name, line, "calibration_invalid", "a calibration set needs a path")
			continue
		}
		if !filepath.IsAbs(path) {
			path = filepath.Join(filepath.Dir(s.name), path)
		}
		p.calib.sets = append(p.calib.sets, setRef{path: path, file: s.name, line: line})
	}
}

// Outcome is what the rules alone answered for one labelled question.
type Outcome struct {
	Labelled
	// Got and Confidence are the rules' own answer ("" and 0 when no rule matched).
	Got        string
	Confidence float64
	// Decided says whether Confidence reached the pack's fallback.below.
	Decided bool
	// Support lists the matched rules that argue for Got (positive weight); Override is the
	// decide entry that set it, if any.
	Support  []string
	Override string
}

// Right says whether the rules' answer is the label.
func (o Outcome) Right() bool { return o.Got == o.Intent }

// Calibrate classifies every question of the pack's inline tests and of sets with the rules
// alone (no fallback tier) and measures, per set, style and intent, how many the rules decide
// and how many of those they get right, and which threshold keeps precision at the target.
// See Calibration. A label the pack does not define is an error (`set_unknown_intent`).
func (p *Pack) Calibrate(sets []LabelledSet) (*Calibration, error) {
	var e errs
	for _, set := range sets {
		for _, q := range set.Questions {
			if _, ok := p.intentIndex[q.Intent]; !ok {
				e.add(q.File, q.Line, "set_unknown_intent", "intent %q is not declared by pack %s", q.Intent, p.name)
			}
		}
	}
	if err := e.err(); err != nil {
		return nil, err
	}
	var opts []Option
	if !p.testClock.IsZero() {
		now := p.testClock
		opts = append(opts, WithClock(func() time.Time { return now }))
	}
	c := NewClassifier(p, opts...)
	all := append([]LabelledSet{p.inlineSet()}, sets...)
	var outcomes []Outcome
	for _, set := range all {
		for _, q := range set.Questions {
			outcomes = append(outcomes, c.outcome(q))
		}
	}
	return p.measure(all, outcomes), nil
}

// outcome classifies one labelled question with the rules alone.
func (c *Classifier) outcome(q Labelled) Outcome {
	res := c.Classify(context.Background(), q.Query)
	o := Outcome{Labelled: q, Got: res.RulesIntent, Confidence: res.RulesConfidence, Decided: res.Source == SourceRules, Override: res.Override}
	for _, r := range res.Rules {
		if r.Intent == o.Got && r.Weight > 0 {
			o.Support = append(o.Support, r.ID)
		}
	}
	return o
}
