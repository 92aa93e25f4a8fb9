package rules

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/weirgw/weir/rules/internal/prefilter"
)

// extractor fills one filter field from the text.
type extractor struct {
	key      string // the entry's name; expressions use it
	field    string // the filter it writes (default: key)
	operator string // when set, the value lands at filters[field][operator]
	list     bool
	slot     int // the filter slot (field and operator) of a scalar value, see compileEnv

	table      *aliasMatcher
	re         *regexp.Regexp
	patternIdx int    // index into Pack.patterns for the prefilter, -1 when on the original text
	origIdx    int    // index into Pack.origPatterns, -1 when on the normalized text
	groups     []int  // capture groups tried in order; the first non-empty one is the value
	typ        string // string, int, number
	onOriginal bool
	bi         *builtin
}

func compileExtractors(p *Pack, srcs []*source, tables map[string]*aliasMatcher, e *errs) {
	type fieldUse struct {
		operator string
		list     bool
		at       string
	}
	where := map[string]string{}
	fields := map[string][]fieldUse{}
	for _, s := range srcs {
		keys := s.keys("extract")
		for _, key := range keys {
			d := s.doc.Extract[key]
			line := s.line("extract", key)
			at := s.name + ":" + itoa(line)
			if prev, dup := where[key]; dup {
				e.add(s.name, line, "extract_duplicate", "extractor %q already declared at %s", key, prev)
				continue
			}
			where[key] = at
			x, ok := compileExtractor(p, key, d, tables, func(code, format string, args ...any) {
				e.add(s.name, line, code, format, args...)
			})
			if !ok {
				continue
			}
			// Several extractors may write one field (earliest value wins, lists merge), but
			// they must agree on its shape: all plain or all with operators, all lists or none.
			for _, u := range fields[x.field] {
				if (u.operator == "") != (x.operator == "") || (u.operator == x.operator && u.list != x.list) {
					e.add(s.name, line, "extract_field_conflict", "field %q is also written by the extractor at %s with a different shape (operator or list)", x.field, u.at)
					break
				}
			}
			fields[x.field] = append(fields[x.field], fieldUse{x.operator, x.list, at})
			p.extractors = append(p.extractors, x)
		}
	}
	sort.SliceStable(p.extractors, func(i, j int) bool { return p.extractors[i].key < p.extractors[j].key })
}

func compileExtractor(p *Pack, key string, d extractDoc, tables map[string]*aliasMatcher, fail func(code, format string, args ...any)) (*extractor, bool) {
	x := &extractor{key: key, field: key, operator: d.Operator, list: d.List, patternIdx: -1, origIdx: -1, typ: "string"}
	if d.Field != "" {
		x.field = d.Field
	}
	sources := 0
	for _, set := range []bool{d.Alias != "", d.Pattern != "", d.Builtin != ""} {
		if set {
			sources++
		}
	}
	if sources != 1 {
		fail("extract_invalid", "extractor %q needs exactly one of alias, pattern, builtin", key)
		return nil, false
	}
	if d.On != "" && d.On != "original" && d.On != "normalized" {
		fail("extract_invalid", "extractor %q: on must be original or normalized, got %q", key, d.On)
		return nil, false
	}
	switch d.Type {
	case "", "string", "int", "number":
		if d.Type != "" {
			x.typ = d.Type
		}
	default:
		fail("extract_invalid", "extractor %q: type must be string, int or number, got %q", key, d.Type)
		return nil, false
	}
	switch {
	case d.Alias != "":
		t, ok := tables[d.Alias]
		if !ok {
			fail("extract_unknown_alias", "extractor %q names alias table %q, which is not declared", key, d.Alias)
			return nil, false
		}
		t.used = true
		x.table = t
	case d.Builtin != "":
		b, ok := builtins[d.Builtin]
		if !ok {
			fail("extract_unknown_builtin", "extractor %q: unknown builtin %q (known: %s)", key, d.Builtin, builtinNames())
			return nil, false
		}
		x.bi = &b
	default:
		expanded, unknown := expandMacros(d.Pattern, tables)
		if len(unknown) > 0 {
			fail("extract_unknown_alias", "extractor %q: pattern names alias table %q, which is not declared", key, unknown[0])
			return nil, false
		}
		re, err := regexp.Compile(expanded)
		if err != nil {
			fail("extract_regex_invalid", "extractor %q: %v", key, err)
			return nil, false
		}
		x.re, x.onOriginal = re, d.On == "original"
		groups, err := groupIndexes(re, d.Group)
		if err != nil {
			fail("extract_invalid", "extractor %q: %v", key, err)
			return nil, false
		}
		x.groups = groups
		if x.onOriginal {
			x.origIdx = len(p.origPatterns)
			p.origPatterns = append(p.origPatterns, re)
		} else {
			x.patternIdx = len(p.patterns)
			p.patterns = append(p.patterns, re)
		}
	}
	return x, true
}

// groupIndexes resolves `group`: a number, a group name, or a list of them.
func groupIndexes(re *regexp.Regexp, g any) ([]int, error) {
	list, ok := g.([]any)
	if !ok {
		list = []any{g}
	}
	if len(list) == 0 {
		return nil, fmt.Errorf("group list is empty")
	}
	out := make([]int, 0, len(list))
	for _, item := range list {
		i, err := groupIndex(re, item)
		if err != nil {
			return nil, err
		}
		out = append(out, i)
	}
	return out, nil
}

func groupIndex(re *regexp.Regexp, g any) (int, error) {
	switch v := g.(type) {
	case nil:
		return 0, nil
	case int:
		if v < 0 || v > re.NumSubexp() {
			return 0, fmt.Errorf("group %d does not exist (the pattern has %d)", v, re.NumSubexp())
		}
		return v, nil
	case string:
		if i := re.SubexpIndex(v); i > 0 {
			return i, nil
		}
		return 0, fmt.Errorf("group %q is not a named group of the pattern", v)
	}
	return 0, fmt.Errorf("group must be a number or a group name, got %v", g)
}

func builtinNames() string {
	names := make([]string, 0, len(builtins))
	for n := range builtins {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// stringList reports whether the extractor is a list whose values are always strings: an
// alias table's canonical names or a pattern's captures of type string.
func (x *extractor) stringList() bool {
	return x.list && (x.table != nil || x.re != nil && x.typ == "string")
}

// found is one extracted value with its span in the original text.
type found struct {
	value      any
	start, end int
}

// run returns the extractor's values in order of appearance (at most one unless list).
// norm is the normalized text, orig the capped original; s holds the prefilter's verdict and
// state for pf (s.pf nil: the prefilter is off).
//
// The values live in s.found until the next run.
func (x *extractor) run(norm normalized, orig string, s *scratch, pf *prefilter.Prefilter, now timeFunc) []found {
	out := s.found[:0]
	defer func() { s.found = out[:0] }()
	add := func(v any, start, end int, onOrig bool) bool {
		if !onOrig {
			start, end = norm.origSpan(start, end)
		}
		out = append(out, found{value: v, start: start, end: end})
		return x.list
	}
	switch {
	case x.table != nil:
		if s.pf != nil && x.table.lits != nil {
			s.hits = x.table.findIn(norm.text, s.pf, s.hits[:0])
		} else {
			s.hits = x.table.find(norm.text, s.hits[:0])
		}
		for _, h := range s.hits {
			if !add(h.value, h.start, h.end, false) {
				break
			}
		}
	case x.bi != nil:
		text := norm.text
		if x.bi.onOriginal {
			text = orig
		}
		s.bhits = x.bi.scan(text, now, s.bhits[:0])
		for _, h := range s.bhits {
			if !add(h.value, h.start, h.end, x.bi.onOriginal) {
				break
			}
		}
	default:
		if x.patternIdx >= 0 && !s.want[x.patternIdx] || x.origIdx >= 0 && s.opf != nil && !s.owant[x.origIdx] {
			return nil
		}
		text := norm.text
		if x.onOriginal {
			text = orig
		}
		// Every match is considered until one yields a value: a match whose groups are all
		// empty (an alternative that recognises a phrase to leave alone) yields nothing.
		visit := func(m []int) bool {
			s, e := firstGroup(m, x.groups)
			if s < 0 {
				return true
			}
			v, ok := convert(strings.TrimSpace(text[s:e]), x.typ)
			if !ok {
				return true
			}
			return add(v, s, e, x.onOriginal)
		}
		switch {
		case x.patternIdx >= 0 && s.pf != nil:
			pf.Each(s.pf, x.patternIdx, x.re, text, x.list, visit)
			return dedupe(out)
		case x.origIdx >= 0 && s.opf != nil:
			s.pack.origFilter.Each(s.opf, x.origIdx, x.re, text, x.list, visit)
			return dedupe(out)
		}
		// The reference path the prefilter is compared with: every match, from the regex alone.
		for _, m := range x.re.FindAllStringSubmatchIndex(text, -1) {
			if !visit(m) {
				break
			}
		}
	}
	return dedupe(out)
}

// firstGroup returns the span of the first non-empty group among groups, or -1, -1.
func firstGroup(m []int, groups []int) (int, int) {
	for _, g := range groups {
		if s, e := m[2*g], m[2*g+1]; s >= 0 && e > s {
			return s, e
		}
	}
	return -1, -1
}

// dedupe keeps the first occurrence of every value, so lists hold distinct values.
func dedupe(in []found) []found {
	if len(in) < 2 {
		return in
	}
	out := in[:0]
	for i, f := range in {
		dup := false
		for _, g := range in[:i] {
			if sameValue(g.value, f.value) {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, f)
		}
	}
	return out
}

// sameValue reports whether two extracted values print alike (the test dedupe has always
// used), without formatting the common scalar kinds.
func sameValue(a, b any) bool {
	switch x := a.(type) {
	case string:
		y, ok := b.(string)
		if ok {
			return x == y
		}
	case int:
		y, ok := b.(int)
		if ok {
			return x == y
		}
	}
	return fmt.Sprint(a) == fmt.Sprint(b)
}

// convert turns captured text into the extractor's type.
func convert(s, typ string) (any, bool) {
	switch typ {
	case "int":
		if n, ok := parseIntWord(strings.ToLower(s)); ok {
			return n, true
		}
		if f, ok := parseLooseNumber(s); ok && f == float64(int(f)) {
			return int(f), true
		}
		return nil, false
	case "number":
		return parseLooseNumber(s)
	}
	return s, s != ""
}

// parseLooseNumber reads numbers as people type them in questions: "50,000", "1.5",
// "1.234,5", "50k", "2m", "2 million", "3 mila", "$300". It returns false for anything else.
func parseLooseNumber(s string) (float64, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	s = strings.TrimLeft(s, "$€£ ")
	scale := 1.0
	for _, suf := range []struct {
		s string
		f float64
	}{{"million", 1e6}, {"milioni", 1e6}, {"mln", 1e6}, {"billion", 1e9}, {"bn", 1e9}, {"thousand", 1e3}, {"mila", 1e3}, {"k", 1e3}, {"m", 1e6}, {"b", 1e9}} {
		if strings.HasSuffix(s, suf.s) {
			s, scale = strings.TrimSpace(strings.TrimSuffix(s, suf.s)), suf.f
			break
		}
	}
	if s == "" {
		return 0, false
	}
	lastDot, lastComma := strings.LastIndexByte(s, '.'), strings.LastIndexByte(s, ',')
	switch {
	case lastDot >= 0 && lastComma >= 0 && lastComma > lastDot: // 1.234,5
		s = strings.ReplaceAll(s, ".", "")
		s = strings.Replace(s, ",", ".", 1)
	case lastComma >= 0 && lastDot < 0 && len(s)-lastComma-1 != 3: // 1,5
		s = strings.Replace(s, ",", ".", 1)
	default: // 1,234.5 or 50,000
		s = strings.ReplaceAll(s, ",", "")
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		if n, ok := parseIntWord(s); ok {
			return float64(n) * scale, true
		}
		return 0, false
	}
	return f * scale, true
}
