package rules

import (
	"regexp"
	"sort"
	"strings"
)

// aliasMatcher finds the terms of one alias table in normalized text, whole words only,
// leftmost-longest and without overlaps.
type aliasMatcher struct {
	name      string
	terms     []string // normalized terms, index = pattern index of ac
	canonical []string // canonical value per term
	ac        *acMatcher
	used      bool // an extractor reads this table, so classification scans it
}

// aliasHit is one term found in normalized text.
type aliasHit struct {
	canonical  string
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
			m.ac = newACMatcher(m.terms)
			tables[name] = m
		}
	}
	return tables
}

// find returns the table's terms in text, leftmost-longest, whole words, no overlaps.
func (m *aliasMatcher) find(text string) []aliasHit {
	var cands []aliasHit
	m.ac.scan(text, func(i, start, end int) {
		if boundaryOK(text, start, end) {
			cands = append(cands, aliasHit{canonical: m.canonical[i], start: start, end: end})
		}
	})
	if len(cands) < 2 {
		return cands
	}
	sort.Slice(cands, func(a, b int) bool {
		if cands[a].start != cands[b].start {
			return cands[a].start < cands[b].start
		}
		return cands[a].end > cands[b].end
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
