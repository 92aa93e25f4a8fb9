package prefilter

import (
	"math/rand/v2"
	"regexp"
	"regexp/syntax"
	"strings"
	"testing"
)

// TestByteNeedsSound matches every pattern of the corpus and shapes chosen for their single
// bytes against random texts, raw ones too (upper case,
// invalid UTF-8, other scripts): wherever a pattern matches, its byte needs must hold. (On the
// example packs' patterns, package rules checks that Decide, byte needs included, never drops
// a pattern that matches.)
func TestByteNeedsSound(t *testing.T) {
	pats := append(exactCorpus(t),
		`(?:to|by|al|del|di un|of) \d+ ?%`, `\d{1,2}/\d{4}`, `[^\x00-\x7f]`, `\x{FFFD}`, `[\x{D000}-\x{E000}]x`,
		`(?i)k\d`, `(?i)[k]@`, `a(?:#|\$)b`, `(?:\d|x)-`, `[€$]\s?\d+`, `(?s).?%`, `"[^"]+"`, `@\w+`, `\w+\(`)
	words := append(pfLiterals(pats), "%", "/", "$", "€", "@", "(", ")", "-", "#", "\"", "12", "2024", "\xff", "\xed\xa0\x80",
		"\ue000", "\u212a", "K", "É", "日本", "\ufffd", "\t", "\n")
	rng := rand.New(rand.NewPCG(9, 10))
	type pat struct {
		src   string
		re    *regexp.Regexp
		needs []byteSet
	}
	var ps []pat
	withNeeds := 0
	for _, src := range pats {
		parsed, err := syntax.Parse(src, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		needs := byteNeeds(parsed)
		if needs != nil {
			withNeeds++
		}
		ps = append(ps, pat{src, regexp.MustCompile(src), needs})
	}
	matched := 0
	for n := range samples(3000) {
		var b strings.Builder
		for range 1 + rng.IntN(8) {
			b.WriteString(words[rng.IntN(len(words))])
			if rng.IntN(2) == 0 {
				b.WriteByte(' ')
			}
		}
		text := b.String()
		if n%2 == 0 {
			text = canonical(text)
		}
		have := textBytes(text)
		for _, p := range ps {
			if p.re.MatchString(text) {
				matched++
				if !needsHold(p.needs, &have) {
					t.Fatalf("pattern %q matches %q, but its byte needs do not hold", p.src, text)
				}
			}
		}
	}
	t.Logf("%d of %d patterns have byte needs; %d matches checked", withNeeds, len(ps), matched)
	if withNeeds < 10 || matched == 0 {
		t.Fatalf("degenerate corpus: %d patterns with needs, %d matches", withNeeds, matched)
	}
}

func TestByteNeeds(t *testing.T) {
	cases := []struct {
		pattern string
		want    string // the bytes of each set, sets separated by '|'
	}{
		{`\d+ ?%`, "0123456789|%"},
		{`(?:to|del) \d+`, "0123456789"},
		{`\bshow\b`, ""},                    // letters are in every question
		{`a(?:#|\$)b`, "#$"},                // one byte of each alternative
		{`a(?:#|x)b`, ""},                   // a letter alternative makes the union common
		{`x*%?`, ""},                        // optional
		{`(?:%){2}`, "%"},                   // repeated, kept once
		{`\x{FFFD}`, "\x80-\xff"},           // an invalid byte reads as U+FFFD
		{`é`, "\xc3"},                       // the lead byte
		{`(?i)é`, "\xc3"},                   // É too
		{`(?i)k\d`, "0123456789"},           // k, K and the Kelvin sign are letters or their lead byte
		{`[\x{D000}-\x{E000}]`, "\xed\xee"}, // surrogates skipped, both sides kept
	}
	for _, tc := range cases {
		t.Run(tc.pattern, func(t *testing.T) {
			parsed, err := syntax.Parse(tc.pattern, syntax.Perl)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, b := range byteNeeds(parsed) {
				got = append(got, showBytes(b))
			}
			var want []string
			if tc.want != "" {
				for _, w := range strings.Split(tc.want, "|") {
					var b byteSet
					for i := 0; i < len(w); i++ {
						if i+2 < len(w) && w[i+1] == '-' {
							for c := int(w[i]); c <= int(w[i+2]); c++ {
								b.add(byte(c))
							}
							i += 2
							continue
						}
						b.add(w[i])
					}
					want = append(want, showBytes(b))
				}
			}
			if strings.Join(got, "|") != strings.Join(want, "|") {
				t.Fatalf("byteNeeds(%q) = %q, want %q", tc.pattern, got, want)
			}
		})
	}
}

// showBytes spells a byte set for messages.
func showBytes(b byteSet) string {
	var s []byte
	for c := 0; c < 256; c++ {
		if b.has(byte(c)) {
			s = append(s, byte(c))
		}
	}
	return string(s)
}
