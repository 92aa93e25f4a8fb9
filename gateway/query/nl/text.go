package nl

import (
	"github.com/weirgw/weir/adapters/data"
	"github.com/weirgw/weir/adapters/data/semantic"
)

// textConditions reads conditions on the text of a string field that the question names:
// "companies whose name begins with 'CÔNG TY'" (startsWith), "address containing 'Teheran'",
// "a company address in Seoul" (contains). The text is quoted, or one word no vocabulary
// knows; the field is named right before the operator ("in" only for a field whose values
// are not read, where no value could match the word instead).
func (r *reader) textConditions() {
	for k, it := range r.items {
		op := ""
		switch {
		case it.is(gStarts):
			op = data.OpStartsWith
		case it.is(gContains):
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
