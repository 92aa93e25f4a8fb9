package nl

import (
	"fmt"
	"strings"

	"github.com/weirgw/weir/adapters/data"
	"github.com/weirgw/weir/adapters/data/semantic"
)

// readText reads a search of the free text: "how many findings mention permits", "findings
// about fire safety", "rilievi che parlano di sicurezza". The words right after a mention
// word (or an about word) that are not already something else — unknown words, or words
// of the text fields themselves — are searched for in every text field the layer declares,
// as one contains condition on any of them. A value of another field ("findings related
// to hotels") stays that value, and the about word is a filler again. It runs before the
// unknown words are listed: the words searched for are not unknown.
func (r *reader) readText() {
	for k, it := range r.items {
		if it.used || len(it.ms) > 0 || (it.gen != gMention && it.gen != gAbout) {
			continue
		}
		if n := r.next(k, 1); it.gen == gMention && n >= 0 && (r.items[n].num != nil || comparisonGen(r.items[n].gen)) {
			it.gen = gWith // "ordini che contengono almeno 3 pezzi": what they have, no text
			continue
		}
		src := r.textSource()
		if src == nil {
			break
		}
		var texts []any
		var quoted []string
		last := k
		for run := r.searchRun(k, src); len(run) > 0; run = r.searchRun(r.orNext(run[len(run)-1]), src) {
			text := r.searchText(run)
			texts, quoted = append(texts, text), append(quoted, fmt.Sprintf("%q", text))
			for _, j := range run {
				r.items[j].used = true
			}
			last = run[len(run)-1]
		}
		if len(texts) == 0 {
			continue
		}
		it.used = true
		fields := src.TextFields()
		if f := r.namedTextField(last, src, fields); f != "" {
			fields = []string{f} // "the word 'missing' in their title": that field only
		}
		r.q.Filters = append(r.q.Filters, semantic.Filter{Source: src.Name, Field: fields[0], Or: fields[1:], Op: data.OpContains, Values: texts, Match: data.MatchNormalized})
		r.note(fmt.Sprintf("%s searched in the %s of the %s", semantic.JoinOr(quoted), semantic.JoinOr(fields), orUnit(src)))
	}
	for _, it := range r.items {
		if it.gen == gAbout && !it.used {
			it.gen = gFiller // "findings related to hotels": the value is the condition
		}
	}
}

func orUnit(s *semantic.Source) string {
	if s.Decl.Rows.Unit != "" {
		return s.Decl.Rows.Unit
	}
	return "rows"
}

// textSource is the source whose text a search reads: that of the row noun the question
// names, else the only source of the model; nil when it declares no text fields.
func (r *reader) textSource() *semantic.Source {
	var src *semantic.Source
	for _, it := range r.items {
		if m := it.kind(mRows); m != nil {
			src = m.src
			break
		}
	}
	if src == nil && len(r.p.v.model.Sources) == 1 {
		src = r.p.v.model.Sources[0]
	}
	if src == nil || len(src.TextFields()) == 0 {
		return nil
	}
	return src
}

// orNext is the and/or right after item k ("about fire or leaks": either text), or -1.
func (r *reader) orNext(k int) int {
	if n := r.next(k, 1); n >= 0 && (r.items[n].is(gAnd) || r.items[n].is(gOr)) {
		return n
	}
	return -1
}

// textWords name the text searched for itself: "containing the word asbestos".
var textWords = set("word", "words", "term", "terms", "keyword", "keywords", "parola", "parole", "termine", "termini")

// searchRun is the items searched for after the mention word (or the and/or) at k: fillers
// right after it aside ("about the"), the adjacent words that are unknown or inside the
// source's text.
func (r *reader) searchRun(k int, src *semantic.Source) []int {
	if k < 0 {
		return nil
	}
	j := k + 1
	for j < len(r.items) && (r.items[j].is(gFiller) || r.items[j].gen == 0 && len(r.items[j].ms) == 0 && textWords[r.items[j].word]) {
		if textWords[r.items[j].word] {
			r.items[j].used = true
		}
		j++
	}
	var run []int
	for ; j < len(r.items) && r.searchable(r.items[j], src); j++ {
		if len(run) > 0 && r.items[run[len(run)-1]].j != r.items[j].i {
			break
		}
		run = append(run, j)
	}
	return run
}

// searchable reports a word a text search looks for: unknown to the vocabulary, or naming
// only values of the source's text fields (a word of a title).
func (r *reader) searchable(it *item, src *semantic.Source) bool {
	if it.used || it.date != nil || it.num != nil || it.gen != 0 || r.ts[it.i].id {
		return false
	}
	if len(it.ms) == 0 {
		return it.word != "" && it.word != "%"
	}
	text := src.TextFields()
	for _, m := range it.ms {
		if m.kind != mValue || m.src != src || !contains(text, m.field) {
			return false
		}
	}
	return true
}

// searchText is what the run's words are searched as: the question's words, an alias by
// the word it stands for ("permessi" → permit), the last word without its plural ending so
// that singular and plural both match.
func (r *reader) searchText(run []int) string {
	var words []string
	own := false
	for _, k := range run {
		it := r.items[k]
		if len(it.ms) == 1 && it.ms[0].alias != "" {
			words, own = append(words, data.Fold(it.ms[0].alias)), false
			continue
		}
		for t := it.i; t < it.j; t++ {
			words = append(words, r.ts[t].w)
		}
		own = true
	}
	if own {
		words[len(words)-1] = singular(words[len(words)-1])
	}
	return strings.Join(words, " ")
}

// singular cuts an English plural ending, or the y that a plural turns into ies, so that a
// contains match finds both forms: permits → permit, facilities and facility → facilit,
// boxes → box. A word in another language stays as written.
func singular(w string) string {
	n := len(w)
	switch {
	case n > 6 && strings.HasSuffix(w, "ies"):
		return w[:n-3]
	case n > 4 && strings.HasSuffix(w, "y") && !strings.ContainsRune("aeiou", rune(w[n-2])):
		return w[:n-1]
	case n > 4 && (strings.HasSuffix(w, "sses") || strings.HasSuffix(w, "shes") || strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "xes")):
		return w[:n-2]
	case n > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us"):
		return w[:n-1]
	}
	return w
}

func comparisonGen(g gen) bool { return g == gGE || g == gGT || g == gLE || g == gLT }

// namedTextField is the text field named right after a search ("'missing' in their
// title", "'north' in the description", "nel titolo"), marked read; or "" (none, or two
// of them: "in their title or description" is every text field, marked read).
func (r *reader) namedTextField(last int, src *semantic.Source, fields []string) string {
	n := r.next(last, 1)
	if n < 0 || len(r.items[n].ms) != 1 {
		return ""
	}
	f := r.items[n].kind(mField)
	if f == nil || f.src != src || !contains(fields, f.field) {
		return ""
	}
	r.items[n].used = true
	if o := r.next(n, 1); o >= 0 && (r.items[o].is(gOr) || r.items[o].is(gAnd)) { // "in their title or description": all of them
		if g := r.next(o, 1); g >= 0 && len(r.items[g].ms) == 1 && r.items[g].kind(mField) != nil && contains(fields, r.items[g].kind(mField).field) {
			r.items[o].used, r.items[g].used = true, true
			return ""
		}
	}
	return f.field
}

// textConditions reads conditions on the text of a string field that the question names:
// "companies whose name begins with 'CÔNG TY'" (startsWith), "address containing 'Teheran'",
// "a company address in Seoul" (contains). A mention word with no field before it is a
// search of the free text (readText). The text is quoted, or one word no vocabulary
// knows; the field is named right before the operator ("in" only for a field whose values
// are not read, where no value could match the word instead).
func (r *reader) textConditions() {
	for k, it := range r.items {
		op := ""
		switch {
		case it.is(gStarts):
			op = data.OpStartsWith
		case it.is(gMention):
			op = data.OpContains
		case (it.word == "in" || it.word == "at" || it.word == "a") && it.gen == gFiller: // "address in Seoul", "indirizzo a Seoul"
			op = "in"
		default:
			continue
		}
		f := r.textField(k, op == "in")
		if f == nil {
			continue
		}
		text, last := r.textAfter(k, op == "in")
		if text == "" {
			continue
		}
		if op == "in" {
			op = data.OpContains
		}
		for j := r.fieldAt(k); j <= last; j++ {
			r.items[j].used = true
		}
		r.q.Filters = append(r.q.Filters, semantic.Filter{Source: f.src.Name, Field: f.field, Op: op, Values: []any{text}, Match: data.MatchNormalized})
	}
	r.wordBeforeField()
}

// wordBeforeField reads "importers with a Seoul address", "un indirizzo di Hanoi" turned
// around: one word no vocabulary knows, right before (in the text, nothing between) a
// string field whose values are not read, is text that field contains. The word must be
// alone: "a Ho Chi Minh address" leaves where the text starts unsaid, and is refused.
func (r *reader) wordBeforeField() {
	for k := 1; k < len(r.items); k++ {
		w, f := r.items[k-1], r.items[k].kind(mField)
		if f == nil || r.items[k].used || len(r.items[k].ms) != 1 || w.used || !r.unknownWord(k-1) {
			continue
		}
		if typeOf(f.src, f.field) != data.TypeString || f.src.Decl.Fields[f.field].Index != "" || w.j != r.items[k].i {
			continue
		}
		if k >= 2 && r.unknownWord(k-2) {
			continue // two unknown words: which of them the text is, is not said
		}
		w.used, r.items[k].used = true, true
		r.q.Filters = append(r.q.Filters, semantic.Filter{Source: f.src.Name, Field: f.field, Op: data.OpContains, Values: []any{r.ts[w.i].orig}, Match: data.MatchNormalized})
	}
}

// unknownWord reports that item k is one word no vocabulary knows.
func (r *reader) unknownWord(k int) bool {
	it := r.items[k]
	return it.j == it.i+1 && it.gen == 0 && len(it.ms) == 0 && it.date == nil && it.num == nil && !r.ts[it.i].id
}

// textField is the string field named right before item k (fillers aside).
func (r *reader) textField(k int, unread bool) *meaning {
	j := r.fieldAt(k)
	if j < 0 {
		return nil
	}
	f := r.items[j].kind(mField)
	if f == nil || typeOf(f.src, f.field) != data.TypeString || unread && f.src.Decl.Fields[f.field].Index != "" {
		return nil
	}
	return f
}

func (r *reader) fieldAt(k int) int { return r.prev(k, 1) }

// textAfter is the text after item k: its quoted words as written, or (unquoted) one word
// no vocabulary knows; with the index of the last item it spans.
func (r *reader) textAfter(k int, unknownOnly bool) (string, int) {
	n := r.next(k, 1)
	if n < 0 {
		return "", -1
	}
	first := r.ts[r.items[n].i]
	if q := first.quote; q != 0 && !unknownOnly {
		last := n
		for j := n; j < len(r.items) && r.ts[r.items[j].i].quote == q; j++ {
			last = j
		}
		return first.quoted, last
	}
	it := r.items[n]
	if it.j != it.i+1 || it.gen != 0 || len(it.ms) > 0 || it.date != nil || it.num != nil || first.id {
		return "", -1
	}
	if nx := r.next(n, 1); nx >= 0 && (len(r.items[nx].ms) > 0 || r.items[nx].gen == 0 && r.items[nx].date == nil && r.items[nx].num == nil) {
		return "", -1 // "in Seoul Korea", two unknown words: where the text ends is not said
	}
	return first.orig, n
}
