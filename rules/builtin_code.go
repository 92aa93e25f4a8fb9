package rules

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// quoteClosers returns the quotes that may close the opening quote r, or "" when r opens nothing.
func quoteClosers(r rune) string {
	switch r {
	case '"':
		return `"`
	case '`':
		return "`"
	case '“':
		return "”“"
	case '«':
		return "»"
	case '‘':
		return "’"
	case '„':
		return "“”"
	}
	return ""
}

// scanQuoted finds non-empty text between matching quotes. Single quotes and ’ double as
// apostrophes (what's, l'anno), so they open only at a word start and close only before a
// non-letter.
func scanQuoted(text string, _ timeFunc, hs []hit) []hit {
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf && c != '"' && c != '`' && c != '\'' {
			i++ // the common case: a byte that opens nothing
			continue
		}
		r, size := rune(c), 1
		if c >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(text[i:])
		}
		closers := quoteClosers(r)
		ok := closers != ""
		apos := r == '\''
		if apos {
			prev, _ := utf8.DecodeLastRuneInString(text[:i])
			ok, closers = !isWordRune(prev), "'"
		}
		if !ok {
			i += size
			continue
		}
		start := i + size
		end := findCloser(text, start, closers, apos || r == '‘')
		if end <= start {
			i += size
			continue
		}
		hs = append(hs, hit{text[start:end], start, end})
		_, csize := utf8.DecodeRuneInString(text[end:])
		i = end + csize
	}
	return hs
}

// findCloser returns the index of the first closing quote after start, or -1. With strict set
// a closer followed by a letter is an apostrophe and does not count.
func findCloser(text string, start int, closers string, strict bool) int {
	for j := start; j < len(text); {
		r, size := utf8.DecodeRuneInString(text[j:])
		if strings.ContainsRune(closers, r) {
			next, _ := utf8.DecodeRuneInString(text[j+size:])
			if !strict || !unicode.IsLetter(next) {
				return j
			}
		}
		if r == '\n' && strict {
			return -1
		}
		j += size
	}
	return -1
}

// isWordRune reports whether r is a letter or digit (utf8.RuneError, i.e. start of text, is not).
func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// identStart and identByte say which bytes may start and continue an identifier
// ([A-Za-z_$] and [A-Za-z0-9_$]); decorator names use the same sets without '$'.
func identStart(c byte) bool { return isLetter(c) || c == '_' || c == '$' }
func identByte(c byte) bool  { return isAlnum(c) || c == '_' || c == '$' }

// dottedEnd returns the end of the dotted name whose first part starts at i, as the
// expression `[A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*)*` would match it
// (with dollar false, '$' is not part of names).
func dottedEnd(text string, i int, dollar bool) int {
	for {
		i++
		for i < len(text) && identByte(text[i]) && (dollar || text[i] != '$') {
			i++
		}
		if c := byteAt(text, i+1); byteAt(text, i) != '.' || !identStart(c) || !dollar && c == '$' {
			return i
		}
		i++
	}
}

// mayHaveIdentifier is scanIdentifiers' precheck: every identifier it reports has an '_', a
// '.', a following '(' or an upper-case letter after a lower-case one in the same word.
func mayHaveIdentifier(text string) bool {
	sawLower := false
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c == '_' || c == '.' || c == '(':
			return true
		case 'a' <= c && c <= 'z':
			sawLower = true
		case 'A' <= c && c <= 'Z':
			if sawLower {
				return true
			}
		case isDigit(c) || c == '$':
		default:
			sawLower = false
		}
	}
	return false
}

// fileExts are extensions that make a dotted name a file, not an identifier.
var fileExts = map[string]bool{
	"py": true, "go": true, "js": true, "ts": true, "tsx": true, "jsx": true, "java": true, "rb": true,
	"rs": true, "c": true, "h": true, "cpp": true, "cs": true, "php": true, "kt": true, "swift": true,
	"yaml": true, "yml": true, "json": true, "toml": true, "ini": true, "cfg": true, "conf": true,
	"xml": true, "html": true, "css": true, "md": true, "txt": true, "csv": true, "sql": true,
	"sh": true, "lock": true, "mod": true, "sum": true, "env": true, "rego": true, "log": true,
	"pdf": true, "png": true, "jpg": true, "svg": true, "tf": true, "proto": true, "vue": true,
}

// scanIdentifiers finds code identifiers: camelCase, PascalCase with an inner capital,
// snake_case, SCREAMING_CASE, calls and dotted names with an identifier-like part.
func scanIdentifiers(text string, _ timeFunc, hs []hit) []hit {
	if !mayHaveIdentifier(text) {
		return hs
	}
	for i := 0; i < len(text); {
		if !identStart(text[i]) {
			i++
			continue
		}
		s, e := i, dottedEnd(text, i, true)
		i = e
		for e > s && text[e-1] == '.' {
			e--
		}
		prev, next := byteAt(text, s-1), byteAt(text, e)
		if prev == '@' || prev == '/' || prev == '\\' || prev == '.' || next == '/' || next == '@' ||
			next == ':' && byteAt(text, e+1) == '/' || isDigit(prev) || prev >= utf8.RuneSelf || next >= utf8.RuneSelf {
			continue
		}
		name := text[s:e]
		call := next == '('
		dot := strings.LastIndexByte(name, '.')
		if !call && dot >= 0 && isFileExt(name[dot+1:]) {
			continue
		}
		// Most names are plain words: without a '.', looksLikeCode is identLike.
		if call || dot < 0 && identLike(name) || dot >= 0 && looksLikeCode(name) {
			hs = append(hs, hit{name, s, e})
		}
	}
	return hs
}

// isFileExt reports whether ext, in any case, is one of fileExts.
func isFileExt(ext string) bool {
	var buf [8]byte
	if len(ext) > len(buf) {
		return false
	}
	for i := 0; i < len(ext); i++ {
		c := ext[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	return fileExts[string(buf[:len(ext)])]
}

// looksLikeCode reports whether a (dotted) name is code rather than prose.
func looksLikeCode(name string) bool {
	nparts := 0
	for rest := name; ; {
		part, tail, more := strings.Cut(rest, ".")
		nparts++
		if identLike(part) {
			return true
		}
		if !more {
			break
		}
		rest = tail
	}
	// pkg.Name: a lower-case package and an exported name.
	first, second, _ := strings.Cut(name, ".")
	return nparts == 2 && first != "" && second != "" &&
		'a' <= first[0] && first[0] <= 'z' && 'A' <= second[0] && second[0] <= 'Z' && len(first) > 1
}

// identLike reports whether one word is camelCase, PascalCase with an inner capital, or
// contains an underscore between letters or digits.
//
// One pass: a word with an '_' follows the underscore rule, but a lower-case letter followed
// by a capital already satisfies it (both letters survive the trim), so the pass may stop
// at whichever it sees first.
func identLike(w string) bool {
	sawLower := false
	for i := 0; i < len(w); i++ {
		c := w[i]
		switch {
		case c == '_':
			return strings.IndexFunc(w, func(r rune) bool { return r != '_' && r != '$' }) >= 0 &&
				strings.Trim(w, "_") != "" && strings.ContainsFunc(strings.Trim(w, "_"), unicode.IsLetter) &&
				len(strings.Trim(w, "_")) > 1
		case 'a' <= c && c <= 'z':
			sawLower = true
		case 'A' <= c && c <= 'Z' && sawLower:
			return true
		}
	}
	return false
}

// scanDecorators finds decorators (@name, @pkg.name); an @ glued to a preceding word is an
// e-mail address.
func scanDecorators(text string, _ timeFunc, hs []hit) []hit {
	for i := 0; ; {
		k := strings.IndexByte(text[i:], '@')
		if k < 0 {
			return hs
		}
		at := i + k
		i = at + 1
		if c := byteAt(text, at+1); !isLetter(c) && c != '_' {
			continue
		}
		s, e := at+1, dottedEnd(text, at+1, false)
		i = e
		if p := byteAt(text, at-1); isAlnum(p) || p == '_' || p == '.' || p == '-' || p >= utf8.RuneSelf {
			continue
		}
		hs = append(hs, hit{text[s:e], s, e})
	}
}

// maxCallArgs bounds the argument text of a call, so prose in parentheses is not a call.
const maxCallArgs = 80

// isCallArgByte reports whether c may appear in simple call arguments: [\w\s,.'"=:*\-\[\]].
func isCallArgByte(c byte) bool {
	switch c {
	case '_', '\t', '\n', '\f', '\r', ' ', ',', '.', '\'', '"', '=', ':', '*', '-', '[', ']':
		return true
	}
	return isAlnum(c)
}

// scanCalls finds function and method calls, name(args) with simple arguments, and returns
// their names. It matches what `([A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*)*)\(`
// followed by at most 80 argument bytes and `\)` would.
func scanCalls(text string, _ timeFunc, hs []hit) []hit {
	if strings.IndexByte(text, '(') < 0 {
		return hs // the common case for prose
	}
	for i := 0; i < len(text); {
		if !identStart(text[i]) {
			i++
			continue
		}
		s, e := i, dottedEnd(text, i, true)
		i = e // every later start inside this name ends at e too, so it fails or succeeds alike
		if byteAt(text, e) != '(' {
			continue
		}
		j := e + 1
		for j < len(text) && j-e-1 <= maxCallArgs && isCallArgByte(text[j]) {
			j++
		}
		if j-e-1 > maxCallArgs || byteAt(text, j) != ')' {
			continue
		}
		i = j + 1
		if p := byteAt(text, s-1); p == '@' || p == '/' || p >= utf8.RuneSelf {
			continue
		}
		hs = append(hs, hit{text[s:e], s, e})
	}
	return hs
}

// pathBytes marks the bytes that may appear in a path or glob: [A-Za-z0-9_./*{}~-].
var pathBytes = func() (t [256]bool) {
	for c := 0; c < 256; c++ {
		t[c] = isAlnum(byte(c)) || strings.IndexByte("_-./*{}~", byte(c)) >= 0
	}
	return t
}()

// isPathByte reports whether c may appear in a path or glob.
func isPathByte(c byte) bool { return pathBytes[c] }

// pathHint reports whether t has what every path has: a '/', a '*' or a '.' before a letter
// (an extension). Tokens without one are plain words and skip isPath.
func pathHint(t string) bool {
	for i := 0; i < len(t); i++ {
		if c := t[i]; c == '/' || c == '*' || c == '.' && isLetter(byteAt(t, i+1)) {
			return true
		}
	}
	return false
}

// scanPaths finds file paths, URL paths and globs.
func scanPaths(text string, _ timeFunc, hs []hit) []hit {
	if !pathHint(text) {
		return hs
	}
	for i := 0; i < len(text); {
		if !isPathByte(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && isPathByte(text[j]) {
			j++
		}
		s, e := i, j
		for e > s && (text[e-1] == '.' || text[e-1] == '-') {
			e-- // sentence punctuation after a path
		}
		i = j
		if p := byteAt(text, s-1); p == '@' || p == ':' || p == '\\' || p >= utf8.RuneSelf || byteAt(text, j) >= utf8.RuneSelf {
			continue
		}
		if e > s && pathHint(text[s:e]) && isPath(text[s:e]) {
			hs = append(hs, hit{text[s:e], s, e})
		}
	}
	return hs
}

// dateLike reports whether t consists of digits, '.', '/' and '-' only: numeric dates and
// plain decimals, which look like paths but are not.
func dateLike(t string) bool {
	for i := 0; i < len(t); i++ {
		if c := t[i]; !isDigit(c) && c != '.' && c != '/' && c != '-' {
			return false
		}
	}
	return t != ""
}

// isPath decides whether a token made of path bytes is a path.
func isPath(t string) bool {
	if dateLike(t) || !strings.ContainsFunc(t, unicode.IsLetter) && !strings.Contains(t, "*") {
		return false
	}
	last := t[strings.LastIndexByte(t, '/')+1:]
	ext, known := "", false
	if k := strings.LastIndexByte(last, '.'); k > 0 {
		ext = last[k+1:]
		known = isFileExt(ext)
	}
	if strings.Contains(t, "/") {
		return t != "/" && (t[0] == '/' || t[0] == '.' || t[0] == '~' || strings.Contains(t, "*") ||
			known || strings.HasSuffix(t, "/") || strings.Count(t, "/") >= 2)
	}
	if strings.Contains(t, "*") {
		return strings.ContainsAny(t, ".") || len(t) > 1 && strings.ContainsFunc(t, unicode.IsLetter)
	}
	return known && len(last) > len(ext)+1
}
