package query

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestNoDatabaseDriver: the engine reaches databases only through adapters (adapters/data,
// adapters/docs); no file of the package imports a driver or database/sql itself.
func TestNoDatabaseDriver(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		ast, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range ast.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			for _, banned := range []string{"database/sql", "modernc.org/sqlite", "github.com/jackc/pgx", "github.com/lib/pq"} {
				if strings.HasPrefix(path, banned) {
					t.Errorf("%s imports %s: database access belongs in adapters/", f, path)
				}
			}
		}
	}
}
