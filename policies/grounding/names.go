package grounding

import (
	"sort"
	"strings"
	"unicode/utf8"
)

// An answer often names the quantities it computes from instead of
// repeating their values: "il food cost incide per il 35% sul fatturato".
// Names says which words name which quantity, so that the named source
// numbers count as visible operands of a derivation, like the numbers the
// answer shows.
//
// A quantity is a JSON key of the tool results ("food_cost", "revenue",
// "sum_totalValueUSD", compared without case, '_' and '-', and without an
// aggregation prefix such as "sum_" or "avg_"), or the metric a result is
// about: every number of a result whose top-level "metric" (or "metricName")
// is "revenue" is a revenue ({"metric": "revenue", "value": 21956.62}). The
// vocabulary comes from the policy bundle (see policies/README.md); each
// quantity's own name, with '_' as a space ("food cost"), names it too.

// Names is a compiled vocabulary of quantity names. Build it once with
// NewNames; it is immutable and safe for concurrent use.
type Names struct {
	byFirst map[string][]namePhrase // phrases by their first folded word
}

type namePhrase struct {
	words []string // folded words
	key   string   // the quantity, normalized (see normKey)
}

// NewNames compiles a vocabulary: for each quantity, the phrases an answer
// may use for it ({"revenue": ["fatturato", "ricavi", "sales"]}). Phrases
// are matched as whole words, ignoring case and accents; the longest phrase
// wins where several match.
func NewNames(aliases map[string][]string) *Names {
	n := &Names{byFirst: map[string][]namePhrase{}}
	for q, phrases := range aliases {
		key := normKey(q)
		n.add(strings.ReplaceAll(q, "_", " "), key)
		for _, p := range phrases {
			n.add(p, key)
		}
	}
	for w, ps := range n.byFirst {
		sort.SliceStable(ps, func(i, j int) bool { return len(ps[i].words) > len(ps[j].words) })
		n.byFirst[w] = ps
	}
	return n
}

func (n *Names) add(phrase, key string) {
	var words []string
	for _, w := range strings.FieldsFunc(phrase, func(r rune) bool { return !isNameRune(r) }) {
		words = append(words, foldWord(w))
	}
	if len(words) > 0 && key != "" {
		n.byFirst[words[0]] = append(n.byFirst[words[0]], namePhrase{words: words, key: key})
	}
}

// mention is a quantity named in an answer, at a byte offset.
type mention struct {
	key string
	pos int
}

// find returns the quantities named in s, in order.
func (n *Names) find(s string) []mention {
	if n == nil || len(n.byFirst) == 0 {
		return nil
	}
	var out []mention
	var words [][2]int // spans of the words of s
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !isNameRune(r) {
			i += size
			continue
		}
		j := i
		for j < len(s) {
			r, size := utf8.DecodeRuneInString(s[j:])
			if !isNameRune(r) {
				break
			}
			j += size
		}
		words = append(words, [2]int{i, j})
		i = j
	}
	var buf [64]byte
	for k := 0; k < len(words); k++ {
		first := foldInto(buf[:0], s[words[k][0]:words[k][1]])
		for _, p := range n.byFirst[string(first)] {
			if phraseAt(s, words[k:], p.words) {
				out = append(out, mention{key: p.key, pos: words[k][0]})
				k += len(p.words) - 1
				break
			}
		}
	}
	return out
}

// phraseAt reports whether the words of s starting at ws[0] are the phrase.
func phraseAt(s string, ws [][2]int, phrase []string) bool {
	if len(ws) < len(phrase) {
		return false
	}
	var buf [64]byte
	for k := 1; k < len(phrase); k++ {
		if string(foldInto(buf[:0], s[ws[k][0]:ws[k][1]])) != phrase[k] {
			return false
		}
	}
	return true
}

func isNameRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '%' ||
		r >= 0xC0 && r <= 0x24F && r != 0xD7 && r != 0xF7
}

// foldWord lower-cases w and drops the accents of Latin letters.
func foldWord(w string) string { return string(foldInto(nil, w)) }

func foldInto(b []byte, w string) []byte {
	for _, r := range w {
		switch {
		case r >= 'A' && r <= 'Z':
			r += 'a' - 'A'
		case r >= 0xC0:
			r = unaccent(r)
		}
		b = utf8.AppendRune(b, r)
	}
	return b
}

// unaccent maps the accented Latin letters of English and Italian text to
// their base letter, lower case.
func unaccent(r rune) rune {
	switch {
	case r >= 0xC0 && r <= 0xC5 || r >= 0xE0 && r <= 0xE5:
		return 'a'
	case r >= 0xC8 && r <= 0xCB || r >= 0xE8 && r <= 0xEB:
		return 'e'
	case r >= 0xCC && r <= 0xCF || r >= 0xEC && r <= 0xEF:
		return 'i'
	case r >= 0xD2 && r <= 0xD6 || r >= 0xF2 && r <= 0xF6:
		return 'o'
	case r >= 0xD9 && r <= 0xDC || r >= 0xF9 && r <= 0xFC:
		return 'u'
	case r == 0xC7 || r == 0xE7:
		return 'c'
	case r == 0xD1 || r == 0xF1:
		return 'n'
	}
	return r
}

// aggregatePrefixes are dropped from a key before it is compared with a
// name: "sum_totalValueUSD" is the total value.
var aggregatePrefixes = [...]string{"sum", "avg", "average", "mean", "min", "max", "total", "count"}

// normKey normalizes a quantity name or a JSON key: lower case, without
// '_', '-' and spaces, without an aggregation prefix.
func normKey(k string) string {
	for _, p := range aggregatePrefixes {
		if len(k) > len(p)+1 && strings.EqualFold(k[:len(p)], p) && (k[len(p)] == '_' || k[len(p)] == '-') {
			k = k[len(p)+1:]
			break
		}
	}
	if isNormKey(k) {
		return k
	}
	var b strings.Builder
	for _, r := range k {
		switch {
		case r == '_' || r == '-' || r == ' ':
		case r >= 'A' && r <= 'Z':
			b.WriteRune(r + 'a' - 'A')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// isNormKey reports a key normKey leaves as it is: no upper case, '_', '-'
// or space.
func isNormKey(k string) bool {
	for i := 0; i < len(k); i++ {
		if c := k[i]; c >= 'A' && c <= 'Z' || c == '_' || c == '-' || c == ' ' {
			return false
		}
	}
	return true
}

// keyRef records that an entry was seen under a JSON key of a source.
type keyRef struct {
	entry int32
	src   int32
	key   string // normalized (normKey)
}

// namedEntries returns the entries of the quantity key (normalized) that
// are visible to mask: numbers under that key, and the numbers of a result
// whose metric it is.
func (ix *Index) namedEntries(key string, mask uint8) []int32 {
	var out []int32
	for _, r := range ix.keys {
		if ix.entries[r.entry].kinds&mask == 0 {
			continue
		}
		if r.key == key || ix.metrics[r.src] == key {
			out = append(out, r.entry)
		}
	}
	return out
}
