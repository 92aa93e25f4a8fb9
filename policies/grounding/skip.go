package grounding

import "strings"

// span is a byte range [start, end) of text that holds no quantities.
type span struct{ start, end int }

// findMasks returns, in order, the table row numbers, URLs and e-mail
// addresses of s: digits inside them are identifiers, not quantities. Code
// spans are not masked: a reader sees their numbers as any other.
func findMasks(s string) []span {
	rows := tableRowNumbers(s)
	if !strings.ContainsAny(s, "/@w") {
		return rows
	}
	m := links(s)
	if len(rows) == 0 {
		return m
	}
	return mergeSpans(m, rows)
}

// links returns the URLs and e-mail addresses of s.
func links(s string) []span {
	var m []span
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case 'h', 'w':
			if hasURLPrefix(s[i:]) && (i == 0 || !isWordByte(s[i-1])) {
				end := urlEnd(s, i)
				m = urlMasks(m, s, i, end)
				i = end - 1
			}
		case '@':
			a, b := i, i+1
			for a > 0 && isEmailByte(s[a-1]) {
				a--
			}
			for b < len(s) && isEmailByte(s[b]) {
				b++
			}
			if a < i && b > i+1 {
				if len(m) > 0 && m[len(m)-1].end > a {
					a = m[len(m)-1].end
				}
				m = append(m, span{a, b})
				i = b - 1
			}
		}
	}
	return m
}

func hasURLPrefix(s string) bool {
	return strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://") || strings.HasPrefix(s, "www.")
}

// urlMasks masks the URL s[i:end] but the values of its query that are
// amounts: a reader who hovers over or follows
// "https://example.invalid/r?total=48213.77" is shown 48213.77, while the
// scheme, host and path are an address, and an integer value (?page=2,
// ?id=123) is an identifier as after any label. An amount is a value that is
// one numeral with a decimal fraction or digit groups, signed or not.
func urlMasks(m []span, s string, i, end int) []span {
	q := strings.IndexByte(s[i:end], '?')
	if q < 0 {
		return append(m, span{i, end})
	}
	from := i
	for k := i + q + 1; k < end && s[k] != '#'; {
		e := k
		for e < end && s[e] != '&' && s[e] != ';' && s[e] != '#' {
			e++
		}
		if eq := strings.IndexByte(s[k:e], '='); eq >= 0 && queryAmount(s[k+eq+1:e]) {
			m = append(m, span{from, k + eq + 1})
			from = e
		}
		if k = e; k < end && s[k] != '#' {
			k++
		}
	}
	if from < end {
		m = append(m, span{from, end})
	}
	return m
}

// queryAmount reports a query value written as an amount: "48213.77",
// "-12,5", "1.234,56"; not "2", "2024-01-15" or "1.2.3".
func queryAmount(v string) bool {
	j := 0
	if j < len(v) && (v[j] == '-' || v[j] == '+') {
		j++
	}
	if j >= len(v) || !isDigit(v[j]) {
		return false
	}
	nm := scanNumeral(v, j)
	if nm.end != len(v) || nm.n < 2 {
		return false
	}
	for k := 1; k < nm.n; k++ {
		if nm.seps[k] != sepDot && nm.seps[k] != sepComma {
			return false
		}
	}
	var st style
	_, n, _ := nm.interpret(v, &st)
	return n > 0
}

func urlEnd(s string, i int) int {
	for i < len(s) {
		switch s[i] {
		case ' ', '\t', '\n', '\r', '<', '>', '"', '`', ')', ']':
			return i
		}
		i++
	}
	return i
}

func isEmailByte(c byte) bool {
	return isWordByte(c) || c == '.' || c == '-' || c == '+' || c == '%'
}

// dateOrTime returns the end of a date or time that starts at i:
// 2024-01-15, 15/01/2024, 15.01.2024, 2024-01, 01/2024, 12:30, 12:30:45.
func dateOrTime(s string, i int) (int, bool) {
	var g [3][2]int
	n, sep := 0, byte(0)
	j := i
	for n < 3 {
		k := digitsEnd(s, j)
		g[n] = [2]int{j, k}
		n++
		if k+1 >= len(s) || !isDigit(s[k+1]) {
			j = k
			break
		}
		c := s[k]
		if c != '-' && c != '/' && c != '.' && c != ':' || (sep != 0 && c != sep) {
			j = k
			break
		}
		sep, j = c, k+1
	}
	if j < len(s) && isDigit(s[j]) {
		return 0, false
	}
	l := func(k int) int { return g[k][1] - g[k][0] }
	v := func(k int) int { return atoi(s[g[k][0]:g[k][1]]) }
	end := g[n-1][1]
	// A fourth group ("192.168.1.1") is no date.
	if end+1 < len(s) && s[end] == sep && isDigit(s[end+1]) {
		return 0, false
	}
	switch {
	case sep == ':' && l(0) <= 2 && l(1) == 2 && (n == 2 || l(2) == 2):
		return end, true
	case n == 3 && (sep == '-' || sep == '/'):
		if l(0) <= 2 && l(1) <= 2 && (l(2) == 2 || l(2) == 4) || l(0) == 4 && l(1) <= 2 && l(2) <= 2 {
			return end, true
		}
	case n == 3 && sep == '.':
		if l(0) <= 2 && l(1) <= 2 && (l(2) == 2 || l(2) == 4) && v(0) >= 1 && v(0) <= 31 && v(1) >= 1 && v(1) <= 12 ||
			l(0) == 4 && l(1) == 2 && l(2) == 2 {
			return end, true
		}
	case n == 2 && sep == '-' && l(0) == 4 && l(1) == 2:
		if y, m := v(0), v(1); y >= 1900 && y <= 2100 && m >= 1 && m <= 12 {
			return end, true
		}
	case n == 2 && sep == '/' && l(0) <= 2 && l(1) == 4:
		if m := v(0); m >= 1 && m <= 12 {
			return end, true
		}
	}
	return 0, false
}

func atoi(s string) int {
	n := 0
	for i := 0; i < len(s) && i < 9; i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}
