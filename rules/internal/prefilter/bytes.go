package prefilter

import (
	"math/bits"
	"regexp/syntax"
	"slices"
	"unicode"
	"unicode/utf8"
)

// Byte needs complete the literal requirements with what they leave out: single bytes.
// Literals shorter than minLiteral are not tracked, because letters are in every question,
// but a pattern such as `(?:to|by|del) \d+ ?%` or `\b\d{1,2}/\d{4}\b` needs a digit, a '%'
// or a '/', which most questions do not have. byteNeeds derives from a pattern the sets of
// bytes every match contains one of (a match of `\d+ ?%` contains a digit and a '%'); the
// prefilter drops a pattern, or a branch of a branch plan, whose sets the text misses, before
// any regex runs. The sets hold on any text, folded or not: a literal contributes every
// rune of its case orbit, a rune its UTF-8 lead byte, and a class that takes U+FFFD every
// byte Go's regexp could read as an invalid rune.

// byteSet is a set of bytes.
type byteSet [4]uint64

func (b *byteSet) add(c byte)      { b[c>>6] |= 1 << (c & 63) }
func (b *byteSet) has(c byte) bool { return b[c>>6]&(1<<(c&63)) != 0 }
func (b *byteSet) meets(o *byteSet) bool {
	return b[0]&o[0]|b[1]&o[1]|b[2]&o[2]|b[3]&o[3] != 0
}
func (b *byteSet) size() int {
	return bits.OnesCount64(b[0]) + bits.OnesCount64(b[1]) + bits.OnesCount64(b[2]) + bits.OnesCount64(b[3])
}

// textBytes returns the set of the bytes of text but lower-case ASCII letters and the space,
// which no need holds (see byteNeeds) and which make up most of a question: skipping them
// costs a predictable branch instead of a read-modify-write of the set per byte.
func textBytes(text string) byteSet {
	var b byteSet
	for i := 0; i < len(text); i++ {
		if c := text[i]; c-'a' >= 26 && c != ' ' {
			b.add(c)
		}
	}
	return b
}

// needsHold reports whether the text, with bytes have, contains a byte of every set.
func needsHold(needs []byteSet, have *byteSet) bool {
	for i := range needs {
		if !needs[i].meets(have) {
			return false
		}
	}
	return true
}

// The UTF-16 surrogate halves, which are not runes.
const surrogateMin, surrogateMax = 0xD800, 0xDFFF

// maxByteNeeds bounds the sets kept per pattern.
const maxByteNeeds = 4

// byteNeeds returns the sets of bytes every match of re contains one of, keeping only the
// sets worth a test: those with no letter and no space, which nearly every question has.
func byteNeeds(re *syntax.Regexp) []byteSet {
	var out []byteSet
	for _, b := range deriveBytes(re) {
		if b.meets(&commonBytes) || slices.Contains(out, b) {
			continue
		}
		out = append(out, b)
		if len(out) == maxByteNeeds {
			break
		}
	}
	return out
}

// commonBytes are the bytes nearly every question holds: ASCII letters and the space.
var commonBytes = func() (b byteSet) {
	for c := byte('a'); c <= 'z'; c++ {
		b.add(c)
		b.add(c - 'a' + 'A')
	}
	b.add(' ')
	return b
}()

// deriveBytes returns byte sets every match of re contains a byte of (none: no need).
func deriveBytes(re *syntax.Regexp) []byteSet {
	switch re.Op {
	case syntax.OpLiteral:
		var out []byteSet
		for _, r := range re.Rune {
			out = append(out, runeBytes(r, re.Flags&syntax.FoldCase != 0))
		}
		return out
	case syntax.OpCharClass:
		if b, ok := classBytes(re.Rune); ok {
			return []byteSet{b}
		}
	case syntax.OpCapture, syntax.OpPlus:
		return deriveBytes(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return deriveBytes(re.Sub[0])
		}
	case syntax.OpConcat:
		var out []byteSet
		for _, s := range re.Sub {
			out = append(out, deriveBytes(s)...)
		}
		return out
	case syntax.OpAlternate:
		// A match of an alternation is a match of one alternative: it holds a byte of that
		// alternative's smallest set, so of the union of those.
		var u byteSet
		for _, s := range re.Sub {
			sets := deriveBytes(s)
			if len(sets) == 0 {
				return nil
			}
			best := slices.MinFunc(sets, func(a, b byteSet) int {
				// The smallest set without common bytes, which may make the union worth a test.
				if ac, bc := a.meets(&commonBytes), b.meets(&commonBytes); ac != bc {
					if ac {
						return 1
					}
					return -1
				}
				return a.size() - b.size()
			})
			for k := range u {
				u[k] |= best[k]
			}
		}
		return []byteSet{u}
	}
	// Stars, quests, any-char, assertions, empty: no need.
	return nil
}

// runeBytes returns the set of the bytes that start r (and, with fold, the runes of its
// case orbit) in UTF-8, or as an invalid byte Go's regexp reads as U+FFFD.
func runeBytes(r rune, fold bool) byteSet {
	var b byteSet
	addRune(&b, r)
	if fold {
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			addRune(&b, f)
		}
	}
	return b
}

func addRune(b *byteSet, r rune) {
	if r == utf8.RuneError {
		for c := 0x80; c <= 0xff; c++ {
			b.add(byte(c))
		}
	}
	var buf [utf8.UTFMax]byte
	utf8.EncodeRune(buf[:], r)
	b.add(buf[0])
}

// classBytes returns the lead bytes of a class's runes (pairs of range bounds); lead bytes
// grow with the rune, so a range's lie between those of its bounds.
func classBytes(ranges []rune) (byteSet, bool) {
	var b byteSet
	for i := 0; i+1 < len(ranges); i += 2 {
		lo, hi := ranges[i], min(ranges[i+1], unicode.MaxRune)
		if lo <= utf8.RuneError && utf8.RuneError <= hi {
			addRune(&b, utf8.RuneError)
		}
		// Surrogates never occur decoded (EncodeRune would spell them as U+FFFD).
		if lo >= surrogateMin && lo <= surrogateMax {
			lo = surrogateMax + 1
		}
		if hi >= surrogateMin && hi <= surrogateMax {
			hi = surrogateMin - 1
		}
		if lo > hi {
			continue
		}
		var lb, hb [utf8.UTFMax]byte
		utf8.EncodeRune(lb[:], lo)
		utf8.EncodeRune(hb[:], hi)
		for c := int(lb[0]); c <= int(hb[0]); c++ {
			b.add(byte(c))
		}
	}
	return b, b != byteSet{}
}
