package demo

import (
	"testing"
)

// TestAnalyticsGolden checks the golden totals in exact cents, independent of any database.
func TestAnalyticsGolden(t *testing.T) {
	rows := Analytics(GoldenRows, DefaultSeed)
	if len(rows) != GoldenRows {
		t.Fatalf("rows = %d", len(rows))
	}
	rev, cost := 0, 0
	ids := map[string]bool{}
	for _, r := range rows {
		if len(r) != len(AnalyticsColumns) {
			t.Fatalf("row has %d values", len(r))
		}
		q := int(r[7].(int64))
		rev += cents(r[5].(float64)) * q
		cost += cents(r[6].(float64)) * q
		ids[r[0].(string)] = true
	}
	if rev != GoldenRevenueCents || cost != GoldenFoodCostCents {
		t.Errorf("revenue %d, food cost %d cents; want %d, %d", rev, cost, GoldenRevenueCents, GoldenFoodCostCents)
	}
	if len(ids) != GoldenRows {
		t.Errorf("order ids are not unique")
	}
}

// TestAnalyticsDeterministic checks that a seed always yields the same rows, for every size.
func TestAnalyticsDeterministic(t *testing.T) {
	for _, n := range []int{10, GoldenRows} {
		a, b := Analytics(n, 7), Analytics(n, 7)
		for i := range a {
			for j := range a[i] {
				if a[i][j] != b[i][j] {
					t.Fatalf("rows=%d: row %d differs", n, i)
				}
			}
		}
	}
}

func cents(f float64) int { return int(f*100 + 0.5) }

func BenchmarkAnalyticsGolden(b *testing.B) {
	for b.Loop() {
		Analytics(GoldenRows, DefaultSeed)
	}
}

// TestAnalyticsAnySeed checks that calibration reaches the golden totals with a plausible
// daily special for other seeds too.
func TestAnalyticsAnySeed(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		rev := 0
		for _, r := range Analytics(GoldenRows, seed) {
			rev += cents(r[5].(float64)) * int(r[7].(int64))
			if r[3] == special && (r[5].(float64) < 15 || r[5].(float64) > 30) {
				t.Errorf("seed %d: special priced %v", seed, r[5])
			}
		}
		if rev != GoldenRevenueCents {
			t.Errorf("seed %d: revenue %d", seed, rev)
		}
	}
}
