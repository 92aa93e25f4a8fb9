// Package examples holds one folder per source system (seed) Weir serves: a rule pack under
// <name>/rules, a policy bundle under <name>/policies, a held-aside question set
// (<name>/heldout.jsonl) and a README. The tests of this package load every pack and bundle,
// run their inline tests, and measure each pack on its held-aside questions.
package examples
