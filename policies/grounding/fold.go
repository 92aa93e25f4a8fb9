package grounding

import (
	"sort"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// A reader sees a number where the scanner, which reads ASCII digits, would
// see none or several: "２１９５６", "٢١٩٥٦", "21<ZWSP>956", "4.8·10⁴". Every
// text is therefore folded before it is scanned, one rune at a time:
//
//   - format characters and other default-ignorable code points (U+200B,
//     U+200C, U+200D, U+2060, U+FEFF, the soft hyphen, bidi controls,
//     variation selectors) are removed: they never split a number;
//   - a combining mark right after a digit is removed ("1️⃣" is 1);
//   - a decimal digit of any script (Unicode Nd) becomes its ASCII digit, so
//     "2١9٥6" is one number whatever scripts it mixes;
//   - superscript digits right after a digit become an exponent: "10⁴" is
//     "10^4" and "4.8·10⁴" is 4.8 × 10^4, not 4.8 × 104;
//   - vulgar fractions become "n⁄d" between spaces, so that their digits
//     never join what surrounds them: "2½" is "2 1⁄2", read as 2.5;
//   - enclosed numbers (①, ❶, ㉑) become "(1)", "(21)": a reader sees one
//     number each, never the digits of a longer one;
//   - the Arabic decimal and thousands separators and percent sign become
//     ".", "," and "%"; hyphens become "-"; line and paragraph separators a
//     newline; the braille blank a space;
//   - everything else is folded by NFKC: fullwidth digits, punctuation and
//     currency signs (＄ ￥ ￡), ligatures, no-break and other spaces;
//   - Markdown and HTML markup between two digits, which a rendered answer
//     does not show, is removed: "4*8*213", "48<b>213</b>" (markup.go).
//
// Folding one rune at a time never composes across runes, so each folded
// byte comes from exactly one original rune and spans map back exactly.

// folded is a text prepared for the scanner and the way back to the
// original bytes.
type folded struct {
	s    string
	segs []foldSeg // nil when s is the original text
}

// foldSeg says that bytes [n0, n1) of the folded text stand for bytes
// [o0, o1) of the original (n0 == n1 for a removed rune). Bytes between
// segments are the original bytes, unchanged.
type foldSeg struct {
	n0, n1, o0, o1 int
	attached       bool // a removed mark that belongs to the digit before it
}

// folder builds a folded text; it copies nothing until the first change.
type folder struct {
	src  string
	b    []byte // nil until the first change
	segs []foldSeg
	last byte // the last byte of the folded text so far
	sup  bool // the previous rune was a superscript digit or sign
	mark bool // the rune being folded is a mark attached to a digit
	next byte // the byte after the rune being folded, 0 at the end
}

// fold folds s as described above, and decodes its HTML character
// references (charref.go). A text without non-ASCII bytes, references or
// markup between digits, the common case, is returned as it is.
func fold(s string) folded {
	i := plainEnd(s, 0)
	if i == len(s) {
		return folded{s: s}
	}
	f := folder{src: s}
	if i > 0 {
		f.last = s[i-1]
	}
	for i < len(s) {
		if s[i] == '&' {
			if dec, n := charRef(s, i); n > 0 {
				f.foldRef(i, n, dec)
				i += n
				continue
			}
		}
		if n, rep := markupAt(s, i, f.last); n > 0 {
			f.mark = false
			f.replace(i, i+n, []byte(rep))
			f.sup = false
			i += n
			continue
		}
		if s[i] < utf8.RuneSelf {
			j := plainEnd(s, i+1)
			f.keep(i, j)
			f.sup = false
			i = j
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		f.mark, f.next = false, 0
		if i+size < len(s) {
			f.next = s[i+size]
		}
		rep, same := f.foldRune(r, s[i:i+size], nil) // allocates only for a change
		if same {
			f.keep(i, i+size)
		} else {
			f.replace(i, i+size, rep)
		}
		i += size
	}
	if f.b == nil {
		return folded{s: s}
	}
	return folded{s: string(f.b), segs: f.segs}
}

// keep copies original bytes [i, j) unchanged.
func (f *folder) keep(i, j int) {
	if f.b != nil {
		f.b = append(f.b, f.src[i:j]...)
	}
	f.last = f.src[j-1]
}

// replace writes rep for original bytes [i, j).
func (f *folder) replace(i, j int, rep []byte) {
	if f.b == nil {
		f.b = make([]byte, 0, len(f.src)+16)
		f.b = append(f.b, f.src[:i]...)
	}
	n0 := len(f.b)
	f.b = append(f.b, rep...)
	f.segs = append(f.segs, foldSeg{n0: n0, n1: len(f.b), o0: i, o1: j, attached: f.mark})
	if len(rep) > 0 {
		f.last = rep[len(rep)-1]
	}
}

// foldRune returns what the rune r (written as raw) becomes, appended to
// buf, and whether it stays as it is.
func (f *folder) foldRune(r rune, raw string, buf []byte) ([]byte, bool) {
	sup := f.sup
	f.sup = false
	switch {
	case r == utf8.RuneError || plainRune(r):
		return nil, true
	case isDigit(f.last) && (unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r)):
		f.mark = true // "1️⃣": the keycap belongs to the digit
		return buf, false
	case ignorable(r):
		f.mark = isDigit(f.last) && unicode.Is(unicode.Variation_Selector, r)
		return buf, false
	}
	if v := ndValue(r); v >= 0 {
		return append(buf, byte('0'+v)), false
	}
	if c, ok := superscript(r); ok {
		f.sup = true
		if !sup && isDigit(f.last) {
			buf = append(buf, '^')
		}
		return append(buf, c), false
	}
	if c, ok := punctuation(r); ok {
		return append(buf, c), false
	}
	if v := enclosedValue(r); v >= 0 {
		return enclose(buf, v), false
	}
	if !compatibility(raw) {
		return nil, true
	}
	frac := isVulgarFraction(r)
	if frac && f.last != 0 && f.last != ' ' && f.last != '\n' {
		buf = append(buf, ' ') // "2½" is 2 + ½, and "1,½" never joins the numerator to "1,"
	}
	buf = norm.NFKC.AppendString(buf, raw)
	if frac && f.next != 0 && f.next != ' ' && f.next != '\n' {
		buf = append(buf, ' ') // "½000" never joins the denominator to "000"
	}
	return buf, string(buf) == raw
}

// plainRune reports the non-ASCII runes of ordinary English and Italian
// text that folding leaves alone — accented letters, dashes, quotes, "€" —
// without the table lookups below.
func plainRune(r rune) bool {
	switch {
	case r >= 0xC0 && r <= 0xFF:
		return r != 0xD7 && r != 0xF7 // letters; not × ÷
	case r >= 0x2013 && r <= 0x2014, r >= 0x2018 && r <= 0x2019, r >= 0x201C && r <= 0x201D:
		return true
	}
	return r == 0x20AC || r == 0x2022
}

// ignorable reports the characters that are invisible by definition: format
// characters (Cf) and the other default-ignorable code points.
func ignorable(r rune) bool {
	return unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Variation_Selector, r) ||
		unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r)
}

// ndValue returns the value of a decimal digit of any script, or −1. Unicode
// encodes each script's digits 0–9 contiguously, so a range of the Nd table
// is a run of complete sets starting at a zero.
func ndValue(r rune) int {
	if r < utf8.RuneSelf {
		return -1
	}
	if r <= 0xFFFF {
		t := unicode.Nd.R16
		k := sort.Search(len(t), func(k int) bool { return rune(t[k].Hi) >= r })
		if k < len(t) && rune(t[k].Lo) <= r {
			return int(r-rune(t[k].Lo)) % 10
		}
		return -1
	}
	t := unicode.Nd.R32
	k := sort.Search(len(t), func(k int) bool { return rune(t[k].Hi) >= r })
	if k < len(t) && rune(t[k].Lo) <= r {
		return int(r-rune(t[k].Lo)) % 10
	}
	return -1
}

// superscript maps the superscript digits and signs to ASCII.
func superscript(r rune) (byte, bool) {
	switch {
	case r == 0x2070:
		return '0', true
	case r == 0xB9:
		return '1', true
	case r == 0xB2 || r == 0xB3:
		return byte('0' + r - 0xB0), true
	case r >= 0x2074 && r <= 0x2079:
		return byte('0' + r - 0x2070), true
	case r == 0x207A:
		return '+', true
	case r == 0x207B:
		return '-', true
	}
	return 0, false
}

// punctuation maps the marks NFKC leaves alone but a reader of numbers reads
// as ASCII ones.
func punctuation(r rune) (byte, bool) {
	switch r {
	case 0x066B: // Arabic decimal separator
		return '.', true
	case 0x066C: // Arabic thousands separator
		return ',', true
	case 0x066A: // Arabic percent sign
		return '%', true
	case 0x2010, 0x2011, 0x2012: // hyphen, non-breaking hyphen, figure dash
		return '-', true
	case 0x2215: // division slash
		return '/', true
	case 0x2028, 0x2029: // line and paragraph separator
		return '\n', true
	case 0x2800: // braille pattern blank, which renders as a space
		return ' ', true
	}
	return 0, false
}

// compatibility reports whether the rune raw has a compatibility mapping
// that NFKC folds. Runes without a decomposition ("€", "’") and those whose
// decomposition is canonical ("è", which NFKC composes back) stay as they
// are; they are most non-ASCII runes of a text and cost no allocation.
func compatibility(raw string) bool {
	k := norm.NFKD.PropertiesString(raw).Decomposition()
	return k != nil && string(k) != string(norm.NFD.PropertiesString(raw).Decomposition())
}

func isVulgarFraction(r rune) bool {
	return r >= 0xBC && r <= 0xBE || r >= 0x2150 && r <= 0x215F || r == 0x2189
}

// enclosedValue returns the value of an enclosed number (circled, in a
// black circle, on a square: ①, ❶, ➊, ⓫, ㉑, ㊱, ㉈) or −1.
func enclosedValue(r rune) int {
	switch {
	case r >= 0x2460 && r <= 0x2473: // ① … ⑳
		return int(r-0x2460) + 1
	case r == 0x24EA || r == 0x24FF: // ⓪ ⓿
		return 0
	case r >= 0x24EB && r <= 0x24F4: // ⓫ … ⓴
		return int(r-0x24EB) + 11
	case r >= 0x24F5 && r <= 0x24FE: // ⓵ … ⓾
		return int(r-0x24F5) + 1
	case r >= 0x2776 && r <= 0x2793: // ❶ … ❿, ➀ … ➉, ➊ … ➓
		return int(r-0x2776)%10 + 1
	case r >= 0x3248 && r <= 0x324F: // ㉈ … ㉏: 10 … 80
		return 10 * (int(r-0x3248) + 1)
	case r >= 0x3251 && r <= 0x325F: // ㉑ … ㉟
		return int(r-0x3251) + 21
	case r >= 0x32B1 && r <= 0x32BF: // ㊱ … ㊿
		return int(r-0x32B1) + 36
	}
	return -1
}

// enclose writes an enclosed number as "(n)": one number on its own, a list
// marker at the start of a line.
func enclose(buf []byte, v int) []byte {
	buf = append(buf, '(')
	if v >= 10 {
		buf = append(buf, byte('0'+v/10))
	}
	return append(buf, byte('0'+v%10), ')')
}

// start maps a byte position of the folded text to the original: the first
// original byte of what produced it.
func (f *folded) start(p int) int {
	k := f.segAt(p)
	switch {
	case k < 0:
		return p
	case p < f.segs[k].n1:
		return f.segs[k].o0
	}
	return p - f.segs[k].n1 + f.segs[k].o1
}

// end maps the end (exclusive) of a folded span to the original: just after
// the original bytes of its last byte and of the marks attached to it, so
// removed characters inside a number are inside its span, a keycap after it
// too, and a zero-width space after it is not.
func (f *folded) end(e int) int {
	if e == 0 {
		return 0
	}
	k := f.segAt(e - 1)
	o := e
	switch {
	case k < 0:
	case e-1 < f.segs[k].n1:
		o = f.segs[k].o1
	default:
		o = e - f.segs[k].n1 + f.segs[k].o1
	}
	for k++; k < len(f.segs) && f.segs[k].n0 == e && f.segs[k].n1 == e && f.segs[k].attached && f.segs[k].o0 == o; k++ {
		o = f.segs[k].o1
	}
	return o
}

// segAt returns the last segment that starts at or before p, or −1.
func (f *folded) segAt(p int) int {
	return sort.Search(len(f.segs), func(k int) bool { return f.segs[k].n0 > p }) - 1
}
