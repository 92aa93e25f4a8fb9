package rules

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"strconv"
	"time"

	"github.com/weirgw/weir/rules/internal/prefilter"
)

// Defaults applied when a pack does not set them.
const (
	defaultMaxScanBytes = 16 << 10
	defaultBelow        = 0.6
	defaultOverrideConf = 0.9
	maxWeight           = 10
)

// compile merges the parsed files into a Pack, recording every problem in e. The order of
// checks follows the dependencies: intents and aliases first, because extractors, rules,
// overrides and tests refer to them.
func compile(srcs []*source, e *errs) *Pack {
	p := &Pack{intentIndex: map[string]int{}, ruleIndex: map[string]int{}, defaultIntent: -1, maxScan: defaultMaxScanBytes, below: defaultBelow}
	p.calib = calibSettings{target: defaultTarget, folds: defaultFolds}
	p.norm = normOptions{lowercase: true, foldDiacritics: true, collapseWhitespace: true}
	settings := compilePackSettings(p, srcs, e)
	compileIntents(p, srcs, e)
	tables := compileAliases(p, srcs, e)
	compileExtractors(p, srcs, tables, e)
	compileRules(p, srcs, tables, e)
	compileDefault(p, settings, e)
	compileDecide(p, srcs, e)
	compileEnv(p)
	compileConds(p)
	compileTests(p, srcs, e)
	compileReasons(p)
	compilePrefilters(p)
	return p
}

// compilePrefilters builds the prefilter of the patterns on the normalized text and the one of
// the patterns on the original text (see exactCase).
func compilePrefilters(p *Pack) {
	// The prefilter's literals are fold-canonical lower case, so it is only sound on text
	// normalized with lowercase on; a pack that turns lowercase off runs every regex.
	if p.norm.lowercase {
		// The terms of the alias tables extractors read are found by the same scan.
		var tables []*aliasMatcher
		var terms [][]string
		for _, x := range p.extractors {
			if x.table != nil && !slices.Contains(tables, x.table) {
				tables = append(tables, x.table)
				terms = append(terms, x.table.terms)
			}
		}
		parsed, srcs := parsePatterns(p.patterns, false)
		p.prefilter = prefilter.NewTerms(parsed, srcs, terms)
		for k, t := range tables {
			t.setLits(p.prefilter.TermLiterals(k), p.prefilter.NumLiterals())
		}
	}
	if len(p.origPatterns) > 0 {
		parsed, srcs := parsePatterns(p.origPatterns, true)
		p.origFilter = prefilter.New(parsed, srcs)
	}
}

// parsePatterns returns the parse trees and sources of res; exact spells case-insensitive
// literals out (see exactCase).
func parsePatterns(res []*regexp.Regexp, exact bool) ([]*syntax.Regexp, []string) {
	parsed := make([]*syntax.Regexp, len(res))
	srcs := make([]string, len(res))
	for i, re := range res {
		srcs[i] = re.String()
		sre, err := syntax.Parse(srcs[i], syntax.Perl)
		if err != nil { // cannot happen: regexp.Compile accepted the same source
			sre, _ = syntax.Parse(`(?:)`, syntax.Perl)
		}
		if exact {
			sre = prefilter.ExactCase(sre)
		}
		parsed[i] = sre
	}
	return parsed, srcs
}

// compileReasons precomputes the Reason strings the request path would otherwise format.
func compileReasons(p *Pack) {
	p.belowText = strconv.FormatFloat(p.below, 'f', 2, 64)
	for _, in := range p.intents {
		p.scoredReason = append(p.scoredReason, "rules scored "+in.Name+" highest")
	}
	for _, o := range p.decide {
		o.reason = "override " + o.id + " decided"
	}
}

// settingsAt remembers where the pack settings were declared, for errors found later.
type settingsAt struct {
	src *source
	doc *packDoc
}

func compilePackSettings(p *Pack, srcs []*source, e *errs) settingsAt {
	var at settingsAt
	for _, s := range srcs {
		if s.doc.Pack == nil {
			continue
		}
		if at.doc != nil {
			e.add(s.name, s.line("pack"), "pack_duplicate", "pack settings already declared in %s:%d", at.src.name, at.src.line("pack"))
			continue
		}
		at = settingsAt{src: s, doc: s.doc.Pack}
	}
	if at.doc == nil {
		name := "pack"
		if len(srcs) > 0 {
			name = srcs[0].name
		}
		e.add(name, 0, "pack_missing", "no file declares `pack:` (name, default, fallback)")
		return at
	}
	d, s := at.doc, at.src
	p.name, p.description = d.Name, d.Description
	if d.MaxScanBytes < 0 {
		e.add(s.name, s.line("pack", "max_scan_bytes"), "type_mismatch", "max_scan_bytes must be positive")
	} else if d.MaxScanBytes > 0 {
		p.maxScan = d.MaxScanBytes
	}
	if d.Fallback != nil && d.Fallback.Below != nil {
		if b := *d.Fallback.Below; b < 0 || b > 1 {
			e.add(s.name, s.line("pack", "fallback", "below"), "threshold_invalid", "fallback.below must be within [0, 1], got %v", b)
		} else {
			p.below = b
		}
	}
	if d.TestClock != "" {
		t, err := parseClock(d.TestClock)
		if err != nil {
			e.add(s.name, s.line("pack", "test_clock"), "type_mismatch", "test_clock: %v", err)
		}
		p.testClock = t
	}
	compileCalibration(p, s, d.Calibration, e)
	if n := d.Normalize; n != nil {
		set := func(dst *bool, v *bool) {
			if v != nil {
				*dst = *v
			}
		}
		set(&p.norm.lowercase, n.Lowercase)
		set(&p.norm.foldDiacritics, n.FoldDiacritics)
		set(&p.norm.collapseWhitespace, n.CollapseWhitespace)
	}
	return at
}

// parseClock reads a test clock: a date (YYYY-MM-DD, taken at noon UTC) or an RFC 3339 time.
func parseClock(v string) (time.Time, error) {
	if t, err := time.Parse("2006-01-02", v); err == nil {
		return t.Add(12 * time.Hour), nil
	}
	return time.Parse(time.RFC3339, v)
}

var routeKinds = map[string]bool{"": true, "data": true, "llm": true, "data+llm": true, "agent": true}

func compileIntents(p *Pack, srcs []*source, e *errs) {
	where := map[string]string{}
	for _, s := range srcs {
		for _, name := range s.keys("intents") {
			d := s.doc.Intents[name]
			line := s.line("intents", name)
			if prev, dup := where[name]; dup {
				e.add(s.name, line, "intent_duplicate", "intent %q already declared at %s", name, prev)
				continue
			}
			where[name] = s.name + ":" + itoa(line)
			if d.Description == "" {
				e.add(s.name, line, "intent_description_missing", "intent %q needs a description (the LLM fallback prompt is built from it)", name)
			}
			if !routeKinds[d.Route.Kind] {
				e.add(s.name, s.line("intents", name, "route", "kind"), "route_invalid", "route kind %q is not one of data, llm, data+llm, agent", d.Route.Kind)
			}
			r := d.Route
			p.intentIndex[name] = len(p.intents)
			p.intents = append(p.intents, Intent{Name: name, Description: d.Description, Route: Route{
				Kind: r.Kind, PrimaryTool: r.PrimaryTool, FallbackTools: r.FallbackTools, Tools: r.Tools, Sources: r.Sources,
				MaxIterations: r.MaxIterations, MaxResults: r.MaxResults, MaxContextRows: r.MaxContextRows, MaxContextTokens: r.MaxContextTokens,
			}})
		}
	}
	if len(p.intents) == 0 && len(srcs) > 0 {
		e.add(srcs[0].name, 0, "intent_none", "the pack declares no intents")
	}
}

func compileDefault(p *Pack, at settingsAt, e *errs) {
	if at.doc == nil {
		return
	}
	s, d := at.src, at.doc.Default
	if d == nil || d.Intent == "" {
		e.add(s.name, s.line("pack"), "default_unknown_intent", "pack.default.intent is required (the intent used when the rules are not confident)")
		return
	}
	i, ok := p.intentIndex[d.Intent]
	if !ok {
		e.add(s.name, s.line("pack", "default", "intent"), "default_unknown_intent", "default intent %q is not declared under intents", d.Intent)
		return
	}
	p.defaultIntent = i
	p.defaultConfidence = 0.5
	if d.Confidence != nil {
		if c := *d.Confidence; c < 0 || c > 1 {
			e.add(s.name, s.line("pack", "default", "confidence"), "threshold_invalid", "default confidence must be within [0, 1], got %v", c)
		} else {
			p.defaultConfidence = c
		}
	}
}

func itoa(n int) string {
	const digits = "0123456789"
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = digits[n%10]
		n /= 10
	}
	return string(b[i:])
}
