// Package sqlstore runs data plans against SQL databases through database/sql: SQLite via
// modernc.org/sqlite (pure Go, the embedded default) and PostgreSQL via pgx's stdlib driver.
//
// Safety does not depend on the query being well-meant. Identifiers in SQL come only from a
// compiled data.Dataset (plain identifiers, quoted again here) and values only travel as
// parameters. Stores open SQLite read-only (mode=ro and PRAGMA query_only) and run every
// PostgreSQL query in a READ ONLY transaction with a local statement_timeout; every query
// has a context deadline and a row cap.
package sqlstore
