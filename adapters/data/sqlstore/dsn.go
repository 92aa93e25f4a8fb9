package sqlstore

import (
	"fmt"
	"net/url"
	"strings"
)

// Kind is a database engine.
type Kind string

// Supported engines.
const (
	SQLite   Kind = "sqlite"
	Postgres Kind = "postgres"
)

// DSN is a parsed data source name. DSNs are URLs: sqlite:///abs/path.db,
// sqlite:relative/path.db, postgres://user@host:5432/db?sslmode=disable (also postgresql://).
type DSN struct {
	Kind Kind
	// Path is the SQLite database file.
	Path string
	// URL is the PostgreSQL connection URL, passed to pgx unchanged.
	URL string
}

// ParseDSN parses a data source name.
func ParseDSN(s string) (DSN, error) {
	u, err := url.Parse(s)
	if err != nil {
		return DSN{}, fmt.Errorf("sqlstore: DSN is not a URL: %w", err)
	}
	switch u.Scheme {
	case "sqlite", "sqlite3":
		return parseSQLite(u)
	case "postgres", "postgresql":
		if u.Host == "" {
			return DSN{}, fmt.Errorf("sqlstore: %s DSN needs a host: postgres://user@host:5432/db", u.Scheme)
		}
		return DSN{Kind: Postgres, URL: s}, nil
	case "":
		return DSN{}, fmt.Errorf("sqlstore: DSN %q has no scheme; use sqlite:///abs/path.db, sqlite:relative/path.db or postgres://host/db", s)
	}
	return DSN{}, fmt.Errorf("sqlstore: unsupported DSN scheme %q; use sqlite or postgres", u.Scheme)
}

func parseSQLite(u *url.URL) (DSN, error) {
	if u.RawQuery != "" || u.Fragment != "" {
		return DSN{}, fmt.Errorf("sqlstore: sqlite DSN takes no parameters; Weir sets them")
	}
	path := u.Opaque // sqlite:relative/path.db
	if path == "" {
		if u.Host != "" {
			return DSN{}, fmt.Errorf("sqlstore: sqlite DSN %q has a host; use sqlite:///abs/path.db or sqlite:relative/path.db", u.String())
		}
		path = u.Path // sqlite:///abs/path.db
	} else if p, err := url.PathUnescape(path); err == nil {
		path = p
	}
	if path == "" || strings.HasSuffix(path, "/") {
		return DSN{}, fmt.Errorf("sqlstore: sqlite DSN needs a file path")
	}
	return DSN{Kind: SQLite, Path: path}, nil
}

// sqliteURI is the modernc DSN for a database file: a file: URI (so that mode=ro is
// honoured by SQLite itself) with the driver's _pragma parameters.
func sqliteURI(path string, readOnly bool) string {
	q := "_pragma=busy_timeout(5000)"
	if readOnly {
		q = "mode=ro&_pragma=query_only(1)&" + q
	}
	return "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q
}
