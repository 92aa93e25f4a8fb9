package gateway

import (
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
	"testing"
)

// TestSpecialBytes checks the 8-byte test of the string scan against strClass: no mark
// when no byte is special, else the lowest mark on the first special byte.
func TestSpecialBytes(t *testing.T) {
	special := []byte{'"', '\\', 0, 0x1f, 0x20, 0x21, '!', '#', '[', ']', 0x7f, 0x80, 0xa0, 0xff, 'a'}
	rng := rand.New(rand.NewPCG(1, 2))
	var b [8]byte
	for n := 0; n < 300000; n++ {
		for i := range b {
			if rng.IntN(3) == 0 {
				b[i] = special[rng.IntN(len(special))]
			} else {
				b[i] = byte(rng.IntN(256))
			}
		}
		first := -1
		for i, c := range b {
			if strClass[c] != 0 {
				first = i
				break
			}
		}
		m := specialBytes(binary.LittleEndian.Uint64(b[:]))
		if got := bits.TrailingZeros64(m) >> 3; (m == 0) != (first < 0) || m != 0 && got != first {
			t.Fatalf("specialBytes(%q) = %#x: first special byte %d, want %d", b, m, got, first)
		}
	}
}
