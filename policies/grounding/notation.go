package grounding

import (
	"math"
	"strconv"
	"strings"
)

// Notations that continue a numeral: scientific notation ("4.8e4",
// "4,8E+4", "4.8×10^4", "4.8·10⁴", "4.8 x 10^4", "4.8*10**4"), a power of an
// integer ("10^4", "10⁴", "2^10") and fractions ("1⁄2", "½", "2½", "2 ½").
// Superscripts and vulgar fractions reach the scanner already folded (see
// fold.go): "10⁴" as "10^4", "2½" as "2 1⁄2".

const fractionSlash = "\u2044"

// maxExponent caps the exponent kept while reading its digits: beyond it
// every mantissa but 0 is out of the range of float64, and the number is
// read as out of range (token.out) rather than not read at all.
const maxExponent = 9999

// readExponent reads a scientific exponent after the numeral that ends at j
// and returns the power of ten, the end of what it read, and whether there
// was one.
func readExponent(s string, j int) (int, int, bool) {
	if j < len(s) && (s[j] == 'e' || s[j] == 'E') {
		return expDigits(s, j+1)
	}
	k := j + spaceAt(s, j)
	w := timesAt(s, k)
	if w == 0 {
		return 0, j, false
	}
	k += w
	k += spaceAt(s, k)
	if !strings.HasPrefix(s[k:], "10") {
		return 0, j, false
	}
	if k += 2; k < len(s) && s[k] == '^' {
		k++
	} else if strings.HasPrefix(s[k:], "**") {
		k += 2
	} else {
		return 0, j, false
	}
	return expDigits(s, k)
}

// timesAt returns the width of a multiplication sign at k: "×", "·", "⋅",
// "∙", "*", or an "x" or "X" that stands alone.
func timesAt(s string, k int) int {
	if k >= len(s) {
		return 0
	}
	switch s[k] {
	case '*':
		return 1
	case 'x', 'X':
		if k+1 < len(s) && (s[k+1] == ' ' || s[k+1] == '1') {
			return 1
		}
		return 0
	}
	for _, m := range [...]string{"×", "·", "⋅", "∙"} {
		if strings.HasPrefix(s[k:], m) {
			return len(m)
		}
	}
	return 0
}

// expDigits reads a signed exponent at k that ends at a word boundary. Its
// length is not limited: "21956.62e48213" is a number far out of range, not
// a grounded 21956.62 followed by an identifier.
func expDigits(s string, k int) (int, int, bool) {
	neg := false
	if k < len(s) && (s[k] == '+' || s[k] == '-') {
		neg = s[k] == '-'
		k++
	} else if strings.HasPrefix(s[k:], "−") {
		neg = true
		k += len("−")
	}
	a := k
	e := 0
	for k < len(s) && isDigit(s[k]) {
		e = min(10*e+int(s[k]-'0'), maxExponent)
		k++
	}
	if k == a || k < len(s) && isWordByte(s[k]) {
		return 0, 0, false
	}
	if neg {
		e = -e
	}
	return e, k, true
}

// readPower reads "^n" (or "**n") right after an integer numeral: "10^4",
// "2^10", and "10⁴" once folded. It returns the reading of the power.
func readPower(s string, nm *numeral, base reading) (reading, int, bool) {
	j := nm.end
	switch {
	case nm.n != 1:
		return reading{}, 0, false
	case j < len(s) && s[j] == '^':
		j++
	case strings.HasPrefix(s[j:], "**"):
		j += 2
	default:
		return reading{}, 0, false
	}
	e, k, ok := expDigits(s, j)
	if !ok {
		return reading{}, 0, false
	}
	v := math.Pow(base.mant, float64(e))
	if base.mant != 0 && (v == 0 || math.IsInf(v, 0)) {
		return reading{mant: v, out: true}, k, true // "10^999", "10^-999"
	}
	return exactReading(v), k, true
}

// readFraction reads a fraction that starts with the integer numeral nm:
// "1⁄2", or a whole number followed by one, "2 1⁄2". A fraction reads like
// its decimal expansion (see fractionReading).
func readFraction(s string, nm *numeral, whole reading) (reading, int, bool) {
	if nm.n != 1 {
		return reading{}, 0, false
	}
	if num, den, k, ok := fractionAt(s, nm.end, whole.mant); ok {
		return fractionReading(num / den), k, true
	}
	j := nm.end + spaceAt(s, nm.end)
	if j == nm.end || j >= len(s) || !isDigit(s[j]) {
		return reading{}, 0, false
	}
	e := digitsEnd(s, j)
	num, _ := strconv.ParseFloat(s[j:e], 64)
	if n2, den, k, ok := fractionAt(s, e, num); ok && n2 < den {
		return fractionReading(whole.mant + n2/den), k, true
	}
	return reading{}, 0, false
}

// fractionAt reads "⁄d" at j, the denominator of the numerator num.
func fractionAt(s string, j int, num float64) (float64, float64, int, bool) {
	if !strings.HasPrefix(s[j:], fractionSlash) {
		return 0, 0, 0, false
	}
	j += len(fractionSlash)
	e := digitsEnd(s, j)
	if e == j || e-j > 6 {
		return 0, 0, 0, false
	}
	den, _ := strconv.ParseFloat(s[j:e], 64)
	if den == 0 {
		return 0, 0, 0, false
	}
	return num, den, e, true
}

// fractionReading is the reading of a fraction: its exact value, read at
// the precision of its decimal expansion — one to three decimals when it
// ends there (½ = 0.5, ¼ = 0.25, ⅛ = 0.125), two otherwise (⅓ ≈ 0.33).
func fractionReading(v float64) reading {
	dec := 2
	for d := 1; d <= 3; d++ {
		x := v * pow10(d)
		if math.Abs(x-math.Round(x)) < 1e-9 {
			dec = d
			break
		}
	}
	r := exactReading(math.Round(v*pow10(dec)) / pow10(dec))
	r.mant, r.dec, r.tz = v, dec, 0
	return r
}

// exactReading is the reading of a value written out in full: the digits
// of its shortest decimal representation.
func exactReading(v float64) reading {
	str := strconv.FormatFloat(math.Abs(v), 'f', -1, 64)
	r := reading{mant: math.Abs(v)}
	intPart, frac, _ := strings.Cut(str, ".")
	r.dec = len(frac)
	digits := strings.TrimLeft(intPart+frac, "0")
	if r.dec == 0 {
		t := strings.TrimRight(digits, "0")
		r.tz = int32(len(digits) - len(t))
		digits = t
	}
	r.sig = len(digits)
	return r
}

// scaled multiplies a mantissa by its scale; a scale below one (cents,
// negative exponents) divides instead, so that "35 centesimi" is exactly
// 0.35 and not 0.35000000000000003.
func scaled(m, scale float64) float64 {
	if scale < 1 {
		return m / math.Round(1/scale)
	}
	return m * scale
}
