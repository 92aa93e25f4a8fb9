package docs

import (
	"regexp"
	"strings"
)

// spellingRules map British spellings to American ones (or both to one form), applied to
// the words of the documents and of the questions alike, so that "apnea" finds "apnoea" and
// "enrolled" finds "enrolment". A rule that also changes an unrelated word only makes two
// rare words equal; it never loses a match, because both sides are changed the same way.
var spellingRules = []struct {
	re   *regexp.Regexp
	repl string
}{
	{regexp.MustCompile(`^(.{3,})is(e|ed|es|ing|ation|ations)$`), "${1}iz$2"}, // randomise → randomize
	{regexp.MustCompile(`^(.{3,})ys(e|ed|es|ing)$`), "${1}yz$2"},              // analyse → analyze
	{regexp.MustCompile(`([ilvbm])our`), "${1}or"},                            // behaviour, colour, tumour
	{regexp.MustCompile(`^(enrol|travel|label|model|cancel|signal|level|fuel)l`), "$1"},
	{regexp.MustCompile(`([^aeiou])tre(s?)$`), "${1}ter$2"}, // centre → center
}

// normalize is the form a folded word is indexed and searched in.
func normalize(w string) string {
	if len(w) >= 5 && strings.Contains(w, "oe") {
		w = strings.ReplaceAll(w, "oe", "e") // apnoea, diarrhoea, oedema
	}
	if len(w) >= 6 && strings.Index(w, "ae") > 0 {
		w = strings.ReplaceAll(w, "ae", "e") // haematology, anaemia; not AE, AEs, AESI
	}
	for _, r := range spellingRules {
		w = r.re.ReplaceAllString(w, r.repl)
	}
	return w
}

// indexText is what the stores index for a text: its words folded and normalized,
// separated by spaces. Questions go through the same steps (parseQuestion).
func indexText(s string) string {
	ws := tokens(s)
	for i, w := range ws {
		ws[i] = normalize(w)
	}
	return strings.Join(ws, " ")
}
