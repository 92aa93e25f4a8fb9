package rules

import (
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/weirgw/weir/rules/internal/prefilter"
)

// aliasMatcher finds the terms of one alias table in normalized text, whole words only,
// leftmost-longest and without overlaps.
type aliasMatcher struct {
	name      string
	terms     []string // normalized terms, index = pattern index of ac
	canonical []string // canonical value per term
	values    []any    // the canonical values boxed once, so a hit allocates nothing
	ac        *prefilter.AC
	used      bool    // an extractor reads this table, so classification scans it
	lits      []int32 // the terms' indices in the pack's prefilter, which finds them too
	// termOf[lit] is the index of the term that is the prefilter's literal lit, or -1.
	termOf []int32
}

// setLits records the prefilter indices of the table's terms; nlits is the number of the
// prefilter's literals.
func (m *aliasMatcher) setLits(lits []int32, nlits int) {
	m.lits = lits
	m.termOf = make([]int32, nlits)
	for i := range m.termOf {
		m.termOf[i] = -1
	}
	for i, lit := range lits {
		m.termOf[lit] = int32(i)
	}
}

// aliasHit is one term found in normalized text; value is its canonical value.
type aliasHit struct {
	value      any
	start, end int
}

func compileAliases(p *Pack, srcs []*source, e *errs) map[string]*aliasMatcher {
	tables := map[string]*aliasMatcher{}
	where := map[string]string{}
	for _, s := range srcs {
		for _, name := range s.keys("aliases") {
			line := s.line("aliases", name)
			if prev, dup := where[name]; dup {
				e.add(s.name, line, "alias_duplicate", "alias table %q already declared at %s", name, prev)
				continue
			}
			where[name] = s.name + ":" + itoa(line)
			m := &aliasMatcher{name: name}
			owner := map[string]string{}
			for _, ent := range s.doc.Aliases[name].entries {
				for _, raw := range append([]string{ent.canonical}, ent.terms...) {
					t := normalizeTerm(raw, p.norm)
					if t == "" {
						e.add(s.name, ent.line, "alias_empty", "table %q: term %q is empty after normalization", name, raw)
						continue
					}
					if prev, ok := owner[t]; ok {
						if prev != ent.canonical {
							e.add(s.name, ent.line, "alias_term_conflict", "table %q: term %q maps to both %q and %q", name, raw, prev, ent.canonical)
						}
						continue
					}
					owner[t] = ent.canonical
					m.terms = append(m.terms, t)
					m.canonical = append(m.canonical, ent.canonical)
				}
			}
			if len(m.terms) == 0 {
				e.add(s.name, line, "alias_empty", "table %q has no terms", name)
			}
			m.ac = prefilter.NewAC(m.terms)
			for _, c := range m.canonical {
				m.values = append(m.values, c)
			}
			tables[name] = m
		}
	}
	return tables
}

// find appends to buf the table's terms in text, leftmost-longest, whole words, no overlaps.
func (m *aliasMatcher) find(text string, buf []aliasHit) []aliasHit {
	cands := buf
	m.ac.Scan(text, func(i, start, end int) {
		if boundaryOK(text, start, end) {
			cands = append(cands, aliasHit{value: m.values[i], start: start, end: end})
		}
	})
	if len(cands) < 2 {
		return cands
	}
	return leftmostLongest(cands)
}

// findIn is find on the occurrences the prefilter recorded while it scanned text (sc, after
// Decide), which saves the table's own scan. It visits the literals seen or the table's
// terms, whichever are fewer.
func (m *aliasMatcher) findIn(text string, sc *prefilter.Scratch, buf []aliasHit) []aliasHit {
	return m.findInBy(len(sc.Found()) < len(m.lits), text, sc, buf)
}

// findInBy is findIn visiting the literals seen (byFound) or the table's terms.
func (m *aliasMatcher) findInBy(byFound bool, text string, sc *prefilter.Scratch, buf []aliasHit) []aliasHit {
	sc.Index()
	cands := buf
	add := func(i int, lit int32) {
		for e := sc.First(lit); e >= 0; {
			start, end, next := sc.Occurrence(e)
			if boundaryOK(text, start, end) {
				cands = append(cands, aliasHit{value: m.values[i], start: start, end: end})
			}
			e = next
		}
	}
	if byFound {
		for _, lit := range sc.Found() {
			if i := m.termOf[lit]; i >= 0 {
				add(int(i), lit)
			}
		}
	} else {
		for i, lit := range m.lits {
			if sc.Seen(lit) {
				add(i, lit)
			}
		}
	}
	if len(cands) < 2 {
		return cands
	}
	return leftmostLongest(cands)
}

// leftmostLongest keeps, of candidates in any order, the leftmost-longest ones that do not
// overlap. Distinct terms never share both start and end, so the order is total.
func leftmostLongest(cands []aliasHit) []aliasHit {
	slices.SortFunc(cands, func(a, b aliasHit) int {
		if a.start != b.start {
			return a.start - b.start
		}
		return b.end - a.end
	})
	out := cands[:0]
	last := -1
	for _, c := range cands {
		if c.start >= last {
			out = append(out, c)
			last = c.end
		}
	}
	return out
}

// boundaryOK reports whether text[start:end] stands as whole words: a term that begins or
// ends with a word character must not continue a word of the text there.
func boundaryOK(text string, start, end int) bool {
	if start > 0 && isWordByte(text[start]) && isWordByte(text[start-1]) {
		return false
	}
	if end < len(text) && isWordByte(text[end-1]) && isWordByte(text[end]) {
		return false
	}
	return true
}

// isWordByte treats ASCII letters, digits, '_' and every byte of a multi-byte rune as word
// characters, so terms never match inside accented words either.
func isWordByte(b byte) bool {
	return b == '_' || b >= 0x80 || ('0' <= b && b <= '9') || ('a' <= b && b <= 'z') || ('A' <= b && b <= 'Z')
}

// macroRE finds {{table}} in rule patterns.
var macroRE = regexp.MustCompile(`\{\{\s*([A-Za-z_][A-Za-z0-9_.-]*)\s*\}\}`)

// expandMacros replaces {{table}} by an alternation of the table's terms, longest first so
// the regex prefers the longer term too. Unknown tables are returned for the caller to report.
func expandMacros(pattern string, tables map[string]*aliasMatcher) (string, []string) {
	var unknown []string
	out := macroRE.ReplaceAllStringFunc(pattern, func(m string) string {
		name := macroRE.FindStringSubmatch(m)[1]
		t, ok := tables[name]
		if !ok {
			unknown = append(unknown, name)
			return m
		}
		terms := append([]string(nil), t.terms...)
		sort.SliceStable(terms, func(i, j int) bool { return len(terms[i]) > len(terms[j]) })
		for i, term := range terms {
			terms[i] = regexp.QuoteMeta(term)
		}
		return "(?:" + strings.Join(terms, "|") + ")"
	})
	return out, unknown
}
