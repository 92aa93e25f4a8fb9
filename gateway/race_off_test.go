//go:build !race

package gateway

// raceDetector reports a -race build (race_on_test.go).
const raceDetector = false
