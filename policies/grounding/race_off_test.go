//go:build !race

package grounding

// raceDetector reports a -race build (race_on_test.go).
const raceDetector = false
