package fallback

import (
	"context"
	"testing"
)

// BenchmarkClassifyCached is the fallback's hot path once a question was answered.
func BenchmarkClassifyCached(b *testing.B) {
	p := loadMini(b)
	c := New(&fakeModel{text: `{"intent":"simple","confidence":0.8}`}, Options{})
	q := query(p, "tell me something about the findings")
	if _, err := c.Classify(context.Background(), q); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		_, _ = c.Classify(context.Background(), q)
	}
}

// BenchmarkParseAnswer is the strict parse of one model answer.
func BenchmarkParseAnswer(b *testing.B) {
	p := loadMini(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := parseAnswer(`{"intent": "complex", "confidence": 0.72}`, p); err != nil {
			b.Fatal(err)
		}
	}
}
