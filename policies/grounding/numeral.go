package grounding

import (
	"math"
	"strconv"
)

// A reading is one interpretation of a written numeral, before sign and scale.
type reading struct {
	mant float64 // value of the numeral
	dec  int     // digits after the decimal separator
	sig  int     // significant digits; trailing zeros of an integer do not count
	tz   int32   // trailing zeros of an integer reading
	out  bool    // the value is out of the range of float64 ("10^999")
}

// Separator classes inside a numeral.
const (
	sepDot   = '.'
	sepComma = ','
	sepSpace = ' ' // space, NBSP, narrow NBSP, thin space
	sepApos  = '\''
)

const maxGroups = 12

// numeral is a run of digit groups such as "21.956,62" or "1 913".
type numeral struct {
	groups [maxGroups][2]int // byte spans of the digit groups
	seps   [maxGroups]byte   // seps[k] precedes groups[k]; seps[0] unused
	n      int
	end    int
}

// Evidence for the document's number style, counted over unambiguous numerals.
type style struct{ it, en int }

// scanNumeral reads the digit groups that start at i. A separator joins two
// groups only when a digit follows it; a space or apostrophe only when exactly
// three digits follow, as a thousands separator must.
func scanNumeral(s string, i int) numeral {
	var nm numeral
	j := digitsEnd(s, i)
	nm.groups[0] = [2]int{i, j}
	nm.n = 1
	for nm.n < maxGroups && j < len(s) {
		sep, w := separatorAt(s, j)
		if w == 0 || j+w >= len(s) || !isDigit(s[j+w]) {
			break
		}
		k := digitsEnd(s, j+w)
		if (sep == sepSpace || sep == sepApos) && (k-(j+w) != 3 || nm.groups[0][1]-nm.groups[0][0] > 3) {
			break
		}
		nm.seps[nm.n] = sep
		nm.groups[nm.n] = [2]int{j + w, k}
		nm.n++
		j = k
	}
	nm.end = j
	return nm
}

func digitsEnd(s string, i int) int {
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i
}

// separatorAt reports the numeral separator at s[j] and its width in bytes.
func separatorAt(s string, j int) (byte, int) {
	switch c := s[j]; c {
	case '.', ',', '\'':
		return c, 1
	case ' ':
		return sepSpace, 1
	case 0xC2: // U+00A0 no-break space
		if j+1 < len(s) && s[j+1] == 0xA0 {
			return sepSpace, 2
		}
	case 0xE2:
		if j+2 < len(s) && s[j+1] == 0x80 {
			switch s[j+2] {
			case 0xAF, 0x89: // U+202F narrow no-break space, U+2009 thin space
				return sepSpace, 3
			case 0x99: // U+2019 right single quotation mark, the typographic apostrophe
				return sepApos, 3
			}
		}
	}
	return 0, 0
}

func (nm *numeral) glen(k int) int { return nm.groups[k][1] - nm.groups[k][0] }

// interpret turns the groups into readings. It returns no reading when the
// groups do not form one number ("1.2.3", "1,23,4"). When the numeral is
// ambiguous ("1.234", "1,234"), both readings are returned, the thousands
// reading first, and amb is true.
func (nm *numeral) interpret(s string, st *style) (r [2]reading, n int, amb bool) {
	if nm.n == 1 {
		return [2]reading{nm.read(s, -1)}, 1, false
	}
	last := nm.seps[nm.n-1]
	var thou byte
	for k := 1; k < nm.n-1; k++ {
		if thou == 0 {
			thou = nm.seps[k]
		} else if nm.seps[k] != thou {
			return r, 0, false
		}
	}
	if nm.glen(0) > 3 && (thou != 0 || last == sepSpace || last == sepApos) {
		return r, 0, false
	}
	for k := 1; k < nm.n-1; k++ {
		if nm.glen(k) != 3 {
			return r, 0, false
		}
	}
	switch {
	case thou != 0 && last != thou:
		// "21.956,62", "21,956.62", "1 234,5": the last separator is the decimal one.
		if last == sepSpace || last == sepApos || thou == last {
			return r, 0, false
		}
		st.vote(last)
		return [2]reading{nm.read(s, nm.n-1)}, 1, false
	case last == sepSpace || last == sepApos:
		return [2]reading{nm.read(s, -1)}, 1, false
	case thou != 0:
		// "1.234.567" or "1,234,567": thousands only.
		if nm.glen(nm.n-1) != 3 {
			return r, 0, false
		}
		st.vote(otherSep(last))
		return [2]reading{nm.read(s, -1)}, 1, false
	}
	// One '.' or ',' between two groups.
	if nm.glen(1) != 3 || nm.glen(0) > 3 || s[nm.groups[0][0]] == '0' {
		st.vote(last)
		return [2]reading{nm.read(s, 1)}, 1, false
	}
	return [2]reading{nm.read(s, -1), nm.read(s, 1)}, 2, true
}

func otherSep(c byte) byte {
	if c == sepDot {
		return sepComma
	}
	return sepDot
}

// vote records which style an unambiguous decimal separator shows.
func (st *style) vote(dec byte) {
	if dec == sepComma {
		st.it++
	} else if dec == sepDot {
		st.en++
	}
}

// read builds the reading in which groups from decAt on are the fraction
// (decAt < 0: an integer).
func (nm *numeral) read(s string, decAt int) reading {
	var m uint64
	var r reading
	digits, lead, intEnd := 0, true, nm.n
	if decAt >= 0 {
		intEnd = decAt
	}
	overflow := false
	tz := 0
	for k := 0; k < nm.n; k++ {
		for p := nm.groups[k][0]; p < nm.groups[k][1]; p++ {
			d := s[p] - '0'
			if lead && d == 0 && k < intEnd {
				continue
			}
			lead = false
			digits++
			if k >= intEnd {
				r.dec++
			}
			if d == 0 {
				tz++
			} else {
				tz = 0
			}
			if m > (math.MaxUint64-9)/10 {
				overflow = true
			}
			m = m*10 + uint64(d)
		}
	}
	r.sig = digits
	if r.dec == 0 {
		r.tz = int32(tz)
		r.sig -= tz
	} else {
		// Leading zeros of a fraction ("0.05") are not significant.
		r.sig = sigOfFraction(s, nm)
	}
	if overflow || digits > 18 {
		r.mant = parseSlow(s, nm, intEnd)
	} else {
		r.mant = float64(m) / pow10(r.dec)
	}
	return r
}

// sigOfFraction counts significant digits when the integer part may be zero.
func sigOfFraction(s string, nm *numeral) int {
	n := 0
	started := false
	for k := 0; k < nm.n; k++ {
		for p := nm.groups[k][0]; p < nm.groups[k][1]; p++ {
			if !started && s[p] == '0' {
				continue
			}
			started = true
			n++
		}
	}
	return n
}

func parseSlow(s string, nm *numeral, intEnd int) float64 {
	b := make([]byte, 0, 32)
	for k := 0; k < nm.n; k++ {
		if k == intEnd {
			b = append(b, '.')
		}
		b = append(b, s[nm.groups[k][0]:nm.groups[k][1]]...)
	}
	v, _ := strconv.ParseFloat(string(b), 64)
	return v
}

var pow10tab = [...]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

func pow10(n int) float64 {
	if n >= 0 && n < len(pow10tab) {
		return pow10tab[n]
	}
	return math.Pow(10, float64(n))
}

// tolerance is half a unit in the last written place: the largest distance
// at which a source value still rounds to what was written. An integer with
// trailing zeros ("22.000") is read at the precision of its leading digits
// when at least two of them are significant, so "22.000 €" may stand for
// 21956.62 while "100" or "1.000" stay exact.
func (r reading) tolerance() float64 {
	switch {
	case r.dec > 0:
		return 0.5 / pow10(r.dec)
	case r.tz > 0 && r.sig >= 2:
		return 0.5 * pow10(int(r.tz))
	}
	return 0.5
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
