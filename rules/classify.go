package rules

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/expr-lang/expr/vm"
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

// Classify classifies text. It never panics and never fails: problems with the fallback
// tier lead to the pack default, and the result says why.
func (c *Classifier) Classify(ctx context.Context, text string) Classification {
	p := c.pack
	s, norm, truncated := c.begin(text)
	defer s.release()
	res := Classification{Filters: map[string]any{}, Truncated: truncated, ScannedBytes: len(s.orig)}
	c.extract(&res, norm, s.orig, s)
	c.matchRules(&res, s, norm, s.orig)
	c.score(&res, s)
	if res.Confidence < p.below {
		c.fallBack(ctx, &res, s.orig, norm.text)
	}
	if i, ok := p.intentIndex[res.Intent]; ok {
		// Shared with the pack, which never changes them.
		res.PrimaryTool, res.FallbackTools = p.intents[i].Route.PrimaryTool, p.intents[i].Route.FallbackTools
	}
	return res
}

// begin takes a scratch from the pool and prepares it for text: capped (truncated says
// whether it was), normalized and, unless the prefilter is off, prefiltered. The caller
// releases the scratch.
func (c *Classifier) begin(text string) (s *scratch, norm normalized, truncated bool) {
	p := c.pack
	orig, truncated := capText(text, p.maxScan)
	s = scratchPool.Get().(*scratch)
	s.reset(p)
	norm = normalizeSegs(orig, p.norm, s.segs[:0])
	if norm.segs != nil {
		s.segs = norm.segs[:0]
	}
	s.shared, s.native = !c.noPrefilter, !c.noPrefilter
	s.text, s.orig = norm.text, orig
	s.pf = nil
	if c.noPrefilter || p.prefilter == nil {
		for i := range s.want {
			s.want[i] = true
		}
	} else {
		s.pf = p.prefilter.Get()
		p.prefilter.Decide(s.pf, norm.text, s.want)
	}
	s.opf = nil
	if !c.noPrefilter && p.origFilter != nil {
		s.opf = p.origFilter.Get()
		s.owant = resize(s.owant, len(p.origPatterns))
		p.origFilter.Decide(s.opf, orig, s.owant)
	}
	return s, norm, truncated
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

// extract runs the extractors, recording their values in s.vals for the expressions.
func (c *Classifier) extract(res *Classification, norm normalized, orig string, s *scratch) {
	p := c.pack
	spans := s.spans[:0]
	for xi, x := range p.extractors {
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
		s.vals[xi] = v
	}
	if len(spans) > 0 {
		res.Spans = slices.Clone(spans)
	}
	s.spans = spans
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
func (c *Classifier) matchRules(res *Classification, s *scratch, norm normalized, orig string) {
	p := c.pack
	for i, r := range p.rules {
		if r.when != nil || r.re == nil {
			continue
		}
		s.matched[i] = c.patternMatches(r, s, norm.text, orig)
	}
	for i, r := range p.rules {
		if r.when == nil {
			continue
		}
		if r.re != nil && !c.patternMatches(r, s, norm.text, orig) {
			continue
		}
		s.matched[i] = s.when(r)
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
			res.Rules = append(res.Rules, RuleMatch{ID: r.id, Intent: r.intent, Weight: r.weight, Description: r.description})
			s.scores[r.intentIdx] += r.weight
		}
	}
}

// when evaluates a rule's `when`; identical expressions that do not call matched() read
// nothing that changes while the rules are decided, so they are evaluated once per question.
func (s *scratch) when(r *rule) bool {
	if r.whenID < 0 || !s.shared {
		return s.eval(r.when, r.cond)
	}
	v := s.whens[r.whenID]
	if v == 0 {
		v = -1
		if s.eval(r.when, r.cond) {
			v = 1
		}
		s.whens[r.whenID] = v
	}
	return v > 0
}

// eval evaluates an expression: its Go form when it has one and the call runs them, else
// the VM.
func (s *scratch) eval(prog *vm.Program, cond condBool) bool {
	if cond != nil && s.native {
		return cond(s)
	}
	return evalBool(prog, s.vmEnv())
}

// patternMatches decides a rule's pattern. Where the prefilter's verdict is exact (the
// pattern is nothing but literal alternatives, word boundaries and gaps) no regex runs; where
// the pattern has an anchor plan the regex runs only where a match can start.
func (c *Classifier) patternMatches(r *rule, s *scratch, norm, orig string) bool {
	if r.onOriginal {
		if s.opf != nil {
			return s.owant[r.origIdx] && c.pack.origFilter.MatchString(s.opf, r.origIdx, r.re, orig)
		}
		return r.re.MatchString(orig)
	}
	if !s.want[r.patternIdx] {
		return false
	}
	if s.pf != nil {
		return c.pack.prefilter.MatchString(s.pf, r.patternIdx, r.re, norm)
	}
	return r.re.MatchString(norm)
}

// score turns the summed weights into an intent and a confidence, then applies overrides.
func (c *Classifier) score(res *Classification, s *scratch) {
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
	if len(p.decide) > 0 {
		decideEnv := false
		for k, o := range p.decide {
			if (o.cond == nil || !s.native) && !decideEnv {
				decideEnv = true
				s.addDecideNames(res)
			}
			if s.eval(o.when, o.cond) {
				overrideAt = k
				res.Intent, res.Confidence, res.Override = p.intents[o.intentIdx].Name, o.confidence, o.id
				res.OverrideDescription = o.description
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

// addDecideNames adds the names only decide expressions read to the VM's environment.
func (s *scratch) addDecideNames(res *Classification) {
	p, env := s.pack, s.vmEnv()
	if p.envUses&envIntent != 0 {
		env["intent"] = res.Intent
	}
	if p.envUses&envConfidence != 0 {
		env["confidence"] = res.Confidence
	}
	if p.envUses&envScore != 0 {
		env["score"] = s.scoreFn
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
