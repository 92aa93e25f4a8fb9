package grounding

import (
	"fmt"
	"strings"
	"testing"
)

// benchSources is about 10 KB of JSON tool results from the restaurant dataset.
func benchSources() []Source {
	var b strings.Builder
	b.WriteString(`{"group_by":"product","rows":[`)
	for i := 0; b.Len() < 9000; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"product":"Piatto %d","category":"primi","quantity":%d,"revenue":%.2f,"food_cost":%.2f,"margin_pct":%.2f}`,
			i, 10+i*7%90, 150+float64(i*137%2000)+0.37, 50+float64(i*53%700)+0.11, 30+float64(i%40)+0.25)
	}
	b.WriteString(`]}`)
	return []Source{
		{Kind: Tool, Name: "execute_metric", Content: metricsJSON},
		{Kind: Tool, Name: "aggregate_group", Content: b.String()},
		{Kind: Tool, Name: "compare_periods", Content: periodsJSON},
		{Kind: User, Content: "Quanto fatturato serve per crescere del 50%? Fammi un riepilogo."},
	}
}

// benchAnswer is a 1 KB answer in Italian and English with about 20 numbers:
// direct matches, roundings, derivations and a few invented values.
var benchAnswer = `## Riepilogo

Il fatturato totale è di 21.956,62 €, con un food cost del 35,02% (7.689,61 €).
Gli ordini sono stati 941, con un ticket medio di 23,33 €. Il margine lordo è 14.267,01 €,
cioè circa il 65% del fatturato.

1. **Volume**: per crescere del 50% serve un fatturato di 32.934,93 €.
2. **Prezzo**: un aumento del ticket a 25,50 € porterebbe circa 24k € con gli stessi ordini.
3. **Mix**: i primi piatti pesano per 12.345,67 € sul totale.

In English: revenue was €21,956.62 and gross margin 14,267.01 EUR; food cost / revenue = 0.3502.
Next steps: review the top 10 products and the 3 worst performers, then compare with 2024.
The difference between revenue and food cost is 14,267.01, as reported by the tool.
Nel confronto mensile febbraio (7.310,75 €) supera gennaio (7.120,40 €) del 2,67%.
Ricorda: i dati coprono 941 ordini; ogni proiezione va verificata con il team prima di agire.
Per il 2025 non è possibile stimare numeri senza dati aggiuntivi; chiedi un'analisi specifica.`

func BenchmarkGrounding(b *testing.B) {
	srcs := benchSources()
	size := 0
	for _, s := range srcs {
		size += len(s.Content)
	}
	ix := NewIndex(srcs)
	opt := Options{AllowDerivations: true}
	ns := ix.Check(benchAnswer, opt)
	grounded := 0
	for _, n := range ns {
		if n.Grounded {
			grounded++
		}
	}
	b.Logf("answer %d B, %d numbers (%d grounded); sources %d B, %d numbers", len(benchAnswer), len(ns), grounded, size, len(ix.entries))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		ix.Check(benchAnswer, opt)
	}
}

func BenchmarkNewIndex(b *testing.B) {
	srcs := benchSources()
	b.ReportAllocs()
	for b.Loop() {
		NewIndex(srcs)
	}
}

func BenchmarkExtract(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Extract(benchAnswer)
	}
}

// BenchmarkGroundingLarge checks answers of 10 KB, 100 KB and 1 MB (the
// 1 KB answer repeated) against the same sources: the time per byte must
// stay flat, Check being linear in the answer's length for a fixed pool.
func BenchmarkGroundingLarge(b *testing.B) {
	ix := NewIndex(benchSources())
	opt := Options{AllowDerivations: true, Names: benchNames}
	for _, size := range []int{10 << 10, 100 << 10, 1 << 20} {
		answer := strings.Repeat(benchAnswer+"\n\n", size/(len(benchAnswer)+2)+1)[:size]
		b.Run(fmt.Sprintf("%dKB", size>>10), func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				ix.Check(answer, opt)
			}
		})
	}
}

// benchNames names the quantities of the benchmark's sources.
var benchNames = NewNames(map[string][]string{
	"revenue": {"fatturato", "ricavi"}, "food_cost": {"food cost"}, "order_count": {"ordini", "orders"},
	"ticket_medio": {"ticket medio"}, "gross_margin": {"margine lordo"},
})
