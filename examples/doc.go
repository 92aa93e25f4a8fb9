// Package examples holds one folder per source system (seed) Weir serves: a rule pack under
// <name>/rules, a policy bundle under <name>/policies, a held-aside question set
// (<name>/heldout.jsonl) and a README. The data examples also hold their datasets with
// their semantic layer (<name>/data) and question sets whose answers were computed by SQL
// (<name>/questions.jsonl, written independently; questions_own.jsonl, variants). The tests
// of this package load every pack and bundle, run their inline tests, measure each pack on
// its held-aside questions, and check the values of the query route's answers to the
// question sets (internal/judge grades them) on SQLite and, when available, PostgreSQL.
// The clinical example's protocol questions (clinical/protocol_questions.jsonl) go through
// the same query route: each answer must quote and cite the passage that answers it.
package examples
