package grounding

// Markup inside a number. Rendered Markdown or HTML shows one number in
// "4*8*213", "4`8`213", "4~~8~~213", "48<b>213</b>.77" and "48<!-- -->213":
// delimiters of emphasis, code and strikethrough that pair up around digits,
// and HTML tags and comments, are not shown. Between two digits they are
// removed before the scanner reads, as format characters are, so that the
// fragments of one number are never read as several small ones; a <sup>
// tag between digits becomes "^" ("10<sup>4</sup>" is 10^4). A delimiter
// without a partner next to the same digits renders as itself ("3*4 = 12")
// and stays; "_" never emphasises inside a word and stays too.

// maxTag bounds an HTML tag or comment read between digits.
const maxTag = 128

// markupAt returns the length of the markup at s[i] that sits between two
// digits (last is the folded byte before it) and what it becomes: "" or "^".
// It returns 0 when s[i] starts no such markup.
func markupAt(s string, i int, last byte) (int, string) {
	if !isDigit(last) {
		return 0, ""
	}
	switch c := s[i]; c {
	case '*', '~', '`':
		n := delimRun(s, i, c)
		if n == 0 || n > 3 || !digitNext(s, i+n) || !hasPartner(s, i, n, c) {
			return 0, ""
		}
		return n, ""
	case '<':
		n, sup := 0, false
		for i+n < len(s) && s[i+n] == '<' {
			t, isSup := htmlTag(s, i+n)
			if t == 0 {
				break
			}
			n += t
			sup = sup || isSup
		}
		if n == 0 || !digitNext(s, i+n) {
			return 0, ""
		}
		if sup {
			return n, "^"
		}
		return n, ""
	}
	return 0, ""
}

// delimRun returns the length of the run of c at s[i].
func delimRun(s string, i int, c byte) int {
	n := 0
	for i+n < len(s) && s[i+n] == c {
		n++
	}
	return n
}

// digitNext reports a digit at s[j], or a decimal separator and a digit.
func digitNext(s string, j int) bool {
	if j < len(s) && (s[j] == '.' || s[j] == ',') {
		j++
	}
	return j < len(s) && isDigit(s[j])
}

// hasPartner reports a run of exactly n bytes c that closes or opens the
// run s[i:i+n] across digits and separators only: "4*8*2", "48*2*".
func hasPartner(s string, i, n int, c byte) bool {
	k := i + n
	for k < len(s) && (isDigit(s[k]) || s[k] == '.' || s[k] == ',') {
		k++
	}
	if k > i+n && delimRun(s, k, c) == n {
		return true
	}
	b := i
	for b > 0 && (isDigit(s[b-1]) || s[b-1] == '.' || s[b-1] == ',') {
		b--
	}
	if b == i {
		return false
	}
	r := 0
	for b-r > 0 && s[b-r-1] == c {
		r++
	}
	return r == n
}

// htmlTag returns the length of the HTML tag ("<b>", "</span>",
// `<span class="x">`) or comment ("<!-- -->") at s[i], 0 when there is
// none, and whether it is a <sup> tag.
func htmlTag(s string, i int) (int, bool) {
	end := min(len(s), i+maxTag)
	if len(s)-i >= 4 && s[i:i+4] == "<!--" {
		for j := i + 4; j+3 <= end; j++ {
			if s[j:j+3] == "-->" {
				return j + 3 - i, false
			}
		}
		return 0, false
	}
	j := i + 1
	if j < end && s[j] == '/' {
		j++
	}
	name := j
	for j < end && (s[j]|0x20 >= 'a' && s[j]|0x20 <= 'z' || j > name && isDigit(s[j])) {
		j++
	}
	if j == name {
		return 0, false
	}
	sup := j-name == 3 && s[i+1] != '/' && (s[name]|0x20) == 's' && (s[name+1]|0x20) == 'u' && (s[name+2]|0x20) == 'p'
	if j < end && s[j] != '>' && s[j] != ' ' && s[j] != '/' {
		return 0, false // "<b2c" is no tag
	}
	for j < end && s[j] != '>' {
		if s[j] == '<' || s[j] == '\n' {
			return 0, false
		}
		j++
	}
	if j >= end {
		return 0, false
	}
	return j + 1 - i, sup
}
