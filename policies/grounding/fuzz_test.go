package grounding

import (
	"testing"
	"unicode/utf8"
)

var fuzzSeeds = []string{
	"Il fatturato totale è di 21.956,62 €, con un food cost del 35,02%.",
	"$1.2M, 22k, 3,5 mln €, −12,5%, 1'234.50, 1 913, 10–20%, tra 10 e 20 mila",
	"1. **Volume**\n## 2.1 Risultati\n2024-01-15 12:30 +39 02 1234 5678 gpt-4o `x=1` https://a.b/1",
	"-", "€", "1.", "0,", "9'", "+-1", "1\u00a0", "1 000 000,5 €", "1e308", "99999999999999999999999.5",
}

func FuzzExtract(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, n := range Extract(s) {
			if n.Start < 0 || n.End > len(s) || n.Start >= n.End {
				t.Fatalf("span %d:%d out of bounds for %d bytes", n.Start, n.End, len(s))
			}
			if s[n.Start:n.End] != n.Text {
				t.Fatalf("Text %q != answer[%d:%d] %q", n.Text, n.Start, n.End, s[n.Start:n.End])
			}
			if utf8.ValidString(s) && !utf8.ValidString(n.Text) {
				t.Fatalf("Text %q splits a rune", n.Text)
			}
		}
	})
}

func FuzzCheck(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, metricsJSON)
	}
	f.Add("32.934,93 €", `{"a":[1,2,{"b":"21.956,62 €"}],"c":-0.0}`)
	f.Add("1", `[[[[[[["\u00e8 5"]]]]]]]`)
	f.Fuzz(func(t *testing.T, answer, tool string) {
		ix := NewIndex([]Source{{Kind: Tool, Name: "t", Content: tool}, {Kind: User, Content: tool}})
		for _, opt := range []Options{{}, {AllowDerivations: true}} {
			ns := ix.Check(answer, opt)
			for _, n := range ns {
				if answer[n.Start:n.End] != n.Text {
					t.Fatalf("bad span")
				}
			}
		}
	})
}
