package policies

import (
	"context"
	"sort"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/storage/inmem"
	"github.com/open-policy-agent/opa/v1/tester"
)

// TestTimeout bounds each Rego unit test.
const TestTimeout = 10 * time.Second

// TestResult is the outcome of one Rego unit test (a rule named test_*).
type TestResult struct {
	Package  string        `json:"package"` // e.g. data.weir.tools_test
	Name     string        `json:"name"`    // e.g. test_blocked_tool
	File     string        `json:"file"`    // the test rule, or where its evaluation error happened
	Line     int           `json:"line"`
	Pass     bool          `json:"pass"`
	Skip     bool          `json:"skip,omitempty"` // todo_test_* rules
	Error    string        `json:"error,omitempty"`
	Duration time.Duration `json:"duration"`
}

// Test runs the bundle's Rego unit tests with OPA's test runner (the semantics of
// `opa test`), over the bundle's modules, the library and the bundle data. The results are
// sorted by file and line. A compile error of the test files is returned as an ErrorList.
func (b *Bundle) Test(ctx context.Context) ([]TestResult, error) {
	store := inmem.NewFromObjectWithOpts(map[string]any{"weir": b.data.doc}, inmem.OptRoundTripOnWrite(false))
	txn, err := store.NewTransaction(ctx)
	if err != nil {
		return nil, errorf(CodeTestError, "%v", err)
	}
	defer store.Abort(ctx, txn)
	modules := make(map[string]*ast.Module, len(b.modules))
	for name, m := range b.modules {
		modules[name] = m.Copy()
	}
	runner := tester.NewRunner().
		SetStore(store).
		SetModules(modules).
		SetDefaultRegoVersion(ast.RegoV1).
		SetTimeout(TestTimeout).
		RaiseBuiltinErrors(true)
	ch, err := runner.RunTests(ctx, txn)
	if err != nil {
		if es := astErrors(CodeRegoCompile, err); len(es) > 0 {
			return nil, es
		}
		return nil, errorf(CodeTestError, "%v", err)
	}
	var out []TestResult
	for r := range ch {
		out = append(out, testResult(r))
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].File != out[j].File {
			return out[i].File < out[j].File
		}
		return out[i].Line < out[j].Line
	})
	return out, nil
}

func testResult(r *tester.Result) TestResult {
	tr := TestResult{Package: r.Package, Name: r.Name, Pass: r.Pass(), Skip: r.Skip, Duration: r.Duration}
	if r.Location != nil {
		tr.File, tr.Line = r.Location.File, r.Location.Row
	}
	if r.Error != nil {
		tr.Error = r.Error.Error()
		if loc := errorLocation(r.Error); loc != nil {
			tr.File, tr.Line = loc.File, loc.Row
		}
	}
	return tr
}
