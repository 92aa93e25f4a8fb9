package fallback

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/weirgw/weir/rules"
)

// TestShareAskingModel measures what the fallback costs: the share of each example pack's
// questions (inline tests and the held-aside set) that reach the model. Run with -v to see
// the table; it is in README.md.
func TestShareAskingModel(t *testing.T) {
	dirs, _ := filepath.Glob("../../examples/*/rules")
	if len(dirs) == 0 {
		t.Skip("no example packs")
	}
	for _, dir := range dirs {
		pack, err := rules.LoadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		m := &fakeModel{text: `{"intent":"` + pack.Intents()[0].Name + `","confidence":0.5}`}
		c := rules.NewClassifier(pack, rules.WithFallback(New(m, Options{CacheSize: -1})))
		var tests []string
		for _, tc := range pack.Tests() {
			tests = append(tests, tc.Query)
		}
		held := heldout(t, filepath.Join(filepath.Dir(dir), "heldout.jsonl"))
		share := func(qs []string) (int, int) {
			before := m.calls.Load()
			for _, q := range qs {
				c.Classify(context.Background(), q)
			}
			return int(m.calls.Load() - before), len(qs)
		}
		a, n := share(tests)
		b, h := share(held)
		t.Logf("%-11s tests %3d/%3d = %4.1f%%   held-out %3d/%3d = %4.1f%%", pack.Name(), a, n, pct(a, n), b, h, pct(b, h))
	}
}

func pct(a, n int) float64 {
	if n == 0 {
		return 0
	}
	return 100 * float64(a) / float64(n)
}

func heldout(t *testing.T, path string) []string {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var qs []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var line struct{ Query string }
		if json.Unmarshal(sc.Bytes(), &line) == nil && line.Query != "" {
			qs = append(qs, line.Query)
		}
	}
	return qs
}
