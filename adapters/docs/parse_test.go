package docs

import (
	"reflect"
	"testing"
)

func TestParseMarkdown(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []block
	}{
		{"heading path keeps the parent", "# Doc\n## 3 Definitions\n### 3.3 Dropout\nA dropout is *defined*.\n",
			[]block{{section: "3 Definitions > 3.3 Dropout", text: "A dropout is defined."}}},
		{"sibling heading replaces", "## A\nx\n## B\ny\n", []block{{section: "A", text: "x"}, {section: "B", text: "y"}}},
		{"setext headings", "Title\n=====\n\nSub\n---\ntext\n", []block{{section: "Title > Sub", text: "text"}}},
		{"fenced code is text, not headings", "```\n# not a heading\n```\n", []block{{text: "# not a heading"}}},
		{"table rows, separator dropped", "| a | **b** |\n|---|---|\n| 1 | 2 |\n", []block{{text: "a | b"}, {text: "1 | 2"}}},
		{"list items are blocks", "- one\n- two\n", []block{{text: "one"}, {text: "two"}}},
		{"front matter skipped", "---\ntitle: x\n---\nbody\n", []block{{text: "body"}}},
		{"links keep their text", "See [the SAP](sap.md) and ![fig](f.png).\n", []block{{text: "See the SAP and fig."}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := parseMarkdown(tc.src); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("parseMarkdown = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestParseText(t *testing.T) {
	src := "STUDY OVERVIEW\n\nThe study has\nthree arms.\n\n5.1 Inclusion criteria\n\nAdults only.\n\n5.2 exclusion is lower case so text\n"
	want := []block{
		{section: "STUDY OVERVIEW", text: "The study has three arms."},
		{section: "STUDY OVERVIEW > 5.1 Inclusion criteria", text: "Adults only."},
		{section: "STUDY OVERVIEW > 5.1 Inclusion criteria", text: "5.2 exclusion is lower case so text"},
	}
	if got := parseText(src); !reflect.DeepEqual(got, want) {
		t.Errorf("parseText = %+v, want %+v", got, want)
	}
}

func TestLooksLikeHeading(t *testing.T) {
	tests := []struct {
		line string
		want bool
	}{
		{"7.3 Serious adverse events", true},
		{"ELIGIBILITY", true},
		{"7.3 the number is a value", false},
		{"This is a sentence.", false},
		{"AE", false},
		{"12 participants are randomised per arm and 36 in total in the study overall today", false},
	}
	for _, tc := range tests {
		if got := looksLikeHeading(tc.line); got != tc.want {
			t.Errorf("looksLikeHeading(%q) = %v, want %v", tc.line, got, tc.want)
		}
	}
}
