package query

import (
	"context"
	"testing"
	"time"

	"github.com/weirgw/weir/rules"
)

// benchQuestions are questions of every shape the semantic layer answers.
var benchQuestions = []string{
	"Qual è il fatturato totale?",
	"fatturato di marzo",
	"top 3 piatti per fatturato",
	"confronta il fatturato di gennaio e febbraio",
	"fatturato tranne i vini da gennaio a marzo",
	"quanti clienti diversi abbiamo avuto?",
}

// BenchmarkParse measures reading a question into a semantic query (no data read).
func BenchmarkParse(b *testing.B) {
	e := engineFor(openExampleSource(b, "analytics", "orders", "schema.yaml", "orders.csv", "execute_metric"))
	if err := e.Compile(); err != nil {
		b.Fatal(err)
	}
	now := time.Now()
	b.ReportAllocs()
	for b.Loop() {
		for _, q := range benchQuestions {
			e.parser.Parse(q, now)
		}
	}
}

// BenchmarkAnswer measures answering from the data (941 demo rows in SQLite): the parse,
// the policy-decided reads, SQL, and the answer, per question.
func BenchmarkAnswer(b *testing.B) {
	e := engineFor(openExampleSource(b, "analytics", "orders", "schema.yaml", "orders.csv", "execute_metric"))
	g := &policyGuard{allowed: map[string]bool{"execute_metric": true}}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		for _, text := range benchQuestions {
			q := &Question{Text: text, Class: rules.Classification{Intent: "analytics"}, Intent: rules.Intent{Route: rules.Route{Kind: KindData}}, Guard: g}
			if _, _, err := e.Answer(ctx, q); err != nil {
				b.Fatal(err)
			}
		}
		g.asked = g.asked[:0]
	}
}
