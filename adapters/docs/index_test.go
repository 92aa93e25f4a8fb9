package docs

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weirgw/weir/adapters/docs/internal/mdpdf"
)

// corpus of three short documents in every supported format.
var testFiles = map[string]string{
	"docs/a.md": "# Dosing\n\nTablets are taken once daily at bedtime.\n\n" +
		"# Reporting\n\nEvery serious adverse event is reported within 24 hours. Serious means hospitalisation.\n",
	"docs/b.txt": "SAFETY\n\nAn adverse event is any untoward medical occurrence.\n",
	"docs/it.md": "# Qualità della vita\n\nLa qualità del sonno è misurata con un questionario validato.\n",
	"docs/c.pdf": pdfOf("# Protocol\n\n## 5 Eligibility\n\nAdults aged 18 to 80 years with chronic insomnia.\n"),
}

func TestSearch(t *testing.T) {
	dir := writeFiles(t, testFiles)
	for _, be := range backends(t) {
		t.Run(be.name, func(t *testing.T) {
			ix := openIndex(t, Config{Name: "docs", BaseDir: dir, DSN: be.dsn, Paths: []string{"docs/*"}})
			tests := []struct {
				q, file string
				page    int
				section string
			}{
				{"When must a serious adverse event be reported?", "docs/a.md", 0, "Reporting"},
				{"what age must patients be", "docs/c.pdf", 1, "5 Eligibility"}, // age finds aged
				{"qualita del sonno", "docs/it.md", 0, "Qualità della vita"},    // no accent in the question
				{"QUALITÀ DEL SONNO", "docs/it.md", 0, "Qualità della vita"},    // accent and capitals
				{"untoward occurrence", "docs/b.txt", 0, "SAFETY"},              // a text file's heading
				{"bedtime tablet", "docs/a.md", 0, "Dosing"},                    // plural/singular
			}
			for _, tc := range tests {
				ps := search(t, ix, tc.q, 3)
				if len(ps) == 0 || ps[0].File != tc.file || ps[0].Page != tc.page || ps[0].Section != tc.section {
					t.Errorf("%q: top passage %+v, want %s p%d %q", tc.q, ps, tc.file, tc.page, tc.section)
					continue
				}
				if ps[0].Snippet == "" || ps[0].ChunkID == "" || ps[0].Score <= 0 {
					t.Errorf("%q: incomplete passage %+v", tc.q, ps[0])
				}
			}
		})
	}
}

// TestBM25Order: a passage with the rare word ranks above one with only common words, and
// the results are ordered by score.
func TestBM25Order(t *testing.T) {
	files := map[string]string{"d.md": "# A\n\nthe drug the drug the drug the drug\n\n# B\n\nthe drug causes somnolence\n\n# C\n\nthe drug\n\n# D\n\ndrug drug\n"}
	dir := writeFiles(t, files)
	for _, be := range backends(t) {
		t.Run(be.name, func(t *testing.T) {
			ix := openIndex(t, Config{Name: "bm25", BaseDir: dir, DSN: be.dsn, Paths: []string{"d.md"}})
			ps := search(t, ix, "does the drug cause somnolence?", 10)
			if len(ps) != 4 || ps[0].Section != "B" {
				t.Fatalf("results %+v, want B first of 4", ps)
			}
			for i := 1; i < len(ps); i++ {
				if ps[i].Score > ps[i-1].Score {
					t.Errorf("not ordered by score: %v after %v", ps[i].Score, ps[i-1].Score)
				}
			}
			if one := search(t, ix, "drug", 1); len(one) != 1 {
				t.Errorf("limit 1 gave %d", len(one))
			}
		})
	}
}

// TestHostileQueries: no user text is a query syntax error.
func TestHostileQueries(t *testing.T) {
	dir := writeFiles(t, testFiles)
	queries := []string{
		`what's the "primary endpoint"?`, `"`, `""`, `"unbalanced`, `AND`, `OR`, `NOT`, `a AND b OR c NOT d`,
		`NEAR(serious adverse, 2)`, `*`, `serious*`, `^serious`, `-serious`, `+serious`, `body:serious`,
		`{section body}: x`, `(serious`, `serious)`, `'; DROP TABLE weir_doc_chunks; --`, `a & b | !c <-> d`,
		`serious:*`, `'serious'`, "\x00serious\x00", "\xff\xfe invalid utf8", strings.Repeat("serious adverse ", 500),
		`what?`, ``, `   `, `🙂 emoji`, `l'evento avverso è grave?`, `1:1:1`, `≥ 15`,
	}
	for _, be := range backends(t) {
		t.Run(be.name, func(t *testing.T) {
			ix := openIndex(t, Config{Name: "hostile", BaseDir: dir, DSN: be.dsn, Paths: []string{"docs/*"}})
			for _, q := range queries {
				if _, err := ix.Search(context.Background(), q, 5); err != nil {
					t.Errorf("Search(%.40q): %v", q, err)
				}
			}
			if ps := search(t, ix, `NEAR(serious adverse, 2)`, 5); len(ps) == 0 || ps[0].File != "docs/a.md" {
				t.Errorf("operator words are searched as words: %+v", ps)
			}
		})
	}
}

// TestReindex: opening again with the same files keeps the index; a changed file rebuilds
// it; Unchanged tells a reload which case it is.
func TestReindex(t *testing.T) {
	dir := writeFiles(t, map[string]string{"p.md": "# A\n\nfirst version\n"})
	dsns := map[string]string{"sqlite": "sqlite:" + filepath.Join(t.TempDir(), "docs.db")}
	for _, be := range backends(t) {
		if be.name == "postgres" {
			dsns["postgres"] = be.dsn
		}
	}
	for name, dsn := range dsns {
		t.Run(name, func(t *testing.T) {
			os.WriteFile(filepath.Join(dir, "p.md"), []byte("# A\n\nfirst version\n"), 0o644)
			cfg := Config{Name: "re", BaseDir: dir, DSN: dsn, Paths: []string{"*.md"}}
			first := openIndex(t, cfg)
			if !first.Stats().Reindexed && name == "sqlite" {
				t.Error("a new index was not built")
			}
			second := openIndex(t, cfg)
			if second.Stats().Reindexed || second.Stats().Chunks != 1 {
				t.Errorf("unchanged files reindexed: %+v", second.Stats())
			}
			if !second.Unchanged(cfg) {
				t.Error("Unchanged = false for the same files")
			}
			other := cfg
			other.ChunkWords = 50
			if second.Unchanged(other) {
				t.Error("Unchanged = true for other settings")
			}
			os.WriteFile(filepath.Join(dir, "p.md"), []byte("# A\n\nsecond version\n"), 0o644)
			if second.Unchanged(cfg) {
				t.Error("Unchanged = true after the file changed")
			}
			third := openIndex(t, cfg)
			if !third.Stats().Reindexed || len(search(t, third, "second", 5)) != 1 || len(search(t, third, "first", 5)) != 0 {
				t.Errorf("changed file not reindexed: %+v", third.Stats())
			}
		})
	}
}

// TestOpenErrors: every problem with a configured file is an error naming it.
func TestOpenErrors(t *testing.T) {
	dir := writeFiles(t, map[string]string{"ok.md": "x\n", "notes.docx": "x", "sub.md/inner.txt": "x"})
	tests := []struct {
		name  string
		paths []string
		want  string
	}{
		{"missing file", []string{"missing.pdf"}, filepath.Join(dir, "missing.pdf") + ": no such file"},
		{"glob matches nothing", []string{"docs/*.pdf"}, filepath.Join(dir, "docs/*.pdf") + ": the pattern matches no file"},
		{"unsupported type", []string{"notes.docx"}, filepath.Join(dir, "notes.docx") + `: unsupported file type ".docx"`},
		{"a directory", []string{"sub.md"}, filepath.Join(dir, "sub.md") + ": not a regular file"},
		{"bad pattern", []string{"[x"}, `"[x" is not a valid glob pattern`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Open(context.Background(), Config{Name: "bad", BaseDir: dir, Paths: tc.paths})
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "documents bad: ") {
				t.Errorf("err = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestConfigValidate(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
		want string
	}{
		{"valid", Config{Name: "p", Paths: []string{"a.md"}}, ""},
		{"bad name", Config{Name: "1 x", Paths: []string{"a.md"}}, "name"},
		{"no paths", Config{Name: "p"}, "paths"},
		{"chunk too small", Config{Name: "p", Paths: []string{"a"}, ChunkWords: 5}, "chunk_words"},
		{"overlap too large", Config{Name: "p", Paths: []string{"a"}, ChunkWords: 100, OverlapWords: 60}, "overlap_words"},
	}
	for _, tc := range tests {
		err := tc.cfg.withDefaults().Validate()
		if (err == nil) != (tc.want == "") || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: Validate = %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestEmptyPDFWarns: a PDF without text (a scan) opens, with a warning naming it.
func TestEmptyPDFWarns(t *testing.T) {
	dir := writeFiles(t, map[string]string{"scan.pdf": string(mdpdf.Render(nil, mdpdf.Options{}))})
	ix := openIndex(t, Config{Name: "scan", BaseDir: dir, Paths: []string{"scan.pdf"}})
	if w := ix.Stats().Warnings; len(w) != 1 || !strings.Contains(w[0], filepath.Join(dir, "scan.pdf")) {
		t.Errorf("warnings = %q", w)
	}
}
