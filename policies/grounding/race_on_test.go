//go:build race

package grounding

// raceDetector reports a -race build, some ten times slower: measurements are skipped there;
// `make unit` also runs this package without -race.
const raceDetector = true
