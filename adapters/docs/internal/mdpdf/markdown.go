package mdpdf

import (
	"regexp"
	"strings"
)

// blockKind is the kind of a Markdown block the renderer lays out.
type blockKind int

const (
	paragraph blockKind = iota
	heading
	listItem
	table
)

// block is one laid-out unit of the source: a heading, a paragraph, a list item or a table.
type block struct {
	kind  blockKind
	level int        // heading level 1-3
	text  string     // heading, paragraph and list item text, inline markup removed
	mark  string     // list item marker: "•" or "1."
	rows  [][]string // table cells, header first
}

var (
	headingRE  = regexp.MustCompile(`^(#{1,6})\s+(.*?)\s*#*\s*$`)
	bulletRE   = regexp.MustCompile(`^\s*[-*+]\s+(.*)$`)
	numberedRE = regexp.MustCompile(`^\s*(\d+[.)])\s+(.*)$`)
	tableSepRE = regexp.MustCompile(`^\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$`)
	linkRE     = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
	emphRE     = regexp.MustCompile(`\*\*([^*]+)\*\*|\*([^*\s][^*]*)\*|` + "`([^`]*)`")
)

// parse splits Markdown source into blocks. It knows ATX headings, paragraphs (lines joined
// until a blank line), bulleted and numbered list items, and pipe tables.
func parse(src string) []block {
	var out []block
	var para []string
	flush := func() {
		if len(para) > 0 {
			out = append(out, block{kind: paragraph, text: inline(strings.Join(para, " "))})
			para = nil
		}
	}
	lines := strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		line := strings.TrimRight(lines[i], " \t")
		switch {
		case strings.TrimSpace(line) == "" || strings.HasPrefix(line, "<!--"):
			flush()
		case headingRE.MatchString(line):
			flush()
			m := headingRE.FindStringSubmatch(line)
			out = append(out, block{kind: heading, level: min(len(m[1]), 3), text: inline(m[2])})
		case strings.HasPrefix(strings.TrimSpace(line), "|"):
			flush()
			var rows [][]string
			for ; i < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[i]), "|"); i++ {
				if !tableSepRE.MatchString(strings.TrimSpace(lines[i])) {
					rows = append(rows, cells(lines[i]))
				}
			}
			i--
			out = append(out, block{kind: table, rows: rows})
		case bulletRE.MatchString(line) || numberedRE.MatchString(line):
			flush()
			out = append(out, listBlock(line))
		case len(out) > 0 && len(para) == 0 && out[len(out)-1].kind == listItem && strings.HasPrefix(lines[i], "  "):
			out[len(out)-1].text += " " + inline(strings.TrimSpace(line)) // a list item's continuation line
		default:
			para = append(para, strings.TrimSpace(line))
		}
	}
	flush()
	return out
}

func listBlock(line string) block {
	if m := numberedRE.FindStringSubmatch(line); m != nil {
		return block{kind: listItem, mark: m[1], text: inline(m[2])}
	}
	return block{kind: listItem, mark: "•", text: inline(bulletRE.FindStringSubmatch(line)[1])}
}

func cells(line string) []string {
	line = strings.TrimSpace(line)
	line = strings.TrimSuffix(strings.TrimPrefix(line, "|"), "|")
	parts := strings.Split(line, "|")
	for i, p := range parts {
		parts[i] = inline(strings.TrimSpace(p))
	}
	return parts
}

// inline removes emphasis, code spans and link targets, keeping their text.
func inline(s string) string {
	s = linkRE.ReplaceAllString(s, "$1")
	return emphRE.ReplaceAllString(s, "$1$2$3")
}
