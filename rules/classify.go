package rules

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"slices"
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

// withoutPrefilter runs every regex on the whole text and evaluates every expression, with
// no prefilter, plan or shared evaluation; tests use it to prove the fast paths change nothing.
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
	// positions anchor plans start from. opf and owant are the same for the original text.
	pf      *pfScratch
	opf     *pfScratch
	owant   []bool
	pack    *Pack
	want    []bool
	matched []bool
	scores  []float64
	// found, hits and spans collect an extractor's values before they are copied out;
	// firstAt[slot] is where a scalar filter's value starts (-1: none yet); whens holds the
	// shared `when` results (0 unknown, 1 true, -1 false).
	found   []found
	hits    []aliasHit
	segs    []normSeg // the normalized text's map back to the original, used within the call
	spans   []Span
	firstAt []int
	whens   []int8
	shared  bool // identical `when` expressions are evaluated once (off without the prefilter)
	// env is the expression environment, reused from call to call; matchedFn and scoreFn
	// read the current call's state through the scratch, so they are made once.
	env       map[string]any
	matchedFn func(id string) bool
	scoreFn   func(intent string) float64
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

func (s *scratch) reset(p *Pack) {
	s.pack = p
	s.want = resize(s.want, len(p.patterns))
	s.matched = resize(s.matched, len(p.rules))
	s.scores = resizeF(s.scores, len(p.intents))
	if cap(s.firstAt) < p.nslots {
		s.firstAt = make([]int, p.nslots)
	}
	s.firstAt = s.firstAt[:p.nslots]
	for i := range s.firstAt {
		s.firstAt[i] = -1
	}
	if cap(s.whens) < p.nwhens {
		s.whens = make([]int8, p.nwhens)
	}
	s.whens = s.whens[:p.nwhens]
	clear(s.whens)
}

// environment returns the cleared expression environment, or nil when the pack has no
// expressions.
func (s *scratch) environment() map[string]any {
	if !s.pack.hasExpr {
		return nil
	}
	if s.env == nil {
		s.env = make(map[string]any, len(s.pack.extractors)+8)
		s.matchedFn = func(id string) bool { return s.matched[s.pack.ruleIndex[id]] }
		s.scoreFn = func(name string) float64 {
			if i, ok := s.pack.intentIndex[name]; ok {
				return s.scores[i]
			}
			return 0
		}
	}
	clear(s.env)
	return s.env
}

// release drops the call's values from the buffers before the scratch returns to the pool.
func (s *scratch) release() {
	clear(s.found[:cap(s.found)])
	clear(s.hits[:cap(s.hits)])
	clear(s.spans[:cap(s.spans)])
	clear(s.env)
	s.pack, s.pf, s.opf = nil, nil, nil
	scratchPool.Put(s)
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
	s := scratchPool.Get().(*scratch)
	defer s.release()
	s.reset(p)
	norm := normalizeSegs(orig, p.norm, s.segs[:0])
	if norm.segs != nil {
		s.segs = norm.segs[:0]
	}
	s.shared = !c.noPrefilter
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
	s.opf = nil
	if !c.noPrefilter && p.origFilter != nil {
		s.opf = p.origFilter.scratch.Get().(*pfScratch)
		defer p.origFilter.scratch.Put(s.opf)
		s.owant = resize(s.owant, len(p.origPatterns))
		p.origFilter.decide(s.opf, orig, s.owant)
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
	env := s.environment()
	spans := s.spans[:0]
	for _, x := range p.extractors {
		hits := x.run(norm, orig, s, c.pack.prefilter, c.now)
		for _, h := range hits {
			spans = append(spans, Span{Field: x.field, Value: h.value, Start: h.start, End: h.end, Text: orig[h.start:h.end]})
		}
		var v any
		if x.list {
			v = emptyList
			if len(hits) > 0 {
				list := make([]any, len(hits))
				for i, h := range hits {
					list[i] = h.value
				}
				v = list // boxed once, for the environment and the filter alike
				mergeList(res.Filters, x, list, v)
			}
		} else if len(hits) > 0 {
			v = hits[0].value
			if at := s.firstAt[x.slot]; at < 0 || hits[0].start < at {
				s.firstAt[x.slot] = hits[0].start
				setFilter(res.Filters, x, v)
			}
		}
		if env != nil {
			env[x.key] = v
		}
	}
	if len(spans) > 0 {
		res.Spans = slices.Clone(spans)
	}
	s.spans = spans
	if env != nil {
		if p.envUses&envText != 0 {
			env["text"] = norm.text
		}
		if p.envUses&envOriginal != 0 {
			env["original"] = orig
		}
		if p.envUses&envWords != 0 {
			env["words"] = countWords(norm.text)
		}
	}
	return env
}

// emptyList is the value of a list extractor that found nothing; expressions only read it.
var emptyList any = []any{}

// mergeList adds a list extractor's values to its field, keeping values distinct when
// several extractors write the same field; boxed is list as an any.
func mergeList(filters map[string]any, x *extractor, list []any, boxed any) {
	prev, _ := getFilter(filters, x).([]any)
	if prev == nil {
		// The extractor's own values are already distinct (see dedupe).
		setFilter(filters, x, boxed)
		return
	}
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
	if env != nil && p.envUses&envMatched != 0 {
		env["matched"] = s.matchedFn
	}
	for i, r := range p.rules {
		if r.when == nil {
			continue
		}
		if r.re != nil && !c.patternMatches(r, s, norm.text, orig) {
			continue
		}
		s.matched[i] = s.when(r, env)
	}
	n := 0
	for _, m := range s.matched {
		if m {
			n++
		}
	}
	if n > 0 {
		res.Rules = make([]RuleMatch, 0, n)
	}
	for i, r := range p.rules {
		if s.matched[i] {
			res.Rules = append(res.Rules, RuleMatch{ID: r.id, Intent: r.intent, Weight: r.weight})
			s.scores[r.intentIdx] += r.weight
		}
	}
}

// when evaluates a rule's `when`; identical expressions that do not call matched() read
// nothing that changes while the rules are decided, so they are evaluated once per question.
func (s *scratch) when(r *rule, env map[string]any) bool {
	if r.whenID < 0 || !s.shared {
		return evalBool(r.when, env)
	}
	v := s.whens[r.whenID]
	if v == 0 {
		v = -1
		if evalBool(r.when, env) {
			v = 1
		}
		s.whens[r.whenID] = v
	}
	return v > 0
}

// patternMatches decides a rule's pattern. Where the prefilter's verdict is exact (the
// pattern is nothing but literal alternatives, word boundaries and gaps) no regex runs; where
// the pattern has an anchor plan the regex runs only where a match can start.
func (c *Classifier) patternMatches(r *rule, s *scratch, norm, orig string) bool {
	if r.onOriginal {
		if s.opf != nil {
			return s.owant[r.origIdx] && c.pack.origFilter.matchString(s.opf, r.origIdx, r.re, orig)
		}
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
	n := 0
	for _, sc := range s.scores {
		if sc > 0 {
			n++
		}
	}
	if n > 0 {
		res.Scores = make([]IntentScore, 0, n)
	}
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
		if p.envUses&envIntent != 0 {
			env["intent"] = res.Intent
		}
		if p.envUses&envConfidence != 0 {
			env["confidence"] = res.Confidence
		}
		if p.envUses&envScore != 0 {
			env["score"] = s.scoreFn
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
	// The reason grows in a stack buffer and becomes a string once, with its ending.
	var buf [160]byte
	why := buf[:0]
	if res.Intent == "" {
		why = append(why, "no rule matched"...)
	} else {
		why = append(why, "rules confidence "...)
		why = strconv.AppendFloat(why, res.Confidence, 'f', 2, 64)
		why = append(append(why, " is below "...), p.belowText...)
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
			res.Reason = string(append(why, "; the fallback classifier decided"...))
			return
		}
		info.Error = err.Error()
		why = append(append(why, "; fallback failed: "...), info.Error...)
	}
	res.Intent, res.Confidence = p.Default()
	res.Source = SourceDefault
	res.Reason = string(append(why, "; the pack default applies"...))
}

func clamp01(f float64) float64 { return math.Max(0, math.Min(1, f)) }
