package rules

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"
)

// timeFunc is the clock extractors read relative years against.
type timeFunc func() time.Time

// Classifier classifies questions with a pack and, when configured, a fallback tier. It is
// safe for concurrent use.
type Classifier struct {
	pack        *Pack
	now         timeFunc
	fallback    Fallback
	noPrefilter bool
}

// Option configures a Classifier.
type Option func(*Classifier)

// WithClock sets the clock used for relative years ("last year"); tests pin it.
func WithClock(now func() time.Time) Option { return func(c *Classifier) { c.now = now } }

// WithFallback sets the tier asked when the rules are not confident.
func WithFallback(f Fallback) Option { return func(c *Classifier) { c.fallback = f } }

// withoutPrefilter runs every regex; tests use it to prove the prefilter changes nothing.
func withoutPrefilter() Option { return func(c *Classifier) { c.noPrefilter = true } }

// NewClassifier returns a classifier for p.
func NewClassifier(p *Pack, opts ...Option) *Classifier {
	c := &Classifier{pack: p, now: time.Now}
	for _, o := range opts {
		o(c)
	}
	return c
}

// Pack returns the classifier's pack.
func (c *Classifier) Pack() *Pack { return c.pack }

// scratch holds per-call buffers, pooled so classification allocates little.
type scratch struct {
	// pf is the prefilter's state for this call (nil when the prefilter is off): the literal
	// positions anchor plans start from.
	pf      *pfScratch
	want    []bool
	matched []bool
	scores  []float64
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

func (s *scratch) reset(p *Pack) {
	s.want = resize(s.want, len(p.patterns))
	s.matched = resize(s.matched, len(p.rules))
	s.scores = resizeF(s.scores, len(p.intents))
}

func resize(b []bool, n int) []bool {
	if cap(b) < n {
		return make([]bool, n)
	}
	b = b[:n]
	clear(b)
	return b
}

func resizeF(b []float64, n int) []float64 {
	if cap(b) < n {
		return make([]float64, n)
	}
	b = b[:n]
	clear(b)
	return b
}

// Classify classifies text. It never panics and never fails: problems with the fallback
// tier lead to the pack default, and the result says why.
func (c *Classifier) Classify(ctx context.Context, text string) Classification {
	p := c.pack
	orig, truncated := capText(text, p.maxScan)
	norm := normalize(orig, p.norm)
	s := scratchPool.Get().(*scratch)
	defer scratchPool.Put(s)
	s.reset(p)
	s.pf = nil
	if c.noPrefilter || p.prefilter == nil {
		for i := range s.want {
			s.want[i] = true
		}
	} else {
		s.pf = p.prefilter.scratch.Get().(*pfScratch)
		defer p.prefilter.scratch.Put(s.pf)
		p.prefilter.decide(s.pf, norm.text, s.want)
	}

	res := Classification{Filters: map[string]any{}, Truncated: truncated, ScannedBytes: len(orig)}
	env := c.extract(&res, norm, orig, s)
	c.matchRules(&res, s, norm, orig, env)
	c.score(&res, s, env)
	if res.Confidence < p.below {
		c.fallBack(ctx, &res, orig, norm.text)
	}
	return res
}

// capText cuts text at max bytes on a rune boundary.
func capText(text string, max int) (string, bool) {
	if len(text) <= max {
		return text, false
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(text[cut]) {
		cut--
	}
	return text[:cut], true
}

// extract runs the extractors and returns the expression environment (nil when the pack
// has no expressions).
func (c *Classifier) extract(res *Classification, norm normalized, orig string, s *scratch) map[string]any {
	p := c.pack
	var env map[string]any
	if p.hasExpr {
		env = make(map[string]any, len(p.extractors)+8)
	}
	var firstAt map[string]int // where each scalar filter's value starts, for shared fields
	for _, x := range p.extractors {
		hits := x.run(norm, orig, s, c.pack.prefilter, c.now)
		for _, h := range hits {
			res.Spans = append(res.Spans, Span{Field: x.field, Value: h.value, Start: h.start, End: h.end, Text: orig[h.start:h.end]})
		}
		var v any
		if x.list {
			list := make([]any, len(hits))
			for i, h := range hits {
				list[i] = h.value
			}
			v = list
			if len(hits) > 0 {
				mergeList(res.Filters, x, list)
			}
		} else if len(hits) > 0 {
			v = hits[0].value
			slot := x.field + "\x00" + x.operator
			if at, seen := firstAt[slot]; !seen || hits[0].start < at {
				if firstAt == nil {
					firstAt = map[string]int{}
				}
				firstAt[slot] = hits[0].start
				setFilter(res.Filters, x, v)
			}
		}
		if env != nil {
			env[x.key] = v
		}
	}
	if env != nil {
		env["text"], env["original"], env["words"] = norm.text, orig, countWords(norm.text)
	}
	return env
}

// mergeList adds a list extractor's values to its field, keeping values distinct when
// several extractors write the same field.
func mergeList(filters map[string]any, x *extractor, list []any) {
	prev, _ := getFilter(filters, x).([]any)
	for _, v := range list {
		dup := false
		for _, q := range prev {
			if reflect.DeepEqual(q, v) {
				dup = true
				break
			}
		}
		if !dup {
			prev = append(prev, v)
		}
	}
	setFilter(filters, x, prev)
}

func getFilter(filters map[string]any, x *extractor) any {
	if x.operator == "" {
		return filters[x.field]
	}
	m, _ := filters[x.field].(map[string]any)
	return m[x.operator]
}

func setFilter(filters map[string]any, x *extractor, v any) {
	if x.operator == "" {
		filters[x.field] = v
		return
	}
	m, _ := filters[x.field].(map[string]any)
	if m == nil {
		m = map[string]any{}
		filters[x.field] = m
	}
	m[x.operator] = v
}

func countWords(s string) int {
	n, in := 0, false
	for i := 0; i < len(s); i++ {
		w := isWordByte(s[i])
		if w && !in {
			n++
		}
		in = w
	}
	return n
}

// matchRules decides every rule: patterns first, then `when` rules in declaration order.
func (c *Classifier) matchRules(res *Classification, s *scratch, norm normalized, orig string, env map[string]any) {
	p := c.pack
	for i, r := range p.rules {
		if r.when != nil || r.re == nil {
			continue
		}
		s.matched[i] = c.patternMatches(r, s, norm.text, orig)
	}
	if env != nil {
		env["matched"] = func(id string) bool { return s.matched[p.ruleIndex[id]] }
	}
	for i, r := range p.rules {
		if r.when == nil {
			continue
		}
		if r.re != nil && !c.patternMatches(r, s, norm.text, orig) {
			continue
		}
		s.matched[i] = evalBool(r.when, env)
	}
	for i, r := range p.rules {
		if s.matched[i] {
			res.Rules = append(res.Rules, RuleMatch{ID: r.id, Intent: r.intent, Weight: r.weight})
			s.scores[r.intentIdx] += r.weight
		}
	}
}

// patternMatches decides a rule's pattern. Where the prefilter's verdict is exact (the
// pattern is nothing but literal alternatives, word boundaries and gaps) no regex runs; where
// the pattern has an anchor plan the regex runs only where a match can start.
func (c *Classifier) patternMatches(r *rule, s *scratch, norm, orig string) bool {
	if r.onOriginal {
		return r.re.MatchString(orig)
	}
	if !s.want[r.patternIdx] {
		return false
	}
	if s.pf != nil {
		return c.pack.prefilter.matchString(s.pf, r.patternIdx, r.re, norm)
	}
	return r.re.MatchString(norm)
}

// score turns the summed weights into an intent and a confidence, then applies overrides.
func (c *Classifier) score(res *Classification, s *scratch, env map[string]any) {
	p := c.pack
	top, runner := -1, 0.0
	for i, sc := range s.scores {
		if sc < 0 {
			s.scores[i] = 0
			sc = 0
		}
		if sc > 0 {
			res.Scores = append(res.Scores, IntentScore{Intent: p.intents[i].Name, Score: round4(sc)})
		}
		if top < 0 || sc > s.scores[top] {
			if top >= 0 {
				runner = math.Max(runner, s.scores[top])
			}
			top = i
		} else {
			runner = math.Max(runner, sc)
		}
	}
	if top >= 0 && s.scores[top] > 0 {
		res.Intent = p.intents[top].Name
		res.Confidence = confidence(s.scores[top], runner)
	}
	overrideAt := -1
	if len(p.decide) > 0 && env != nil {
		env["intent"], env["confidence"] = res.Intent, res.Confidence
		env["score"] = func(name string) float64 {
			if i, ok := p.intentIndex[name]; ok {
				return s.scores[i]
			}
			return 0
		}
		for k, o := range p.decide {
			if evalBool(o.when, env) {
				overrideAt = k
				res.Intent, res.Confidence, res.Override = p.intents[o.intentIdx].Name, o.confidence, o.id
				break
			}
		}
	}
	res.RulesIntent, res.RulesConfidence = res.Intent, res.Confidence
	if res.Intent == "" {
		res.Reason = "no rule matched"
		return
	}
	res.Source = SourceRules
	if res.Override != "" {
		res.Reason = p.decide[overrideAt].reason
	} else {
		res.Reason = p.scoredReason[top]
	}
}

// confidence is the pack-independent formula documented in rules/README.md.
func confidence(top, runner float64) float64 {
	strength := 1 - math.Exp(-top)
	margin := (top - runner) / top
	return round4(strength * (0.5 + 0.5*margin))
}

func round4(f float64) float64 { return math.Round(f*1e4) / 1e4 }

// fallBack applies the second tier, or the pack default, when the rules are not confident.
func (c *Classifier) fallBack(ctx context.Context, res *Classification, orig, norm string) {
	p := c.pack
	why := "rules confidence " + strconv.FormatFloat(res.Confidence, 'f', 2, 64) + " is below " + p.belowText
	if res.Intent == "" {
		why = "no rule matched"
	}
	if c.fallback != nil {
		start := time.Now()
		ans, err := c.fallback.Classify(ctx, FallbackQuery{Pack: p, Text: orig, Normalized: norm, Rules: res})
		info := &FallbackInfo{Model: ans.Model, Latency: ans.Latency, Tokens: ans.Tokens, Cached: ans.Cached, Intent: ans.Intent, Confident: ans.Confidence}
		if info.Latency == 0 {
			info.Latency = time.Since(start)
		}
		res.Fallback = info
		if err == nil {
			if _, ok := p.intentIndex[ans.Intent]; !ok {
				err = fmt.Errorf("the fallback answered intent %q, which the pack does not define", ans.Intent)
			}
		}
		if err == nil {
			res.Intent, res.Confidence, res.Source = ans.Intent, clamp01(ans.Confidence), SourceLLM
			res.Reason = why + "; the fallback classifier decided"
			return
		}
		info.Error = err.Error()
		why += "; fallback failed: " + err.Error()
	}
	res.Intent, res.Confidence = p.Default()
	res.Source = SourceDefault
	res.Reason = why + "; the pack default applies"
}

func clamp01(f float64) float64 { return math.Max(0, math.Min(1, f)) }
