package nl

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/weirgw/weir/adapters/data"
	"github.com/weirgw/weir/adapters/data/semantic"
)

// mkind is what a word of a dataset's vocabulary names.
type mkind int

const (
	mMeasure mkind = iota + 1 // a metric
	mRows                     // the rows themselves (orders, findings, patients)
	mField                    // a field: a dimension or an operand
	mValue                    // one or more values of a field
	mMax                      // the largest value of a field (oldest → age)
	mMin                      // the smallest value of a field (cheapest → price)
	mContext                  // the dataset as a whole (menu)
	mPresent                  // a numeric field above zero (discounted → discount)
	mBasis                    // the basis a measure already has (lordo → revenue): see readBasis
)

// meaning is one reading of a phrase in the model.
type meaning struct {
	kind   mkind
	src    *semantic.Source
	field  string
	metric string
	values []string
	// order breaks ties between sources and fields: declaration order.
	order int
	// pos is, for a value read from inside free text, the word's position in the value
	// (0: the value starts with it): "steel" is Steel coils before Global Steel Group.
	pos int
	// caseSensitive values collide with a common word ("IT"): they match only as written.
	caseSensitive bool
	orig          string
	// alias is, for an alias, the value or word it stands for: what a search of the text
	// looks for ("permessi" → Permit).
	alias string
}

// phrase is a sequence of folded words with its meanings.
type phrase struct {
	words    []string
	meanings []meaning
	gen      gen
}

// vocab is the compiled vocabulary of a model plus the generic lexicon.
type vocab struct {
	model *semantic.Model
	// byFirst indexes phrases by their first word; byStem by its stem.
	byFirst, byStem map[string][]*phrase
	// tokens index the words inside free-text values: stem → field values containing it.
	tokens map[string][]meaning
	// capsTokens are such words that are also common words ("Dell", "dell'"): they match
	// only when the question writes them capitalised.
	capsTokens map[string][]meaning
	// correctable are the words a typo may be read as (typos.go); longValues the long
	// one-word values read from the data, read so only from a long typo.
	correctable map[string]bool
	longValues  map[string]bool
	// tokenIDs are codes of letters and digits found as words inside free-text values
	// ("a54" of "Smartphone Galaxy A54"): such a code in a question names those values.
	tokenIDs map[string]bool
}

// compile builds the vocabulary of a model.
func compile(m *semantic.Model) *vocab {
	v := &vocab{model: m, byFirst: map[string][]*phrase{}, byStem: map[string][]*phrase{}, tokens: map[string][]meaning{},
		capsTokens: map[string][]meaning{}, correctable: map[string]bool{}, longValues: map[string]bool{}, tokenIDs: map[string]bool{}}
	for w, g := range lexicon {
		v.addGen(w, g)
	}
	for w := range months {
		v.addCorrectable(w)
	}
	order := 0
	for _, s := range m.Sources {
		v.addSource(s, &order)
	}
	return v
}

func (v *vocab) addGen(text string, g gen) {
	words := strings.Fields(data.Fold(text))
	if len(words) == 0 {
		return
	}
	p := v.phrase(words)
	p.gen = g
}

// phrase returns the phrase of words, creating it.
func (v *vocab) phrase(words []string) *phrase {
	for _, p := range v.byFirst[words[0]] {
		if strings.Join(p.words, " ") == strings.Join(words, " ") {
			return p
		}
	}
	p := &phrase{words: words}
	v.byFirst[words[0]] = append(v.byFirst[words[0]], p)
	if s := stem(words[0]); s != words[0] || true {
		v.byStem[s] = append(v.byStem[s], p)
	}
	return p
}

func (v *vocab) add(text string, m meaning) {
	words := splitWords(text)
	if len(words) == 0 {
		return
	}
	if m.kind != mValue {
		v.addCorrectable(words...)
	}
	p := v.phrase(words)
	p.meanings = append(p.meanings, m)
}

// splitWords folds a vocabulary entry into the words the tokenizer produces.
func splitWords(text string) []string {
	var out []string
	for _, t := range tokenize(text) {
		out = append(out, t.w)
	}
	return out
}

func (v *vocab) addSource(s *semantic.Source, order *int) {
	d := s.Decl
	next := func() int { *order++; return *order }
	for _, w := range d.Rows.Words {
		v.add(w, meaning{kind: mRows, src: s, order: next()})
	}
	for _, w := range d.Context {
		v.add(w, meaning{kind: mContext, src: s, order: next()})
	}
	for _, name := range sortedKeys(d.Measures) {
		for _, w := range d.Measures[name].Words {
			v.add(w, meaning{kind: mMeasure, src: s, metric: name, order: next()})
		}
		for _, w := range d.Measures[name].Basis {
			v.add(w, meaning{kind: mBasis, src: s, metric: name, order: next()})
		}
	}
	for _, f := range s.Schema().Fields {
		fd := d.Fields[f.Name]
		o := next()
		for _, w := range fd.Words {
			v.add(w, meaning{kind: mField, src: s, field: f.Name, order: o})
		}
		for _, w := range fd.Max {
			v.add(w, meaning{kind: mMax, src: s, field: f.Name, order: o})
		}
		for _, w := range fd.Min {
			v.add(w, meaning{kind: mMin, src: s, field: f.Name, order: o})
		}
		for _, w := range fd.Present {
			v.add(w, meaning{kind: mPresent, src: s, field: f.Name, order: o})
		}
		v.addValues(s, f, fd, o)
	}
}

// addValues adds a field's values: declared values and values read from the data as
// whole phrases, aliases, and (free text) the words inside values.
func (v *vocab) addValues(s *semantic.Source, f data.Field, fd semantic.FieldDecl, order int) {
	values := append(append([]string(nil), f.Values...), s.Values[f.Name]...)
	for _, val := range f.Values {
		if w := splitWords(val); len(w) == 1 {
			v.addCorrectable(w[0]) // a value of the schema's closed list ("critcal" → critical); never a name read from the data
		}
	}
	for _, val := range s.Values[f.Name] {
		if w := splitWords(val); len(w) == 1 && utf8.RuneCountInString(w[0]) >= longValueLen {
			v.longValues[w[0]] = true // "Singapre" → Singapore, "nasopharingitis" → Nasopharyngitis
		}
	}
	seen := map[string]bool{}
	for _, val := range values {
		if seen[val] {
			continue
		}
		seen[val] = true
		m := meaning{kind: mValue, src: s, field: f.Name, values: []string{val}, order: order, orig: val}
		words := splitWords(val)
		if len(words) == 1 && (lexicon[words[0]] != 0 || utf8.RuneCountInString(val) == 1) {
			m.caseSensitive = true // "IT" the department, not "it" the pronoun; "F" the sex, not "f"
		}
		if flagField(f.Values) {
			continue // a yes/no flag is named by its aliases ("the ITT population"): a bare "N" is no flag
		}
		if len(words) == 1 && isNumberWord(words[0]) {
			continue // numbers name values only after their field's word (site 103)
		}
		v.add(val, m)
		if fd.Index == semantic.IndexTokens {
			v.addTokens(s, f.Name, val, order)
		}
	}
	for _, target := range sortedKeys(fd.Aliases) {
		vals := []string{target}
		if !seen[target] && fd.Index == semantic.IndexTokens {
			vals = v.valuesWithToken(s, f.Name, target) // an alias of a word inside values
		}
		if len(vals) == 0 {
			continue
		}
		for _, w := range fd.Aliases[target] {
			v.add(w, meaning{kind: mValue, src: s, field: f.Name, values: vals, order: order, alias: target})
		}
	}
}

// flagField reports a field whose values are only Y and N: a bare letter names no flag.
func flagField(values []string) bool {
	if len(values) != 2 {
		return false
	}
	return (values[0] == "Y" && values[1] == "N") || (values[0] == "N" && values[1] == "Y")
}

func isNumberWord(w string) bool {
	_, ok := parseNumber(w)
	return ok
}

// addTokens indexes the content words of a free-text value.
func (v *vocab) addTokens(s *semantic.Source, field, val string, order int) {
	for i, w := range splitWords(val) {
		if len(w) < 2 || isNumberWord(w) {
			continue
		}
		index := v.tokens
		if lexicon[w] != 0 {
			if len(w) < 4 {
				continue // "di", "al", "of": never a value by itself
			}
			index = v.capsTokens
		}
		if strings.IndexFunc(w, unicode.IsDigit) >= 0 {
			v.tokenIDs[w] = true
		}
		key := stem(w)
		list := index[key]
		found := false
		for j := range list {
			if list[j].src == s && list[j].field == field {
				if !contains(list[j].values, val) {
					list[j].values = append(list[j].values, val)
				}
				list[j].pos = min(list[j].pos, i)
				found = true
			}
		}
		if !found {
			list = append(list, meaning{kind: mValue, src: s, field: field, values: []string{val}, order: order, pos: i})
		}
		index[key] = list
	}
}

// valuesWithToken returns the values of a free-text field that contain a word.
func (v *vocab) valuesWithToken(s *semantic.Source, field, word string) []string {
	for _, m := range v.tokens[stem(data.Fold(word))] {
		if m.src == s && m.field == field {
			return m.values
		}
	}
	return nil
}

// closest are the model's values and words nearest to words it does not know (at most two
// edits, three suggestions): "giula" → Giulia. A value that matches nothing is reported with
// the values that are there.
func (v *vocab) closest(words []string) []string {
	type cand struct {
		name string
		dist int
	}
	var cands []cand
	seen := map[string]bool{}
	for _, w := range words {
		if len(w) < 4 {
			continue
		}
		for first, list := range v.byFirst {
			if d := len(first) - len(w); d > 2 || d < -2 {
				continue
			}
			for _, p := range list {
				dist := data.Levenshtein(first, w)
				if len(p.meanings) == 0 || len(p.words) != 1 || dist > 2 || p.meanings[0].kind == mContext || p.meanings[0].kind == mRows {
					continue
				}
				name := first
				if m := p.meanings[0]; m.kind == mValue && len(m.values) == 1 {
					name = m.values[0]
				}
				if !seen[name] {
					seen[name] = true
					cands = append(cands, cand{name, dist})
				}
			}
		}
	}
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].dist != cands[j].dist {
			return cands[i].dist < cands[j].dist
		}
		return cands[i].name < cands[j].name
	})
	var out []string
	for _, c := range cands[:min(3, len(cands))] {
		out = append(out, c.name)
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
