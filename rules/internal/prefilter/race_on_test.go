//go:build race

package prefilter

// samples scales the random texts of an agreement test: under -race (ten times slower, and
// adding nothing to a single goroutine's comparison) a tenth; `make unit` also runs these
// tests at full size without -race.
func samples(n int) int { return max(n/10, 1) }
