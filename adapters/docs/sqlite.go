package docs

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"

	_ "modernc.org/sqlite" // the "sqlite" database/sql driver, with FTS5
)

// sqliteStore keeps passages in one FTS5 table. The searched columns hold the section's
// and the text's words as indexText normalizes them (the same words PostgreSQL indexes);
// the others are UNINDEXED, kept for the results. bm25 weighs a match in the section twice.
type sqliteStore struct{ db *sql.DB }

var sqliteSchema = []string{
	`CREATE TABLE IF NOT EXISTS weir_doc_sources (source TEXT PRIMARY KEY, fingerprint TEXT NOT NULL)`,
	`CREATE VIRTUAL TABLE IF NOT EXISTS weir_doc_chunks USING fts5(
		source UNINDEXED, chunk_id UNINDEXED, file UNINDEXED, page UNINDEXED, section UNINDEXED,
		body UNINDEXED, section_words, body_words,
		tokenize = 'unicode61 remove_diacritics 2')`,
}

func openSQLite(ctx context.Context, path string) (*sqliteStore, error) {
	uri := "file:" + (&url.URL{Path: path}).EscapedPath() + "?_pragma=busy_timeout(5000)"
	db, err := sql.Open("sqlite", uri)
	if err != nil {
		return nil, fmt.Errorf("sqlite %s: %w", path, err)
	}
	for _, ddl := range sqliteSchema {
		if _, err := db.ExecContext(ctx, ddl); err != nil {
			db.Close()
			return nil, fmt.Errorf("sqlite %s: %w", path, err)
		}
	}
	return &sqliteStore{db: db}, nil
}

func (s *sqliteStore) close() error { return s.db.Close() }

func (s *sqliteStore) sync(ctx context.Context, source, fp string, build func() ([]chunk, error)) (bool, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return false, err
	}
	defer tx.Rollback() //nolint:errcheck // after Commit this is a no-op
	var old string
	err = tx.QueryRowContext(ctx, `SELECT fingerprint FROM weir_doc_sources WHERE source = ?`, source).Scan(&old)
	if err == nil && old == fp {
		return false, nil
	}
	if err != nil && err != sql.ErrNoRows {
		return false, err
	}
	chunks, err := build()
	if err != nil {
		return false, err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM weir_doc_chunks WHERE source = ?`, source); err != nil {
		return false, err
	}
	ins, err := tx.PrepareContext(ctx, `INSERT INTO weir_doc_chunks (source, chunk_id, file, page, section, body, section_words, body_words)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return false, err
	}
	defer func() { _ = ins.Close() }()
	for _, c := range chunks {
		if _, err := ins.ExecContext(ctx, source, c.id, c.file, c.page, c.section, c.text, indexText(c.section), indexText(c.text)); err != nil {
			return false, err
		}
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO weir_doc_sources (source, fingerprint) VALUES (?, ?)
		ON CONFLICT (source) DO UPDATE SET fingerprint = excluded.fingerprint`, source, fp); err != nil {
		return false, err
	}
	return true, tx.Commit()
}

// sqliteSearch ranks by bm25 (lower is better) with weights per column: the six
// unindexed columns 0, the section's words 2, the body's 1.
const sqliteSearch = `SELECT chunk_id, file, page, section, body, bm25(weir_doc_chunks, 0, 0, 0, 0, 0, 0, 2.0, 1.0) AS rank
	FROM weir_doc_chunks WHERE weir_doc_chunks MATCH ? AND source = ? ORDER BY rank, chunk_id LIMIT ?`

func (s *sqliteStore) search(ctx context.Context, source string, t terms, limit int) ([]Passage, error) {
	rows, err := s.db.QueryContext(ctx, sqliteSearch, t.fts5(), source, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Passage
	for rows.Next() {
		var p Passage
		var rank float64
		if err := rows.Scan(&p.ChunkID, &p.File, &p.Page, &p.Section, &p.Text, &rank); err != nil {
			return nil, err
		}
		p.Score = -rank
		out = append(out, p)
	}
	return out, rows.Err()
}

func (s *sqliteStore) counts(ctx context.Context, source string) (map[string][2]int, error) {
	return countRows(ctx, s.db, `SELECT file, count(*), max(page) FROM weir_doc_chunks WHERE source = ? GROUP BY file`, source)
}

func countRows(ctx context.Context, db *sql.DB, q, source string) (map[string][2]int, error) {
	rows, err := db.QueryContext(ctx, q, source)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string][2]int{}
	for rows.Next() {
		var f string
		var n, pages int
		if err := rows.Scan(&f, &n, &pages); err != nil {
			return nil, err
		}
		out[f] = [2]int{n, pages}
	}
	return out, rows.Err()
}
