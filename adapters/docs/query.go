package docs

import (
	"slices"
	"strings"
	"unicode"

	"github.com/weirgw/weir/adapters/data"
)

// maxTerms bounds the terms a question becomes, so a pasted page cannot make a huge query.
const maxTerms = 32

// term is one searched word: a folded word or its stem, matched as a prefix unless exact.
// An exact short word is also searched in its inflections (alts): "age" finds "aged".
type term struct {
	s     string
	exact bool
	alts  []string
}

// terms is a question prepared for full-text search: its content words and the phrases
// it quotes. Every string in it is a run of letters and digits, so no rendering of it can
// be a syntax error in FTS5 or tsquery.
type terms struct {
	words   []term
	phrases [][]string
}

func (t terms) empty() bool { return len(t.words) == 0 && len(t.phrases) == 0 }

// parseQuestion extracts the terms of a question: words folded (lower case, diacritics
// removed), stop words of English and Italian dropped, the rest stemmed lightly for prefix
// matching; text in quotes is also kept as a phrase.
func parseQuestion(q string) terms {
	var t terms
	seen := map[string]bool{}
	for _, w := range tokens(q) {
		if stopWords[w] || len(w) < 2 || seen[w] {
			continue
		}
		seen[w] = true
		t.words = append(t.words, stem(normalize(w)))
		if len(t.words) == maxTerms {
			break
		}
	}
	for _, p := range quoted(q) {
		if ws := strings.Fields(indexText(p)); len(ws) >= 2 && len(ws) <= 8 {
			t.phrases = append(t.phrases, ws)
		}
	}
	return t
}

// tokens splits folded text into runs of letters and digits, the way SQLite's unicode61
// tokenizer with remove_diacritics does: every other character separates words.
func tokens(s string) []string {
	return strings.FieldsFunc(data.Fold(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// quoted returns the texts between matching quotes: "…", “…”, «…».
func quoted(s string) []string {
	var out []string
	for _, q := range [][2]string{{`"`, `"`}, {"“", "”"}, {"«", "»"}} {
		rest := s
		for {
			i := strings.Index(rest, q[0])
			if i < 0 {
				break
			}
			rest = rest[i+len(q[0]):]
			j := strings.Index(rest, q[1])
			if j < 0 {
				break
			}
			out = append(out, rest[:j])
			rest = rest[j+len(q[1]):]
		}
	}
	return out
}

// suffixes are stripped, first match only, when at least four letters remain: English and
// Italian inflections, so that "reported" searches report* and "criteria" criteri*.
var suffixes = []string{"ations", "ation", "tions", "tion", "zioni", "zione", "ments", "ment",
	"ings", "ing", "ies", "ied", "ed", "es", "s", "a", "e", "i", "o", "y"}

// minPrefix is the shortest unstemmed word searched as a prefix: "endpoint" finds
// "endpoints", but "part" must not find "participants".
const minPrefix = 6

// stem returns how a word is searched: the stem left by a stripped suffix as a prefix, a
// long word as a prefix, a short word exactly and in its plural, a number exactly.
func stem(w string) term {
	if isNumber(w) {
		return term{s: w, exact: true}
	}
	for _, suf := range suffixes {
		if strings.HasSuffix(w, suf) && len(w)-len(suf) >= 4 {
			return term{s: w[:len(w)-len(suf)]}
		}
	}
	if len(w) < minPrefix {
		return term{s: w, exact: true, alts: inflections(w)}
	}
	return term{s: w}
}

// inflections are the regular English forms of a short word: arm → arms, armed, arming.
func inflections(w string) []string {
	if strings.HasSuffix(w, "e") {
		return []string{w + "s", w + "d", w[:len(w)-1] + "ing"}
	}
	return []string{w + "s", w + "es", w + "ed", w + "ing"}
}

func isNumber(w string) bool {
	for _, r := range w {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// fts5 renders the terms as an FTS5 MATCH expression: quoted strings joined by OR, prefix
// terms starred. BM25 then ranks passages by how many of the rarer terms they contain.
func (t terms) fts5() string {
	quote := func(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
	var parts []string
	for _, w := range t.words {
		s := quote(w.s)
		if !w.exact {
			s += "*"
		}
		parts = append(parts, s)
		for _, a := range w.alts {
			parts = append(parts, quote(a))
		}
	}
	for _, p := range t.phrases {
		parts = append(parts, quote(strings.Join(p, " ")))
	}
	return strings.Join(parts, " OR ")
}

// tsqueries renders each part for PostgreSQL's to_tsquery('simple', …): a lexeme in
// quotes, a prefix marked :*, a plural alternative joined by |, a phrase's lexemes by <->.
func (t terms) tsqueries() []string {
	lex := func(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
	var out []string
	for _, p := range t.parts() {
		ls := make([]string, len(p.words))
		for i, w := range p.words {
			ls[i] = lex(w)
		}
		s := strings.Join(ls, " <-> ")
		if p.prefix {
			s += ":*"
		}
		for _, a := range p.alts {
			s += " | " + lex(a)
		}
		out = append(out, s)
	}
	return out
}

// match returns the term a folded token matches, or "".
func (t terms) match(tok string) string {
	tok = normalize(tok)
	for _, w := range t.words {
		if tok == w.s || slices.Contains(w.alts, tok) || (!w.exact && strings.HasPrefix(tok, w.s)) {
			return w.s
		}
	}
	return ""
}
