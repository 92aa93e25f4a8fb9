package rules

import (
	"sync"

	"github.com/weirgw/weir/rules/internal/prefilter"
)

// scratch holds per-call buffers, pooled so classification allocates little.
type scratch struct {
	// pf is the prefilter's state for this call (nil when the prefilter is off): the literal
	// positions anchor plans start from. opf and owant are the same for the original text.
	pf      *prefilter.Scratch
	opf     *prefilter.Scratch
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
	bhits   []hit     // a built-in extractor's hits
	segs    []normSeg // the normalized text's map back to the original, used within the call
	spans   []Span
	firstAt []int
	whens   []int8
	shared  bool // identical `when` expressions are evaluated once (off without the prefilter)
	// native runs the expressions that have a Go form as Go (off without the prefilter, which
	// runs the VM on every one). vals are the extractors' values, in p.extractors' order; text
	// and orig the normalized and original question; words the word count (-1: not counted
	// yet); cmatch the verdicts of the pack's condPatterns (0 unknown, 1 true, -1 false).
	native bool
	vals   []any
	text   string
	orig   string
	words  int
	cmatch []int8
	// env is the VM's environment, reused from call to call and filled only when an
	// expression without a Go form runs (envReady); matchedFn and scoreFn read the current
	// call's state through the scratch, so they are made once.
	env       map[string]any
	envReady  bool
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
	if cap(s.vals) < len(p.extractors) {
		s.vals = make([]any, len(p.extractors))
	}
	s.vals = s.vals[:len(p.extractors)]
	if cap(s.cmatch) < len(p.condPatterns) {
		s.cmatch = make([]int8, len(p.condPatterns))
	}
	s.cmatch = s.cmatch[:len(p.condPatterns)]
	clear(s.cmatch)
	s.words = -1
	s.envReady = false
}

// vmEnv returns the VM's environment for this call, filling it the first time: the
// extractors' values, then the names the expressions read (which shadow an extractor of the
// same name). The decide names (intent, confidence, score) are added by score.
func (s *scratch) vmEnv() map[string]any {
	if s.envReady {
		return s.env
	}
	p := s.pack
	if s.env == nil {
		s.env = make(map[string]any, len(p.extractors)+8)
		s.matchedFn = func(id string) bool { return s.matched[s.pack.ruleIndex[id]] }
		s.scoreFn = func(name string) float64 {
			if i, ok := s.pack.intentIndex[name]; ok {
				return s.scores[i]
			}
			return 0
		}
	}
	env := s.env
	clear(env)
	for i, x := range p.extractors {
		env[x.key] = s.vals[i]
	}
	if p.envUses&envText != 0 {
		env["text"] = s.text
	}
	if p.envUses&envOriginal != 0 {
		env["original"] = s.orig
	}
	if p.envUses&envWords != 0 {
		env["words"] = s.wordCount()
	}
	if p.envUses&envMatched != 0 {
		env["matched"] = s.matchedFn
	}
	s.envReady = true
	return env
}

// wordCount returns the number of words of the normalized question, counted once.
func (s *scratch) wordCount() int {
	if s.words < 0 {
		s.words = countWords(s.text)
	}
	return s.words
}

// condMatch reports whether a `matches` regex of the expressions matches the question, the
// way patternMatches decides a rule's pattern, once per question.
func (s *scratch) condMatch(cp *condPattern) bool {
	if v := s.cmatch[cp.id]; v != 0 {
		return v > 0
	}
	var m bool
	switch {
	case cp.onOriginal && s.opf != nil:
		m = s.owant[cp.origIdx] && s.pack.origFilter.MatchString(s.opf, cp.origIdx, cp.re, s.orig)
	case cp.onOriginal:
		m = cp.re.MatchString(s.orig)
	case s.pf != nil:
		m = s.want[cp.patternIdx] && s.pack.prefilter.MatchString(s.pf, cp.patternIdx, cp.re, s.text)
	default:
		m = cp.re.MatchString(s.text)
	}
	s.cmatch[cp.id] = -1
	if m {
		s.cmatch[cp.id] = 1
	}
	return m
}

// release drops the call's values from the buffers before the scratch returns to the pool.
func (s *scratch) release() {
	if s.pf != nil {
		s.pack.prefilter.Put(s.pf)
	}
	if s.opf != nil {
		s.pack.origFilter.Put(s.opf)
	}
	clear(s.found[:cap(s.found)])
	clear(s.hits[:cap(s.hits)])
	clear(s.bhits[:cap(s.bhits)])
	clear(s.spans[:cap(s.spans)])
	clear(s.env)
	clear(s.vals)
	s.text, s.orig = "", ""
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
