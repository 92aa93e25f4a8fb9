package audit

import (
	"math"
	"slices"
	"testing"

	"github.com/gowebpki/jcs"
)

// TestNumbersRFC8785 checks appendFloat against the examples of RFC 8785, Appendix B.
func TestNumbersRFC8785(t *testing.T) {
	tests := []struct {
		bits uint64
		want string
	}{
		{0x0000000000000000, "0"}, {0x8000000000000000, "0"},
		{0x0000000000000001, "5e-324"}, {0x8000000000000001, "-5e-324"},
		{0x7fefffffffffffff, "1.7976931348623157e+308"}, {0xffefffffffffffff, "-1.7976931348623157e+308"},
		{0x4340000000000000, "9007199254740992"}, {0xc340000000000000, "-9007199254740992"},
		{0x4430000000000000, "295147905179352830000"}, {0x44b52d02c7e14af5, "9.999999999999997e+22"},
		{0x44b52d02c7e14af6, "1e+23"}, {0x44b52d02c7e14af7, "1.0000000000000001e+23"},
		{0x444b1ae4d6e2ef4e, "999999999999999700000"}, {0x444b1ae4d6e2ef4f, "999999999999999900000"},
		{0x444b1ae4d6e2ef50, "1e+21"}, {0x3eb0c6f7a0b5ed8c, "9.999999999999997e-7"},
		{0x3eb0c6f7a0b5ed8d, "0.000001"}, {0x41b3de4355555553, "333333333.3333332"},
		{0x41b3de4355555554, "333333333.33333325"}, {0x41b3de4355555555, "333333333.3333333"},
		{0x41b3de4355555556, "333333333.3333334"}, {0x41b3de4355555557, "333333333.33333343"},
		{0xbecbf647612f3696, "-0.0000033333333333333333"}, {0x43143ff3c1cb0959, "1424953923781206.2"},
	}
	for _, tc := range tests {
		got, err := appendFloat(nil, math.Float64frombits(tc.bits))
		if err != nil || string(got) != tc.want {
			t.Errorf("%#016x: %s, %v; want %s", tc.bits, got, err, tc.want)
		}
	}
	for _, bits := range []uint64{0x7fffffffffffffff, 0x7ff0000000000000, 0xfff0000000000000} {
		if _, err := appendFloat(nil, math.Float64frombits(bits)); err == nil {
			t.Errorf("%#016x is not a JSON number", bits)
		}
	}
}

// TestIntegersBeyondDouble writes integers as the doubles every JCS reader makes of them.
func TestIntegersBeyondDouble(t *testing.T) {
	for _, v := range []int64{0, -1, 1 << 53, -(1 << 53), 1<<53 + 1, math.MaxInt64, math.MinInt64} {
		want, _ := jcs.NumberToJSON(float64(v))
		if got := appendInt(nil, v); string(got) != want {
			t.Errorf("%d: %s, want %s", v, got, want)
		}
	}
}

// TestStringRFC8785 is the string example of RFC 8785, §3.2.2.2.
func TestStringRFC8785(t *testing.T) {
	in := "\u20ac$\x0f\nA'B\"\\\\\"/"
	want := `"€$\u000f\nA'B\"\\\\\"/"`
	if got := appendString(nil, in); string(got) != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}

// TestKeyOrderRFC8785 is the sorting example of RFC 8785, §3.2.3: UTF-16 code units,
// so the emoji sorts before U+FB33 although its code point is larger.
func TestKeyOrderRFC8785(t *testing.T) {
	keys := []string{"\u20ac", "\r", "\ufb33", "1", "\U0001F600", "\u0080", "\u00f6"}
	want := []string{"\r", "1", "\u0080", "\u00f6", "\u20ac", "\U0001F600", "\ufb33"}
	slices.SortFunc(keys, compareKeys)
	if !slices.Equal(keys, want) {
		t.Fatalf("order %q, want %q", keys, want)
	}
}

// FuzzStringAgreesWithJCS checks appendString against the generic canonicalisation.
func FuzzStringAgreesWithJCS(f *testing.F) {
	f.Add("<&>\u2028\u2029 \x00\x1f\x7f è 😀 \xff")
	f.Fuzz(func(t *testing.T, s string) {
		got := appendString(nil, s)
		want, err := jcs.Transform(got)
		if err != nil || string(want) != string(got) {
			t.Fatalf("%q: ours %s, jcs %s (%v)", s, got, want, err)
		}
	})
}
