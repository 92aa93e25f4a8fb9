package prefilter

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/weirgw/weir/rules/internal/fold"
)

// canonical turns text into what a question looks like after the rules' normalization with
// every step on: fold-canonical lower case, diacritics dropped, one space between words. The
// prefilter's contract is only fold-canonical text; this is one such text among many, the one
// packs actually produce.
func canonical(text string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(strings.ToValidUTF8(text, "\ufffd")) {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		b.WriteRune(fold.Rune(r))
	}
	return strings.Join(strings.FieldsFunc(b.String(), func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }), " ")
}
