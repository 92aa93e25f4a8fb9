package docs

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver
)

// pgStore keeps passages in a table with a tsvector column and a GIN index. The text is
// tokenized, folded and normalized in Go (indexText) before PostgreSQL sees it, so the words
// are the same as in SQLite and no unaccent extension is needed; the 'simple' configuration
// then only splits at the spaces.
type pgStore struct{ db *sql.DB }

var pgSchema = []string{
	`CREATE TABLE IF NOT EXISTS weir_doc_sources (source text PRIMARY KEY, fingerprint text NOT NULL)`,
	`CREATE TABLE IF NOT EXISTS weir_doc_chunks (
		source text NOT NULL, chunk_id text NOT NULL, file text NOT NULL, page integer NOT NULL,
		section text NOT NULL, body text NOT NULL, section_words text NOT NULL, body_words text NOT NULL,
		words integer NOT NULL, tsv tsvector NOT NULL, PRIMARY KEY (source, chunk_id))`,
	`CREATE INDEX IF NOT EXISTS weir_doc_chunks_tsv ON weir_doc_chunks USING gin (tsv)`,
}

func openPostgres(ctx context.Context, url string) (*pgStore, error) {
	db, err := sql.Open("pgx", url)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	tx, err := db.BeginTx(ctx, nil)
	if err == nil {
		err = createPGSchema(ctx, tx)
	}
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("postgres: %w", err)
	}
	return &pgStore{db: db}, nil
}

// createPGSchema creates the tables under an advisory lock, so that replicas starting
// together do not race on CREATE ... IF NOT EXISTS.
func createPGSchema(ctx context.Context, tx *sql.Tx) error {
	defer tx.Rollback() //nolint:errcheck // after Commit this is a no-op
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtext('weir_doc_schema'))`); err != nil {
		return err
	}
	for _, ddl := range pgSchema {
		if _, err := tx.ExecContext(ctx, ddl); err != nil {
			return err
		}
	}
	return tx.Commit()
}

func (s *pgStore) close() error { return s.db.Close() }

func (s *pgStore) sync(ctx context.Context, source, fp string, build func() ([]chunk, error)) (bool, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return false, err
	}
	defer tx.Rollback() //nolint:errcheck // after Commit this is a no-op
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtext('weir_doc_source:' || $1))`, source); err != nil {
		return false, err
	}
	var old string
	err = tx.QueryRowContext(ctx, `SELECT fingerprint FROM weir_doc_sources WHERE source = $1`, source).Scan(&old)
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
	if err := s.replace(ctx, tx, source, chunks); err != nil {
		return false, err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO weir_doc_sources (source, fingerprint) VALUES ($1, $2)
		ON CONFLICT (source) DO UPDATE SET fingerprint = excluded.fingerprint`, source, fp); err != nil {
		return false, err
	}
	return true, tx.Commit()
}

// replace swaps the source's passages. The section weighs A and the body B in ts_rank.
func (s *pgStore) replace(ctx context.Context, tx *sql.Tx, source string, chunks []chunk) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM weir_doc_chunks WHERE source = $1`, source); err != nil {
		return err
	}
	ins, err := tx.PrepareContext(ctx, `INSERT INTO weir_doc_chunks
		(source, chunk_id, file, page, section, body, section_words, body_words, words, tsv)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9,
			setweight(to_tsvector('simple', $7), 'A') || setweight(to_tsvector('simple', $8), 'B'))`)
	if err != nil {
		return err
	}
	defer func() { _ = ins.Close() }()
	for _, c := range chunks {
		sec, body := indexText(c.section), indexText(c.text)
		words := len(strings.Fields(sec)) + len(strings.Fields(body))
		if _, err := ins.ExecContext(ctx, source, c.id, c.file, c.page, c.section, c.text, sec, body, words); err != nil {
			return err
		}
	}
	return nil
}

// pgStats counts the source's passages, their average length and, for every part ($2, one
// tsquery each), the passages that contain it: BM25's corpus statistics.
const pgStats = `SELECT (SELECT count(*) FROM weir_doc_chunks WHERE source = $1),
	(SELECT coalesce(avg(words), 0) FROM weir_doc_chunks WHERE source = $1),
	(SELECT string_agg(n::text, ',' ORDER BY i) FROM (
		SELECT parts.i, count(c.chunk_id) AS n
		FROM unnest($2::text[]) WITH ORDINALITY AS parts(p, i)
		LEFT JOIN weir_doc_chunks c ON c.source = $1 AND c.tsv @@ to_tsquery('simple', parts.p)
		GROUP BY parts.i) AS df)`

// pgCandidates finds the passages that match any part (the GIN index answers @@), at most
// maxCandidates by ts_rank, for rankBM25 to order.
const pgCandidates = `SELECT chunk_id, file, page, section, body, section_words, body_words
	FROM weir_doc_chunks, to_tsquery('simple', $2) AS q
	WHERE source = $1 AND tsv @@ q ORDER BY ts_rank(tsv, q) DESC, chunk_id LIMIT $3`

// search ranks with BM25 like the SQLite store: ts_rank knows no rarity, so with it "used"
// would count as much as "MedDRA".
func (s *pgStore) search(ctx context.Context, source string, t terms, limit int) ([]Passage, error) {
	qs := t.tsqueries()
	var c corpus
	var df string // database/sql has no arrays: the counts come comma-separated
	if err := s.db.QueryRowContext(ctx, pgStats, source, qs).Scan(&c.n, &c.avgLen, &df); err != nil {
		return nil, err
	}
	for _, n := range strings.Split(df, ",") {
		v, err := strconv.Atoi(n)
		if err != nil {
			return nil, fmt.Errorf("document frequencies %q: %w", df, err)
		}
		c.df = append(c.df, v)
	}
	any := "(" + strings.Join(qs, ") | (") + ")"
	rows, err := s.db.QueryContext(ctx, pgCandidates, source, any, maxCandidates)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var cands []candidate
	for rows.Next() {
		var cd candidate
		var sec, body string
		if err := rows.Scan(&cd.ChunkID, &cd.File, &cd.Page, &cd.Section, &cd.Text, &sec, &body); err != nil {
			return nil, err
		}
		cd.section, cd.body = strings.Fields(sec), strings.Fields(body)
		cands = append(cands, cd)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return rankBM25(cands, t.parts(), c, limit), nil
}

func (s *pgStore) counts(ctx context.Context, source string) (map[string][2]int, error) {
	return countRows(ctx, s.db, `SELECT file, count(*), max(page) FROM weir_doc_chunks WHERE source = $1 GROUP BY file`, source)
}
