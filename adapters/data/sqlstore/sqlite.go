package sqlstore

import (
	"database/sql/driver"
	"strings"
	"sync"

	"github.com/weirgw/weir/adapters/data"
	"modernc.org/sqlite"
)

var registerOnce sync.Once
var registerErr error

// registerFunctions adds Weir's match functions to every SQLite connection:
//
//	weir_lower(x)            Go's strings.ToLower (SQLite's lower() folds ASCII only)
//	weir_fold(x)             data.Fold: the normalized strategy's form
//	weir_fuzzy(x, v, k, op)  1 when data.FuzzyMatch(op, Fold(x), v, k)
//
// They are deterministic, so SQLite may evaluate them once per distinct input.
func registerFunctions() error {
	registerOnce.Do(func() {
		fns := []struct {
			name string
			n    int32
			fn   func(*sqlite.FunctionContext, []driver.Value) (driver.Value, error)
		}{
			{"weir_lower", 1, textFn(strings.ToLower)},
			{"weir_fold", 1, textFn(data.Fold)},
			{"weir_fuzzy", 4, fuzzyFn},
		}
		for _, f := range fns {
			if err := sqlite.RegisterDeterministicScalarFunction(f.name, f.n, f.fn); err != nil {
				registerErr = err
				return
			}
		}
	})
	return registerErr
}

func textFn(fn func(string) string) func(*sqlite.FunctionContext, []driver.Value) (driver.Value, error) {
	return func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
		s, ok := text(args[0])
		if !ok {
			return nil, nil
		}
		return fn(s), nil
	}
}

func fuzzyFn(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
	hay, ok := text(args[0])
	needle, _ := text(args[1])
	k, _ := args[2].(int64)
	op, _ := text(args[3])
	if !ok {
		return int64(0), nil
	}
	if data.FuzzyMatch(op, data.Fold(hay), needle, int(k)) {
		return int64(1), nil
	}
	return int64(0), nil
}

func text(v driver.Value) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case []byte:
		return string(x), true
	}
	return "", false
}
