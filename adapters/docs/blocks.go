package docs

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// block is a paragraph-sized piece of a document (a paragraph, a list item, a table row,
// a run of PDF lines) and where it sits: its PDF page (0 for other formats) and the path
// of the headings above it.
type block struct {
	page    int
	section string
	text    string
}

// sections tracks the headings above the current position.
type sections struct{ stack []string }

// enter records a heading of level (1 = top).
func (s *sections) enter(level int, title string) {
	if level < 1 {
		level = 1
	}
	if len(s.stack) >= level {
		s.stack = s.stack[:level-1]
	}
	for len(s.stack) < level-1 {
		s.stack = append(s.stack, "")
	}
	s.stack = append(s.stack, strings.TrimSpace(title))
}

// path is the innermost heading with its parent, "7 Safety > 7.3 Serious adverse events":
// enough to say where a passage is without repeating the document title everywhere.
func (s *sections) path() string {
	var parts []string
	for _, t := range s.stack {
		if t != "" {
			parts = append(parts, t)
		}
	}
	if len(parts) > 2 {
		parts = parts[len(parts)-2:]
	}
	return strings.Join(parts, " > ")
}

var numberedHeadingRE = regexp.MustCompile(`^(\d+(?:\.\d+)*)\.?\s+\S`)

// headingLevel returns the level a numbered heading's number implies ("7.3 ..." is 2),
// and whether text starts with such a number.
func headingLevel(text string) (int, bool) {
	m := numberedHeadingRE.FindStringSubmatch(text)
	if m == nil {
		return 0, false
	}
	return strings.Count(m[1], ".") + 1, true
}

// looksLikeHeading reports whether a line of plain text reads as a heading: short, no
// sentence end, and either numbered ("5.1 Inclusion criteria") with a capital after the
// number, or written in capitals ("ELIGIBILITY").
func looksLikeHeading(line string) bool {
	line = strings.TrimSpace(line)
	words := strings.Fields(line)
	if len(words) == 0 || len(words) > 12 || strings.HasSuffix(line, ".") || strings.HasSuffix(line, ",") {
		return false
	}
	if _, ok := headingLevel(line); ok && len(words) > 1 {
		r, _ := utf8.DecodeRuneInString(words[1])
		return unicode.IsUpper(r)
	}
	letters, upper := 0, 0
	for _, r := range line {
		if unicode.IsLetter(r) {
			letters++
			if unicode.IsUpper(r) {
				upper++
			}
		}
	}
	return letters >= 4 && upper == letters
}
