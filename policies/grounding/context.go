package grounding

import "strings"

// phoneEnd returns the end of a phone number that starts at i: groups of
// digits split by single spaces, hyphens, dots or parentheses ("+39 02 1234
// 5678", "555-123-4567", "(02) 1234-5678") that do not form one number.
// A phone splits its groups by dots or by spaces and hyphens, not both
// (the space after a country code aside): a dot with a space or hyphen is a
// decimal joined to another number ("21956.62-48213.77", "2024-48213.77",
// "21956.62 48213.77"), unless a word such as "tel." says it is a phone.
func phoneEnd(s string, i int) (int, bool) {
	plus := i > 0 && s[i-1] == '+' || i > 1 && s[i-1] == ' ' && s[i-2] == '+'
	paren := i > 0 && s[i-1] == '('
	groups, digits, j := 0, 0, i
	var lens [16]int
	mixed, dots, breaks := false, false, false
	var first byte
	for groups < len(lens) {
		k := digitsEnd(s, j)
		lens[groups] = k - j
		digits += k - j
		groups++
		w := 0
		switch {
		case k+1 < len(s) && (s[k] == ' ' || s[k] == '-' || s[k] == '.') && isDigit(s[k+1]):
			w = 1
		case k+2 < len(s) && s[k] == ')' && s[k+1] == ' ' && isDigit(s[k+2]):
			w, paren = 2, true
		case k+1 < len(s) && s[k] == ')' && isDigit(s[k+1]):
			w, paren = 1, true
		}
		if w == 0 {
			j = k
			break
		}
		if first == 0 {
			first = s[k]
		} else if s[k] != first {
			mixed = true
		}
		switch {
		case s[k] == '.':
			dots = true
		case s[k] != ')' && (groups > 1 || !plus):
			breaks = true
		}
		j = k + w
	}
	if dots && breaks && !phoneWordBefore(s, i) {
		return 0, false
	}
	if digits < 8 || groups < 2 {
		if digits >= 6 && phoneWordBefore(s, i) {
			return j, true
		}
		return 0, false
	}
	thousands := !mixed && (first == ' ' || first == '.') && lens[0] <= 3
	for k := 1; k < groups && thousands; k++ {
		thousands = lens[k] == 3
	}
	switch {
	case plus && first != '.' && lens[0] <= 3 && digits >= 9:
		return j, true
	case thousands:
		return j, phoneWordBefore(s, i)
	case groups >= 3 || paren || plus || phoneWordBefore(s, i):
		return j, true
	}
	return 0, false
}

// phoneWordBefore reports a word such as "tel." just before i.
func phoneWordBefore(s string, i int) bool {
	a := i - 16
	if a < 0 {
		a = 0
	}
	b := strings.ToLower(s[a:i])
	for _, w := range [...]string{"tel", "tel.", "tel:", "telefono", "phone", "cell", "cellulare", "fax", "mobile", "whatsapp"} {
		if k := strings.LastIndex(b, w); k >= 0 && strings.Trim(b[k+len(w):], " :.+()") == "" {
			return true
		}
	}
	return false
}

// lineLead reports whether only markup (spaces, '>', '#', '*', '_', '(')
// stands between the start of the line and i, and whether that markup
// makes the line a heading.
func lineLead(s string, i int) (atStart, heading bool) {
	for k := i - 1; k >= 0; k-- {
		switch s[k] {
		case '\n', '\r':
			return true, heading
		case '#':
			heading = true
		case ' ', '\t', '>', '*', '_', '(':
		default:
			return false, false
		}
	}
	return true, heading
}

// listMarker reports a list marker or section number at the start of a line:
// "1." "2)" "3 -" and, in a heading, "2.1" or "2.1.".
func listMarker(s string, nm *numeral, start int) bool {
	atStart, heading := lineLead(s, start)
	if !atStart {
		return false
	}
	end := nm.end
	if heading {
		dots := true
		for k := 1; k < nm.n; k++ {
			dots = dots && nm.seps[k] == '.' && nm.glen(k) <= 3
		}
		if dots && nm.glen(0) <= 3 {
			if end < len(s) && s[end] == '.' {
				end++
			}
			return end == len(s) || s[end] == ' ' || s[end] == '\t' || s[end] == '\n'
		}
	}
	if nm.n != 1 || nm.glen(0) > 3 || end >= len(s) {
		return false
	}
	switch s[end] {
	case '.', ')':
		return end+1 == len(s) || strings.IndexByte(" \t\r\n*_", s[end+1]) >= 0
	case ' ':
		rest := s[end+1:]
		return strings.HasPrefix(rest, "- ") || strings.HasPrefix(rest, "– ") || strings.HasPrefix(rest, "— ")
	}
	return false
}

var months = map[string]bool{}

func init() {
	for _, m := range strings.Fields(`gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre dicembre
		gen feb mar apr mag giu lug ago set ott nov dic
		january february march april may june july august september october november december
		jan jun jul aug sep sept oct dec`) {
		months[m] = true
	}
}

// monthDay reports a day of the month written next to a month name:
// "15 gennaio", "January 15", "Jan. 3".
func monthDay(s string, start, end int, v float64) bool {
	if v < 1 || v > 31 {
		return false
	}
	if k := end + spaceAt(s, end); k > end {
		if w, ok := wordAt(s, k); ok && months[strings.ToLower(w)] {
			return true
		}
	}
	k := start
	if k > 0 && s[k-1] == ' ' {
		k--
	} else {
		return false
	}
	if k > 0 && s[k-1] == '.' {
		k--
	}
	a := k
	for a > 0 && (s[a-1] >= 'a' && s[a-1] <= 'z' || s[a-1] >= 'A' && s[a-1] <= 'Z') {
		a--
	}
	return a < k && months[strings.ToLower(s[a:k])]
}
