package sqlstore

import (
	"strconv"
	"strings"
)

// dialect is what differs between the engines. Every method returns SQL built from our own
// constants, quoted identifiers and placeholders; none takes a value.
type dialect struct {
	kind Kind
}

// quote quotes an identifier. Identifiers are already plain (data.ValidIdent); doubling
// quotes keeps this safe even if that check were bypassed.
func (dialect) quote(id string) string {
	return `"` + strings.ReplaceAll(id, `"`, `""`) + `"`
}

// ph is the n-th (1-based) placeholder; numbered in both engines so a value can be reused.
func (d dialect) ph(n int) string {
	if d.kind == Postgres {
		return "$" + strconv.Itoa(n)
	}
	return "?" + strconv.Itoa(n)
}

func (d dialect) floatType() string {
	if d.kind == Postgres {
		return "DOUBLE PRECISION"
	}
	return "REAL"
}

func (d dialect) columnType(t string) string {
	switch t {
	case "number":
		return d.floatType()
	case "int":
		if d.kind == Postgres {
			return "BIGINT"
		}
		return "INTEGER"
	case "date":
		if d.kind == Postgres {
			return "DATE"
		}
		return "TEXT" // ISO dates compare correctly as text, and modernc returns them as strings
	}
	return "TEXT"
}

// lower is the case-insensitive form: SQLite's lower() only folds ASCII, so SQLite uses
// weir_lower (Go's strings.ToLower); PostgreSQL's lower() follows the database's LC_CTYPE.
func (d dialect) lower(x string) string {
	if d.kind == Postgres {
		return "lower(" + x + ")"
	}
	return "weir_lower(" + x + ")"
}

// fold is the normalized form of x (data.Fold). SQLite calls Go through weir_fold;
// PostgreSQL uses translate() with data.FoldTable (passed as the parameters from and to),
// lower(), and collapses whitespace.
func (d dialect) fold(x, from, to string) string {
	if d.kind == Postgres {
		return `btrim(regexp_replace(lower(translate(` + x + `, ` + from + `::text, ` + to + `::text)), '\s+', ' ', 'g'))`
	}
	return "weir_fold(" + x + ")"
}

func (d dialect) contains(x, p string) string {
	if d.kind == Postgres {
		return "strpos(" + x + ", " + p + ") > 0"
	}
	return "instr(" + x + ", " + p + ") > 0"
}

func (d dialect) startsWith(x, p string) string {
	if d.kind == Postgres {
		return "left(" + x + ", char_length(" + p + ")) = " + p
	}
	return "substr(" + x + ", 1, length(" + p + ")) = " + p
}

// dateParam casts a date parameter for PostgreSQL's DATE columns.
func (d dialect) dateParam(p string) string {
	if d.kind == Postgres {
		return "CAST(" + p + " AS DATE)"
	}
	return p
}

func (d dialect) month(x string) string {
	if d.kind == Postgres {
		return "to_char(CAST(" + x + " AS DATE), 'YYYY-MM')"
	}
	return "strftime('%Y-%m', " + x + ")"
}

func (d dialect) day(x string) string {
	if d.kind == Postgres {
		return "to_char(CAST(" + x + " AS DATE), 'YYYY-MM-DD')"
	}
	return "strftime('%Y-%m-%d', " + x + ")"
}

// quarter labels a date's quarter YYYY-Qn.
func (d dialect) quarter(x string) string {
	if d.kind == Postgres {
		return "to_char(CAST(" + x + " AS DATE), 'YYYY-\"Q\"Q')"
	}
	return "(strftime('%Y', " + x + ") || '-Q' || ((CAST(strftime('%m', " + x + ") AS INTEGER) + 2) / 3))"
}

func (d dialect) year(x string) string {
	if d.kind == Postgres {
		return "CAST(EXTRACT(YEAR FROM CAST(" + x + " AS DATE)) AS INTEGER)"
	}
	return "CAST(strftime('%Y', " + x + ") AS INTEGER)"
}

// weekday numbers a date's day of the week, 0 (Sunday) to 6 (Saturday), in both engines.
func (d dialect) weekday(x string) string {
	if d.kind == Postgres {
		return "CAST(EXTRACT(DOW FROM CAST(" + x + " AS DATE)) AS INTEGER)"
	}
	return "CAST(strftime('%w', " + x + ") AS INTEGER)"
}

func (d dialect) intType() string {
	if d.kind == Postgres {
		return "BIGINT"
	}
	return "INTEGER"
}
