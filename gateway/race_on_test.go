//go:build race

package gateway

// raceDetector reports a -race build, in which compiling a snapshot (OPA above all) is
// some fifty times slower: tests that compile hundreds of them do fewer.
const raceDetector = true
