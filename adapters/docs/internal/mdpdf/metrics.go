package mdpdf

// helvetica holds the Helvetica advance widths (1/1000 em) of ASCII 32-126, from the
// standard Adobe font metrics. Helvetica-Bold is about 6% wider; layout only needs an
// estimate that never underestimates, so bold text is measured as regular × 1.08.
var helvetica = [95]int{
	278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, // space - /
	556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, // 0 - ?
	1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, // @ - O
	667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, // P - _
	333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, // ` - o
	556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584, // p - ~
}

// glyphWidth is the advance width of WinAnsi code c in f.
func glyphWidth(f font, c byte) int {
	if f == mono {
		return 600
	}
	w := 556 // accented letters and most WinAnsi extras
	switch {
	case c >= 32 && c <= 126:
		w = helvetica[c-32]
	case c == 0x95: // bullet
		w = 350
	case c == 0x97: // em dash
		w = 1000
	case c >= 0x91 && c <= 0x94: // curly quotes
		w = 333
	}
	if f == bold {
		w = w * 108 / 100
	}
	return w
}

// textWidth is the width of s in points at size.
func textWidth(f font, size float64, s string) float64 {
	total := 0
	for _, c := range winAnsi(s) {
		total += glyphWidth(f, c)
	}
	return float64(total) * size / 1000
}

// winAnsiExtras maps the characters of WinAnsi's 0x80-0x9F range; Latin-1 (0xA0-0xFF)
// maps to itself.
var winAnsiExtras = map[rune]byte{
	'€': 0x80, '‚': 0x82, 'ƒ': 0x83, '„': 0x84, '…': 0x85, '†': 0x86, '‡': 0x87, 'ˆ': 0x88,
	'‰': 0x89, 'Š': 0x8A, '‹': 0x8B, 'Œ': 0x8C, 'Ž': 0x8E, '‘': 0x91, '’': 0x92, '“': 0x93,
	'”': 0x94, '•': 0x95, '–': 0x96, '—': 0x97, '˜': 0x98, '™': 0x99, 'š': 0x9A, '›': 0x9B,
	'œ': 0x9C, 'ž': 0x9E, 'Ÿ': 0x9F,
}

// asciiFallback spells characters WinAnsi lacks.
var asciiFallback = map[rune]string{
	'≥': ">=", '≤': "<=", '→': "->", '←': "<-", '≠': "!=", '−': "-", '\u00a0': " ",
}

// winAnsi encodes s; characters outside WinAnsi become their ASCII spelling or '?'.
func winAnsi(s string) []byte {
	out := make([]byte, 0, len(s))
	for _, r := range s {
		switch {
		case r >= 32 && r < 127:
			out = append(out, byte(r))
		case r >= 0xA1 && r <= 0xFF:
			out = append(out, byte(r))
		case winAnsiExtras[r] != 0:
			out = append(out, winAnsiExtras[r])
		case asciiFallback[r] != "":
			out = append(out, asciiFallback[r]...)
		default:
			out = append(out, '?')
		}
	}
	return out
}
