// Package docs is Weir's document source: protocols, manuals and plans (PDF, Markdown and
// plain text) searched like a data source, through a tool the policy governs.
//
// Open reads the configured files, splits them into passages that remember their file, PDF
// page and Markdown section, and indexes them for full-text search:
//
//   - without a DSN (or with a sqlite: DSN) in SQLite FTS5, embedded (modernc.org/sqlite, no
//     setup), ranked by BM25, tokenized by unicode61 with diacritics removed (English and
//     Italian alike: "qualità" matches "qualita");
//   - with a postgres:// DSN in PostgreSQL full-text search (a tsvector column with a GIN
//     index, ranked by ts_rank), the text folded in Go the same way, so no extension is
//     needed.
//
// The index records a fingerprint of the files' contents and the chunking settings; opening
// again with the same files keeps the index (a restart on a persistent database, a reload
// through Unchanged), any change rebuilds it in one transaction.
//
// Search turns a question into a query that cannot fail: the words are extracted, folded,
// stripped of stop words and light-stemmed into quoted prefix terms joined by OR, so
// quotes, apostrophes, operators (AND, OR, NEAR, *, -, ^, :) and any other user text are
// only ever words. User text travels as a bound parameter.
//
// Tool, ParseArguments, ToolResult, Cite and Quote are the pieces a caller needs to offer the
// index to a model as a tool and to cite what it found.
package docs
