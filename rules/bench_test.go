package rules

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// question200 is a realistic 200-byte question for the synthetic pack.
const question200 = "Could you show me the critical and high severity findings for our hotels and office buildings from last year, " +
	"and tell me why the fire safety issues keep coming back in the engineering department?"

// syntheticPack builds a pack of n rules over a vocabulary, the shape of a large real pack:
// most rules are word alternations, some have `when` conditions.
func syntheticPack(tb testing.TB, n int) *Pack {
	var b strings.Builder
	b.WriteString(okPack[:strings.Index(okPack, "intents:")])
	b.WriteString("intents:\n  a: {description: first}\n  b: {description: second}\n  c: {description: third}\n")
	b.WriteString("aliases:\n  sev: {Critical: [critical, urgent], High: [high, important]}\n  pt: {Hotel: [hotel, hotels], Office: [office, offices, office buildings]}\n")
	b.WriteString("extract:\n  severity: {alias: sev, list: true}\n  projectType: {alias: pt}\n  year: {builtin: year}\n  dept: {pattern: '\\b([a-z]+) department\\b', group: 1}\n")
	b.WriteString("rules:\n")
	words := []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango"}
	for i := 0; i < n; i++ {
		intent := []string{"a", "b", "c"}[i%3]
		w1, w2 := words[i%len(words)], words[(i*7+3)%len(words)]
		switch {
		case i%10 == 9:
			fmt.Fprintf(&b, "  - {id: r%d, intent: %s, when: 'len(severity) > 0 && year != nil', weight: 0.5}\n", i, intent)
		default:
			fmt.Fprintf(&b, "  - {id: r%d, intent: %s, pattern: '\\b(%s%d|%s%d)s?\\b.*\\b(findings?|issues?)\\b', weight: 1}\n", i, intent, w1, i, w2, i)
		}
	}
	b.WriteString("  - {id: why, intent: b, pattern: '\\bwhy\\b', weight: 2}\n  - {id: show, intent: a, pattern: '\\b(show|list)\\b.*\\bfindings\\b', weight: 1.5}\n")
	p, err := Load([]File{{Name: "synthetic.yaml", Data: []byte(b.String())}})
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

func BenchmarkClassify(b *testing.B) {
	run := func(b *testing.B, p *Pack, q string, opts ...Option) {
		c := NewClassifier(p, opts...)
		ctx := context.Background()
		b.SetBytes(int64(len(q)))
		b.ReportAllocs()
		b.ResetTimer()
		defer cpuPerOp(b)()
		for b.Loop() {
			c.Classify(ctx, q)
		}
	}
	b.Run(fmt.Sprintf("pack=synthetic100/bytes=%d", len(question200)), func(b *testing.B) { run(b, syntheticPack(b, 100), question200) })
	b.Run("pack=synthetic100/prefilter=off", func(b *testing.B) { run(b, syntheticPack(b, 100), question200, withoutPrefilter()) })
	dirs, _ := filepath.Glob("../examples/*/rules")
	for _, dir := range dirs {
		p, err := LoadDir(dir)
		if err != nil {
			b.Fatal(err)
		}
		q := longestTest(p)
		name := filepath.Base(filepath.Dir(dir))
		b.Run(fmt.Sprintf("pack=%s/rules=%d/bytes=%d", name, p.RuleCount(), len(q)), func(b *testing.B) { run(b, p, q) })
		if name == "analytics" {
			// The question of the gateway's load test (cmd/weir/loadtest): short, accented, Italian.
			b.Run("pack=analytics/q=gateway", func(b *testing.B) { run(b, p, gatewayQuestion) })
		}
	}
}

// gatewayQuestion is the question the gateway's load harness sends with the analytics pack.
const gatewayQuestion = "Qual è il fatturato totale del 2024?"

// longestTest pads the pack's longest test question to about 200 bytes.
func longestTest(p *Pack) string {
	q := ""
	for _, tc := range p.Tests() {
		if len(tc.Query) > len(q) {
			q = tc.Query
		}
	}
	for len(q) < 200 {
		q += " " + q
	}
	return q[:200]
}

func BenchmarkLoad(b *testing.B) {
	for b.Loop() {
		if _, err := LoadDir("testdata/mini"); err != nil {
			b.Fatal(err)
		}
	}
}
