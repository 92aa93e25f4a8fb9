// Package data is Weir's structured data query (seed 003's QueryIntent) and the dataset
// schema it is validated against.
//
// A pack declares a dataset in YAML (see LoadSchema): its table, typed fields, the fields a
// query may group by, named metrics as expressions over columns, and a row cap. Compile turns
// the schema into a Dataset once; Dataset.Plan validates a Query against it and returns a
// Plan in which every identifier comes from the schema and every value is typed. Backends
// (sqlstore, httpstore) execute plans; they never see a raw Query.
//
// Errors come in two kinds, as seed 003 asks: a *QueryError means the query is invalid and
// carries precise problems (path, what was wrong, what is allowed) that go back to the model
// for correction; every other error is a system error for the user.
package data
