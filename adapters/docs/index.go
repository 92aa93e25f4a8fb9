package docs

import (
	"context"
	"errors"
	"fmt"
	"reflect"
)

// Passage is one search result: a piece of a document and where it is.
type Passage struct {
	// File is the document, relative to the config's BaseDir ("docs/protocol.pdf").
	File string `json:"file"`
	// Page is the PDF page (1-based); 0 for Markdown and text files.
	Page int `json:"page,omitempty"`
	// Section is the heading path above the passage ("7 Safety > 7.3 Serious adverse events").
	Section string `json:"section,omitempty"`
	// ChunkID identifies the passage, stable while the file is unchanged.
	ChunkID string `json:"chunk_id"`
	// Text is the whole passage.
	Text string `json:"text"`
	// Score orders the results, higher is better: BM25 in SQLite, ts_rank in PostgreSQL (not
	// comparable between the two).
	Score float64 `json:"score"`
	// Snippet is the passage's best-matching stretch of about 30 words.
	Snippet string `json:"snippet"`
}

// FileStats describes one indexed file.
type FileStats struct {
	Name   string // as passages cite it
	Kind   string // pdf, markdown or text
	Pages  int    // PDF pages holding passages
	Chunks int
}

// Stats describes an open index.
type Stats struct {
	Files     []FileStats
	Chunks    int
	Reindexed bool     // the files changed (or the index was new) and were indexed at Open
	Warnings  []string // files that yielded no text
}

// Index is an open, searchable document index. It is safe for concurrent use.
type Index struct {
	cfg     Config
	st      store
	fp      string
	stats   Stats
	cleanup func()
}

// MaxLimit caps the passages one search returns.
const MaxLimit = 20

// DefaultLimit is the passages a search returns when it asks for none.
const DefaultLimit = 5

// Open reads the configured files and opens their index, rebuilding it when the files or
// the chunking settings changed since it was built. Every error names the source and, for
// a file, its path.
func Open(ctx context.Context, cfg Config) (*Index, error) {
	cfg = cfg.withDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("documents %s: %w", cfg.Name, err)
	}
	ix, err := open(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("documents %s: %w", cfg.Name, err)
	}
	return ix, nil
}

func open(ctx context.Context, cfg Config) (*Index, error) {
	files, err := collect(cfg)
	if err != nil {
		return nil, err
	}
	st, cleanup, err := openStore(ctx, cfg.DSN)
	if err != nil {
		return nil, err
	}
	ix := &Index{cfg: cfg, st: st, fp: fingerprint(cfg, files), cleanup: cleanup}
	reindexed, err := st.sync(ctx, cfg.Name, ix.fp, func() ([]chunk, error) { return chunkFiles(cfg, files) })
	if err == nil {
		ix.stats, err = ix.readStats(ctx, files, reindexed)
	}
	if err != nil {
		_ = ix.Close()
		return nil, err
	}
	return ix, nil
}

// chunkFiles parses and chunks every file.
func chunkFiles(cfg Config, files []file) ([]chunk, error) {
	var out []chunk
	for _, f := range files {
		blocks, err := parseFile(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.path, err)
		}
		out = append(out, chunkBlocks(f.name, blocks, cfg.ChunkWords, cfg.OverlapWords)...)
	}
	return out, nil
}

func parseFile(f file) ([]block, error) {
	switch f.kind {
	case kindPDF:
		pages, err := extractPDF(f.data)
		if err != nil {
			return nil, err
		}
		return pdfBlocks(pages), nil
	case kindMarkdown:
		return parseMarkdown(string(f.data)), nil
	}
	return parseText(string(f.data)), nil
}

func (ix *Index) readStats(ctx context.Context, files []file, reindexed bool) (Stats, error) {
	counts, err := ix.st.counts(ctx, ix.cfg.Name)
	if err != nil {
		return Stats{}, err
	}
	s := Stats{Reindexed: reindexed}
	for _, f := range files {
		c := counts[f.name]
		s.Files = append(s.Files, FileStats{Name: f.name, Kind: string(f.kind), Chunks: c[0], Pages: c[1]})
		s.Chunks += c[0]
		if c[0] == 0 {
			s.Warnings = append(s.Warnings, fmt.Sprintf("%s: no text found (a scanned PDF without a text layer?)", f.path))
		}
	}
	return s, nil
}

// Search returns up to limit passages for a question, best first (limit ≤ 0: DefaultLimit,
// at most MaxLimit). Any question is valid: one without searchable words finds nothing.
func (ix *Index) Search(ctx context.Context, question string, limit int) ([]Passage, error) {
	if limit <= 0 {
		limit = DefaultLimit
	}
	limit = min(limit, MaxLimit)
	t := parseQuestion(question)
	if t.empty() {
		return nil, nil
	}
	ctx, cancel := context.WithTimeout(ctx, ix.cfg.Timeout)
	defer cancel()
	ps, err := ix.st.search(ctx, ix.cfg.Name, t, limit)
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, fmt.Errorf("documents %s: search exceeded %v: %w", ix.cfg.Name, ix.cfg.Timeout, err)
		}
		return nil, fmt.Errorf("documents %s: search: %w", ix.cfg.Name, err)
	}
	for i := range ps {
		ps[i].Snippet = snippet(ps[i].Text, t)
	}
	return ps, nil
}

// Stats returns what Open indexed or found indexed.
func (ix *Index) Stats() Stats { return ix.stats }

// Config returns the configuration the index was opened with, defaults applied.
func (ix *Index) Config() Config { return ix.cfg }

// Unchanged reports whether opening cfg now would give this index: the same settings and
// files with the same contents. A reload keeps an unchanged index instead of rebuilding
// it; any error reading the files answers false, so that Open reports it.
func (ix *Index) Unchanged(cfg Config) bool {
	cfg = cfg.withDefaults()
	if !reflect.DeepEqual(cfg, ix.cfg) {
		return false
	}
	files, err := collect(cfg)
	return err == nil && fingerprint(cfg, files) == ix.fp
}

// Close closes the index and removes a private embedded database.
func (ix *Index) Close() error {
	err := ix.st.close()
	if ix.cleanup != nil {
		ix.cleanup()
	}
	return err
}
