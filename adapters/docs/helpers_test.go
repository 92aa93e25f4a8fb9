package docs

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/weirgw/weir/adapters/data/sqlstore/pgtest"
	"github.com/weirgw/weir/adapters/docs/internal/mdpdf"
)

// backend is a store the search tests run against.
type backend struct {
	name string
	dsn  string
}

// backends returns the embedded SQLite store (always) and PostgreSQL when
// WEIR_TEST_POSTGRES_DSN is set and answers, in a private schema dropped at cleanup.
func backends(t *testing.T) []backend {
	t.Helper()
	bs := []backend{{"sqlite", ""}}
	if pg := pgtest.DSN(t); pg != "" {
		bs = append(bs, backend{"postgres", pg})
	}
	return bs
}

// writeFiles creates files (name → content) under a new directory and returns it.
func writeFiles(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// pdfOf renders Markdown to a PDF.
func pdfOf(md string) string {
	return string(mdpdf.Render([]byte(md), mdpdf.Options{Title: "test", Footer: "Test document - confidential"}))
}

// openIndex opens an index over dir's paths and closes it at cleanup.
func openIndex(t testing.TB, cfg Config) *Index {
	t.Helper()
	ix, err := Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}

func search(t testing.TB, ix *Index, q string, limit int) []Passage {
	t.Helper()
	ps, err := ix.Search(context.Background(), q, limit)
	if err != nil {
		t.Fatalf("Search(%q): %v", q, err)
	}
	return ps
}
