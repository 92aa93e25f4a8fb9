package docs

import "strings"

// parseText splits plain text into paragraphs at blank lines. A paragraph of one line that
// reads as a heading (looksLikeHeading) starts a section instead.
func parseText(src string) []block {
	var out []block
	var secs sections
	for _, para := range strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n\n") {
		para = strings.TrimSpace(para)
		if para == "" {
			continue
		}
		if !strings.Contains(para, "\n") && looksLikeHeading(para) {
			level, ok := headingLevel(para)
			if !ok {
				level = 1
			}
			secs.enter(level, para)
			continue
		}
		out = append(out, block{section: secs.path(), text: strings.Join(strings.Fields(para), " ")})
	}
	return out
}
