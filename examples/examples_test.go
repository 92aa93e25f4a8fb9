package examples

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/weirgw/weir/rules"
)

// The acceptance thresholds of the rule-pack issue, on questions the pack was not tuned on:
// the rules decide at least 75% of them, and at least 95% of those they decide are right.
const (
	minDecided   = 0.75
	minPrecision = 0.95
)

func packDirs(t *testing.T) []string {
	dirs, err := filepath.Glob("*/rules")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no example packs found: %v", err)
	}
	return dirs
}

// TestPacks compiles every example pack and runs its inline tests, the same as `weir check`.
func TestPacks(t *testing.T) {
	for _, dir := range packDirs(t) {
		t.Run(filepath.Dir(dir), func(t *testing.T) {
			p, err := rules.LoadDir(dir)
			if err != nil {
				t.Fatalf("%v", err)
			}
			results := p.RunTests()
			if len(results) < 40 {
				t.Errorf("a pack needs at least 40 inline tests, %s has %d", dir, len(results))
			}
			for _, r := range results {
				if len(r.Failures) > 0 {
					t.Error(r.Error())
				}
			}
		})
	}
}

// freshFloor is what the rules measured on a pack's fresh.jsonl (blind set 15 of issue 15,
// written from the seeds only) after the fixes, floored to the percent: a change that
// decides fewer of those questions, or decides more of them wrongly, fails.
type freshFloor struct{ decided, precision float64 }

var freshFloors = map[string]freshFloor{
	"analytics":  {0.97, 1.00}, // 96 of 98 decided, 96 right
	"clinical":   {0.90, 0.98}, // 90 of 100 decided, 89 right
	"codesearch": {0.98, 1.00}, // 99 of 101 decided, 99 right
	"findings":   {0.98, 1.00}, // 96 of 97 decided, 96 right (three relabelled per the seed, see the pack's README)
	"trade":      {0.92, 1.00}, // 96 of 104 decided, 96 right
}

// TestHeldout measures every pack on its held-aside questions, which were written with the
// inline tests but never used to tune the rules, on independent.jsonl: questions written
// by someone who never saw the rules (set 5, measured once before it was committed; see the
// pack's README), and on fresh.jsonl (blind set 15, measured once before tuning, then tuned on).
// The first two must stay at ≥75% decided and ≥95% precision, fresh.jsonl at its floor.
func TestHeldout(t *testing.T) {
	for _, dir := range packDirs(t) {
		for _, file := range []string{"heldout.jsonl", "independent.jsonl", "fresh.jsonl"} {
			name := filepath.Dir(dir)
			t.Run(name+"/"+file, func(t *testing.T) {
				want := freshFloor{minDecided, minPrecision}
				if file == "fresh.jsonl" {
					f, ok := freshFloors[name]
					if !ok {
						t.Fatalf("%s has no floor for fresh.jsonl", name)
					}
					want = f
				}
				set, err := rules.ReadLabelled(filepath.Join(name, file))
				if err != nil || len(set.Questions) == 0 {
					t.Fatalf("%s: %v (%d questions)", file, err, len(set.Questions))
				}
				p, err := rules.LoadDir(dir)
				if err != nil {
					t.Fatal(err)
				}
				c := rules.NewClassifier(p, rules.WithClock(func() time.Time { return time.Date(2025, 6, 15, 12, 0, 0, 0, time.UTC) }))
				decided, right, rightOverall := 0, 0, 0
				for _, q := range set.Questions {
					res := c.Classify(context.Background(), q.Query)
					if res.Intent == q.Intent {
						rightOverall++
					}
					if res.Source != rules.SourceRules {
						continue
					}
					decided++
					if res.Intent == q.Intent {
						right++
					} else {
						t.Logf("decided wrongly: %q → %s (%.2f), want %s", q.Query, res.Intent, res.Confidence, q.Intent)
					}
				}
				n := len(set.Questions)
				share := float64(decided) / float64(n)
				precision := float64(right) / float64(max(decided, 1))
				t.Logf("%s: %d questions, rules decided %d (%.1f%%), %d of them right (precision %.1f%%), final intent right for %d (%.0f%%)",
					name, n, decided, 100*share, right, 100*precision, rightOverall, 100*float64(rightOverall)/float64(n))
				if share < want.decided {
					t.Errorf("rules decide %.1f%% of %s, want ≥ %.0f%%", 100*share, file, 100*want.decided)
				}
				if precision < want.precision {
					t.Errorf("precision on decided questions of %s is %.1f%%, want ≥ %.0f%%", file, 100*precision, 100*want.precision)
				}
			})
		}
	}
}

// TestCalibration runs each pack's calibration as weir check does: its declared sets load,
// and on them together the rules' confidence is earned — at the pack's threshold they decide
// at least 75% and are right at least as often as the pack's target.
func TestCalibration(t *testing.T) {
	for _, dir := range packDirs(t) {
		t.Run(filepath.Dir(dir), func(t *testing.T) {
			p, err := rules.LoadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			sets, err := p.CalibrationSets()
			if err != nil || len(sets) < 3 {
				t.Fatalf("calibration sets: %v (%d sets)", err, len(sets))
			}
			cal, err := p.Calibrate(sets)
			if err != nil {
				t.Fatal(err)
			}
			t.Log(cal.Summary())
			if cal.Held.Coverage() < minDecided || cal.Held.Precision() < cal.Target {
				t.Errorf("held sets: decided %.1f%%, precision %.1f%%; want ≥ %.0f%% and ≥ %.0f%%",
					100*cal.Held.Coverage(), 100*cal.Held.Precision(), 100*minDecided, 100*cal.Target)
			}
		})
	}
}
