package prefilter

// byteAt returns s[i], or 0 outside s, so boundary checks need no length tests.
func byteAt(s string, i int) byte {
	if i < 0 || i >= len(s) {
		return 0
	}
	return s[i]
}

// isREWord reports whether c is a word byte for RE2's \b: ASCII letters, digits and '_' only.
func isREWord(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}

// resize returns b with length n, all false, reusing its array when it is large enough.
func resize(b []bool, n int) []bool {
	if cap(b) < n {
		return make([]bool, n)
	}
	b = b[:n]
	clear(b)
	return b
}
