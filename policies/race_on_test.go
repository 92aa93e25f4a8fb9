//go:build race

package policies

// samples scales the random inputs of an agreement test: under -race (some ten times slower,
// and adding nothing to a single goroutine's comparison) a tenth; `make unit` also runs this
// package at full size without -race.
func samples(n int) int { return max(n/10, 1) }
