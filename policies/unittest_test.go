package policies

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestExampleBundles loads every example bundle and runs its Rego unit tests, so that
// go test ./... fails when an example does not compile or its tests fail.
func TestExampleBundles(t *testing.T) {
	dirs := exampleBundles()
	if len(dirs) == 0 {
		t.Fatal("no example bundles found")
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(filepath.Dir(dir)), func(t *testing.T) {
			b := loadT(t, dir)
			results, err := b.Test(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if len(results) == 0 {
				t.Error("the bundle has no Rego tests")
			}
			for _, r := range results {
				if !r.Pass {
					t.Errorf("%s:%d: %s.%s failed %s", r.File, r.Line, r.Package, r.Name, r.Error)
				}
			}
		})
	}
}

func TestRegoTestFailureLocation(t *testing.T) {
	b := loadT(t, "testdata/failing_test")
	results, err := b.Test(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var pass, fail int
	for _, r := range results {
		if r.Pass {
			pass++
			continue
		}
		fail++
		if r.Name != "test_fails" || r.File != "testdata/failing_test/a_test.rego" || r.Line != 9 {
			t.Errorf("failure at %s:%d (%s), want a_test.rego:9 test_fails", r.File, r.Line, r.Name)
		}
	}
	if pass != 1 || fail != 1 {
		t.Errorf("%d passed, %d failed; want 1 and 1", pass, fail)
	}
}

func TestRegoTestCompileError(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "data.yaml", "intents: {a: {}}\n")
	write(t, dir, "x_test.rego", "package weir.x_test\n\ntest_x if nope(1)\n")
	b := loadT(t, dir)
	_, err := b.Test(context.Background())
	if Code(err) != CodeRegoCompile || Errors(err)[0].Line != 3 {
		t.Errorf("got %v, want a rego_compile_error at line 3", err)
	}
	_ = os.Remove(filepath.Join(dir, "x_test.rego"))
}

// exampleBundles are the policy bundles of every example, tenants' own included.
func exampleBundles() []string {
	dirs, _ := filepath.Glob("../examples/*/policies")
	tenants, _ := filepath.Glob("../examples/*/tenants/*/policies")
	return append(dirs, tenants...)
}
