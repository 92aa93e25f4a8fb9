package rules

import (
	"cmp"
	"hash/fnv"
	"slices"
	"strconv"
)

// Tally counts questions, how many of them the rules decided and how many of those they
// got right.
type Tally struct {
	Name    string `json:"name"`
	N       int    `json:"n"`
	Decided int    `json:"decided"`
	Right   int    `json:"right"`
}

// Coverage is the share of the questions the rules decided.
func (t Tally) Coverage() float64 { return ratio(t.Decided, t.N) }

// Precision is the share of the decided questions the rules got right; 0 when none.
func (t Tally) Precision() float64 { return ratio(t.Right, t.Decided) }

func (t *Tally) add(decided, right bool) {
	t.N++
	if decided {
		t.Decided++
		if right {
			t.Right++
		}
	}
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// IntentCalibration is one intent's line of a calibration.
type IntentCalibration struct {
	Intent string `json:"intent"`
	// Labelled tallies the questions labelled with the intent: how many the rules decided
	// (as any intent) and how many as this one.
	Labelled Tally `json:"labelled"`
	// Claimed tallies the questions the rules decided as the intent: Decided of them, Right.
	Claimed Tally `json:"claimed"`
	// Threshold is the lowest confidence at which the rules' answers of this intent reach
	// the target precision; Found is false when no threshold does.
	Threshold float64 `json:"threshold"`
	Found     bool    `json:"found"`
}

// Calibration measures a pack's rules on labelled questions: the inline tests and the held
// sets (every set but the inline tests, which pass by construction and so say nothing about
// errors). Estimates are computed from the held sets only.
type Calibration struct {
	Pack      string  `json:"pack"`
	Threshold float64 `json:"threshold"` // the pack's fallback.below
	Target    float64 `json:"target"`
	Folds     int     `json:"folds"`
	// Sets tallies every set at the pack's threshold, the inline tests first; Held sums
	// the held sets, Styles breaks them down by style.
	Sets   []Tally `json:"sets"`
	Held   Tally   `json:"held"`
	Styles []Tally `json:"styles,omitempty"`
	// Intents breaks the held sets down by intent.
	Intents []IntentCalibration `json:"intents"`
	// Bands tallies the held questions the rules answered by confidence band: a band whose
	// precision is under the target is confidence the rules have not earned.
	Bands []Tally `json:"bands"`
	// Suggested is the lowest threshold at which the held sets' precision reaches the target
	// (Found is false when none does); AtSuggested tallies the held sets there.
	Suggested   float64 `json:"suggested"`
	Found       bool    `json:"found"`
	AtSuggested Tally   `json:"at_suggested"`
	// CrossVal estimates AtSuggested on questions the threshold was not chosen on: the held
	// questions are split into Folds folds and each is scored at the threshold chosen on the
	// others.
	CrossVal Tally `json:"cross_validated"`
	// Suspects are the rules and decide overrides behind at least two wrong decisions on
	// the held sets whose precision is under the target, the most wrong first.
	Suspects []Tally `json:"suspects,omitempty"`
	// Outcomes holds every question's outcome, inline tests first.
	Outcomes []Outcome `json:"-"`
}

// measure computes a Calibration from the outcomes of the sets, in order (inline first).
func (p *Pack) measure(sets []LabelledSet, outcomes []Outcome) *Calibration {
	c := &Calibration{Pack: p.name, Threshold: p.below, Target: p.calib.target, Folds: p.calib.folds, Outcomes: outcomes}
	bySet := map[string]*Tally{}
	for _, s := range sets {
		if _, ok := bySet[s.Name]; !ok {
			c.Sets = append(c.Sets, Tally{Name: s.Name})
			bySet[s.Name] = nil
		}
	}
	for i := range c.Sets {
		bySet[c.Sets[i].Name] = &c.Sets[i]
	}
	var held []Outcome
	for _, o := range outcomes {
		bySet[o.Set].add(o.Decided, o.Right())
		if o.Set != "inline" {
			held = append(held, o)
		}
	}
	c.Held = tallyOf("held", held, p.below)
	c.Styles = styleTallies(held, p.below)
	c.Intents = p.intentCalibrations(held, c.Target)
	c.Bands = bands(held, p.below)
	c.Suggested, c.Found = suggest(held, c.Target, p.below)
	if c.Found {
		c.AtSuggested = tallyOf("suggested", held, c.Suggested)
	}
	c.CrossVal = crossValidate(held, c.Target, p.below, c.Folds)
	c.Suspects = suspects(held, c.Target)
	return c
}

// tallyOf counts os as decided when the rules answered at or above threshold.
func tallyOf(name string, os []Outcome, threshold float64) Tally {
	t := Tally{Name: name}
	for _, o := range os {
		t.add(o.Got != "" && o.Confidence >= threshold, o.Right())
	}
	return t
}

func styleTallies(os []Outcome, threshold float64) []Tally {
	by := map[string][]Outcome{}
	for _, o := range os {
		if o.Style != "" {
			by[o.Style] = append(by[o.Style], o)
		}
	}
	var out []Tally
	for style, list := range by {
		out = append(out, tallyOf(style, list, threshold))
	}
	slices.SortFunc(out, func(a, b Tally) int { return cmp.Compare(a.Name, b.Name) })
	return out
}

func (p *Pack) intentCalibrations(held []Outcome, target float64) []IntentCalibration {
	out := make([]IntentCalibration, len(p.intents))
	claimed := make([][]Outcome, len(p.intents))
	for i, in := range p.intents {
		out[i] = IntentCalibration{Intent: in.Name, Labelled: Tally{Name: in.Name}, Claimed: Tally{Name: in.Name}}
	}
	for _, o := range held {
		decided := o.Got != "" && o.Confidence >= p.below
		if i, ok := p.intentIndex[o.Intent]; ok {
			out[i].Labelled.add(decided, o.Right())
		}
		if i, ok := p.intentIndex[o.Got]; ok {
			claimed[i] = append(claimed[i], o)
			if decided {
				out[i].Claimed.add(true, o.Right())
			}
		}
	}
	for i := range out {
		out[i].Threshold, out[i].Found = suggest(claimed[i], target, p.below)
	}
	return out
}

// bands tallies the answered outcomes (Decided counts them all) in confidence bands a tenth
// wide, from the tenth below the threshold up; the top band includes 1.
func bands(os []Outcome, threshold float64) []Tally {
	lo := int(threshold * 10)
	out := make([]Tally, 0, 10-lo)
	for b := lo; b < 10; b++ {
		name := strconv.FormatFloat(float64(b)/10, 'f', 1, 64) + "–" + strconv.FormatFloat(float64(b+1)/10, 'f', 1, 64)
		out = append(out, Tally{Name: name})
	}
	for _, o := range os {
		if o.Got == "" || o.Confidence < float64(lo)/10 {
			continue
		}
		b := min(int(o.Confidence*10), 9) - lo
		out[b].add(true, o.Right())
	}
	return out
}

// suggest returns the lowest threshold at which the precision of the answered outcomes at
// or above it reaches target, and whether one does. Lower thresholds decide more, so this
// is the threshold with the most coverage that keeps the target. The candidates are the
// answers' confidences and also floor (the pack's own threshold), so that a pack whose
// threshold is fine is told so rather than the nearest confidence above it.
func suggest(os []Outcome, target, floor float64) (float64, bool) {
	answered := make([]Outcome, 0, len(os))
	for _, o := range os {
		if o.Got != "" {
			answered = append(answered, o)
		}
	}
	slices.SortStableFunc(answered, func(a, b Outcome) int { return cmp.Compare(b.Confidence, a.Confidence) })
	best, found := 0.0, false
	decided, right := 0, 0
	keeps := func() bool { return decided > 0 && float64(right) >= target*float64(decided) }
	floorSeen := false
	for i := 0; i < len(answered); {
		conf := answered[i].Confidence
		if !floorSeen && conf < floor {
			floorSeen = true
			if keeps() {
				best, found = floor, true
			}
		}
		for ; i < len(answered) && answered[i].Confidence == conf; i++ {
			decided++
			if answered[i].Right() {
				right++
			}
		}
		if keeps() {
			best, found = conf, true
		}
	}
	if !floorSeen && keeps() && floor < best {
		best = floor
	}
	return best, found
}

// crossValidate splits os into k folds by a hash of the question and scores each fold at
// the threshold suggested by the others; a fold whose others reach no threshold decides
// nothing.
func crossValidate(os []Outcome, target, floor float64, k int) Tally {
	t := Tally{Name: "cross-validated"}
	if k < 2 || len(os) < k {
		return t
	}
	fold := make([]int, len(os))
	for i, o := range os {
		h := fnv.New32a()
		h.Write([]byte(o.Query))
		fold[i] = int(h.Sum32() % uint32(k))
	}
	for f := 0; f < k; f++ {
		var train, test []Outcome
		for i, o := range os {
			if fold[i] == f {
				test = append(test, o)
			} else {
				train = append(train, o)
			}
		}
		th, ok := suggest(train, target, floor)
		for _, o := range test {
			t.add(ok && o.Got != "" && o.Confidence >= th, o.Right())
		}
	}
	return t
}

// suspects tallies, per rule and override, the decided outcomes it argued for.
func suspects(os []Outcome, target float64) []Tally {
	by := map[string]*Tally{}
	var names []string
	count := func(name string, right bool) {
		t := by[name]
		if t == nil {
			t = &Tally{Name: name}
			by[name] = t
			names = append(names, name)
		}
		t.add(true, right)
	}
	for _, o := range os {
		if !o.Decided {
			continue
		}
		for _, id := range o.Support {
			count(id, o.Right())
		}
		if o.Override != "" {
			count("decide "+o.Override, o.Right())
		}
	}
	var out []Tally
	for _, n := range names {
		t := *by[n]
		if wrong := t.Decided - t.Right; wrong >= 2 && t.Precision() < target {
			out = append(out, t)
		}
	}
	slices.SortStableFunc(out, func(a, b Tally) int {
		return cmp.Or(cmp.Compare(b.Decided-b.Right, a.Decided-a.Right), cmp.Compare(a.Name, b.Name))
	})
	return out
}
