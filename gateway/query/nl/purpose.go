package nl

import (
	"regexp"
	"strings"
)

// Purpose clauses. "For the board meeting I need …", "Per la riunione con i soci mi serve
// …", "I need them for the patient narratives": what the answer is for is no condition on
// the data. A clause is a purpose marker (for the, per la, …), at most four words, and a
// noun of a purpose (review, meeting, slide, report, riunione, …); it reaches on over "with
// / con" and a few words only up to punctuation or a word of need ("mi serve", "I need").
// The words removed are said in a note; a noun of the data ("for the placebo arm") is no
// purpose and stays.

var purposeClause = regexp.MustCompile(`(?i)\b(?:for|per)\s+(?:the|my|our|a|an|this|next|la|il|lo|i|le|gli|una|un|mia|mio|nostra|nostro|prossima|prossimo)\s+` +
	`(?:[\p{L}\p{N}'-]+\s+){0,4}?` + purposeNouns + `(?:\s+` + purposeNouns + `)*` +
	`(?:\s+(?:with|con|coi|col)\s+(?:[\p{L}'-]+\s*){1,3}?(?:[,:;.!?]|\s+(?:mi serve|mi servono|ho bisogno|i need|i'd need|vorrei|i would like|please)\b))?`)

const purposeNouns = `(?:review|reviews|meeting|meetings|slide|slides|deck|presentation|report|pack|committee|board|` +
	`narratives|narrative|dashboard|memo|briefing|newsletter|riunione|riunioni|presentazione|relazione|comitato|consiglio|assemblea|incontro|` +
	`controllo|controlli|verifica|check|audit)\b`

// purposeLead are openers that frame a question without asking anything ("Quick one:").
var purposeLead = regexp.MustCompile(`(?i)^\s*(?:quick one|quick question|domanda veloce|una domanda veloce)\b[\s:,-]*`)

// stripPurpose removes the question's purpose clauses; it returns the text left and the
// clauses removed, as written.
func stripPurpose(text string) (string, []string) {
	var removed []string
	if m := purposeLead.FindString(text); m != "" {
		text = text[len(m):]
	}
	text = purposeClause.ReplaceAllStringFunc(text, func(c string) string {
		removed = append(removed, strings.TrimRight(c, ",:;.!? "))
		if strings.ContainsAny(c[len(c)-1:], ",:;.!?") {
			return c[len(c)-1:]
		}
		return ""
	})
	return text, removed
}
