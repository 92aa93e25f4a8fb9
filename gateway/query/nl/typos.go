package nl

import "unicode/utf8"

// Typos. A word no vocabulary knows is read as the one word of the vocabulary it is a
// single edit away from (a letter added, dropped, changed, or two neighbours swapped:
// "febraio" → febbraio, "fatturto" → fatturato, "improt" → import), when that word is
// unique and both are at least minTypoLen letters long; the answer's notes say how the
// word was read. Only the model's own words (measures, fields, row nouns) and month names
// are targets, and the one-word values of a field's closed list in the schema (severity
// Critical, status Deferred). Values read from the data (names of people, products,
// companies) are only when long (longValueLen): a short name one letter from another may
// be another name ("Marta", "Marco"). Nor is the generic lexicon: its
// words change what is computed, and a real word is often one letter from one of them
// ("leaving" → leading, a top N; "median" → media, the mean), except a few long words
// (lexiconTargets) that no near miss of another word reaches.

// minTypoLen is the shortest word corrected by any edit: shorter words have too many
// neighbours. A word of shortTypoLen letters is corrected only when it is a longer word of
// the vocabulary with one letter dropped or two neighbours swapped ("oders" → orders,
// "ordni" → ordini): a changed or added letter in so short a word too often makes another
// real word.
const (
	minTypoLen   = 6
	shortTypoLen = 5
	// longValueLen is the shortest value read from the data that a typo is read as: names
	// one letter apart are other names when short ("Marta", "Marco"), rarely at this length
	// ("Singapre" → Singapore, "nasopharingitis" → Nasopharyngitis).
	longValueLen = 8
)

// addCorrectable records the words a typo may be read as: those of the model's measures,
// fields, row nouns and extremes, and the month names.
func (v *vocab) addCorrectable(words ...string) {
	for _, w := range words {
		if utf8.RuneCountInString(w) >= minTypoLen-1 {
			v.correctable[w] = true
		}
	}
}

// lexiconTargets are the few words of the generic lexicon a typo may be read as ("diffrent"
// → different, "avrage" → average): long words, none one edit from another, read only when
// no other word of the lexicon is one edit from the typo either.
var lexiconTargets = []string{"different", "distinct", "average", "percentage", "maximum", "minimum", "highest", "between", "percentuale", "distribution", "distribuzione", "breakdown"}

// correct returns the word of the vocabulary w is one edit away from, if exactly one.
func (v *vocab) correct(w string) (string, bool) {
	n := utf8.RuneCountInString(w)
	if n < shortTypoLen {
		return "", false
	}
	edit := oneEdit
	if n < minTypoLen {
		edit = droppedOrSwapped
	}
	found := ""
	for c := range v.correctable {
		if edit(w, c) {
			if found != "" && found != c {
				return "", false
			}
			found = c
		}
	}
	if n >= longValueLen-1 {
		for c := range v.longValues {
			if oneEdit(w, c) {
				if found != "" && found != c {
					return "", false
				}
				found = c
			}
		}
	}
	for _, c := range lexiconTargets {
		if oneEdit(w, c) {
			if found != "" && found != c {
				return "", false
			}
			found = c
		}
	}
	if contains(lexiconTargets, found) && nearLexicon(w, found) {
		return "", false
	}
	return found, found != ""
}

// nearLexicon reports a word of the lexicon other than target one edit from w: w may be a
// typo of either.
func nearLexicon(w, target string) bool {
	for l := range lexicon {
		if l != target && oneEdit(w, l) {
			return true
		}
	}
	return false
}

// oneEdit reports that a and b differ by exactly one insertion, deletion, substitution or
// transposition of adjacent letters.
func oneEdit(a, b string) bool {
	ra, rb := []rune(a), []rune(b)
	if len(ra) < len(rb) {
		ra, rb = rb, ra
	}
	switch len(ra) - len(rb) {
	case 0:
		i := 0
		for i < len(ra) && ra[i] == rb[i] {
			i++
		}
		if i == len(ra) {
			return false // the same word
		}
		if string(ra[i+1:]) == string(rb[i+1:]) {
			return true // substitution
		}
		return i+1 < len(ra) && ra[i] == rb[i+1] && ra[i+1] == rb[i] && string(ra[i+2:]) == string(rb[i+2:])
	case 1:
		i := 0
		for i < len(rb) && ra[i] == rb[i] {
			i++
		}
		// A letter more or less at the end is an inflection or another word ("median",
		// "media"; "item", "items"), not a typo.
		return i < len(rb) && string(ra[i+1:]) == string(rb[i:])
	}
	return false
}

// droppedOrSwapped reports that w is c with one letter dropped (not the last) or two
// neighbours swapped: the edits of a short word that leave it recognisable.
func droppedOrSwapped(w, c string) bool {
	rw, rc := []rune(w), []rune(c)
	switch len(rc) - len(rw) {
	case 0:
		return oneEdit(w, c) && !substituted(rw, rc)
	case 1:
		return oneEdit(w, c)
	}
	return false
}

// substituted reports that two words of one length differ in exactly one letter.
func substituted(a, b []rune) bool {
	diff := 0
	for i := range a {
		if a[i] != b[i] {
			diff++
		}
	}
	return diff == 1
}
