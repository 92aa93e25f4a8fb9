package docs

import (
	"regexp"
	"strings"
)

var (
	mdHeadingRE  = regexp.MustCompile(`^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$`)
	mdListRE     = regexp.MustCompile(`^\s*(?:[-*+]|\d+[.)])\s+`)
	mdTableSepRE = regexp.MustCompile(`^\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$`)
	mdSetextRE   = regexp.MustCompile(`^ {0,3}(=+|-+)\s*$`)
	mdLinkRE     = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)
	mdEmphRE     = regexp.MustCompile(`\*\*([^*]+)\*\*|__([^_]+)__|\*([^*\s][^*]*)\*|` + "`([^`]*)`")
)

// mdParser turns Markdown into blocks: paragraphs, list items and table rows, each under
// the path of the headings above it. Inline markup is removed; code blocks are text.
type mdParser struct {
	out   []block
	para  []string
	secs  sections
	fence string
}

func parseMarkdown(src string) []block {
	p := &mdParser{}
	lines := strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n")
	lines = skipFrontMatter(lines)
	for i := 0; i < len(lines); i++ {
		if p.setext(lines, i) {
			i++
			continue
		}
		p.line(lines[i])
	}
	p.flush()
	return p.out
}

func skipFrontMatter(lines []string) []string {
	if len(lines) == 0 || strings.TrimSpace(lines[0]) != "---" {
		return lines
	}
	for i := 1; i < len(lines); i++ {
		if t := strings.TrimSpace(lines[i]); t == "---" || t == "..." {
			return lines[i+1:]
		}
	}
	return lines
}

// setext handles a heading underlined with === or --- (the line at i+1).
func (p *mdParser) setext(lines []string, i int) bool {
	if p.fence != "" || len(p.para) > 0 || i+1 >= len(lines) || strings.TrimSpace(lines[i]) == "" {
		return false
	}
	m := mdSetextRE.FindStringSubmatch(lines[i+1])
	if m == nil || mdListRE.MatchString(lines[i]) || strings.HasPrefix(strings.TrimSpace(lines[i]), "|") {
		return false
	}
	level := 1
	if m[1][0] == '-' {
		level = 2
	}
	p.secs.enter(level, mdInline(lines[i]))
	return true
}

func (p *mdParser) line(raw string) {
	line := strings.TrimRight(raw, " \t")
	trimmed := strings.TrimSpace(line)
	switch {
	case p.fence != "":
		if strings.HasPrefix(trimmed, p.fence) {
			p.fence = ""
			p.flush()
			return
		}
		p.para = append(p.para, trimmed)
	case strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~"):
		p.flush()
		p.fence = trimmed[:3]
	case trimmed == "" || strings.HasPrefix(trimmed, "<!--"):
		p.flush()
	case mdHeadingRE.MatchString(line):
		p.flush()
		m := mdHeadingRE.FindStringSubmatch(line)
		p.secs.enter(len(m[1]), mdInline(m[2]))
	case strings.HasPrefix(trimmed, "|"):
		p.flush()
		if !mdTableSepRE.MatchString(trimmed) {
			p.emit(tableRow(trimmed))
		}
	case mdListRE.MatchString(line):
		p.flush()
		p.para = append(p.para, mdListRE.ReplaceAllString(line, ""))
	default:
		p.para = append(p.para, trimmed)
	}
}

func (p *mdParser) flush() {
	if len(p.para) > 0 {
		p.emit(mdInline(strings.Join(p.para, " ")))
		p.para = nil
	}
}

func (p *mdParser) emit(text string) {
	if strings.TrimSpace(text) != "" {
		p.out = append(p.out, block{section: p.secs.path(), text: text})
	}
}

// tableRow renders a pipe-table row as its cells joined by " | ".
func tableRow(line string) string {
	line = strings.TrimSuffix(strings.TrimPrefix(line, "|"), "|")
	cells := strings.Split(line, "|")
	for i, c := range cells {
		cells[i] = mdInline(strings.TrimSpace(c))
	}
	return strings.Join(cells, " | ")
}

// mdInline removes emphasis, code spans, images and link targets, keeping their text.
func mdInline(s string) string {
	s = mdLinkRE.ReplaceAllString(s, "$1")
	return strings.TrimSpace(mdEmphRE.ReplaceAllString(s, "$1$2$3$4"))
}
