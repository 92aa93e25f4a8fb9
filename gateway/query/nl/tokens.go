package nl

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/weirgw/weir/adapters/data"
)

// token is one word of a question.
type token struct {
	w    string // folded (lower case, no diacritics)
	orig string // as written
	// num is the token's value when it is a number (2024, 1.5, 50,000, 10k, 20%).
	num     float64
	isNum   bool
	percent bool
	// id reports a code such as F-2024-013 or STUDY01-101-0012 (letters and digits joined).
	id bool
	// quote numbers the quoted text the token is in ('CÔNG TY', "Seoul"); 0 outside quotes.
	// quoted is that text as written.
	quote  int
	quoted string
}

// tokenize splits a question into words: runs of letters and digits, kept together across
// inner hyphens, dots, commas and slashes when digits are involved (2025-01-14, 21,956.62,
// F-2024-013); other hyphenated words are split (non-serious → non, serious). A % joins the
// number before it.
func tokenize(text string) []token {
	var out []token
	rs := []rune(text)
	quote, quotes, start := 0, 0, 0
	for i := 0; i < len(rs); {
		r := rs[i]
		if opens, closes := quoteAt(rs, i, quote != 0); opens || closes {
			if closes {
				setQuoted(out, quote, string(rs[start:i]))
			}
			if quote = 0; opens {
				quotes++
				quote, start = quotes, i+1
			}
			i++
			continue
		}
		if r == '%' && len(out) > 0 && out[len(out)-1].isNum {
			out[len(out)-1].percent = true
			i++
			continue
		}
		if r == '%' {
			out = append(out, token{w: "%", orig: "%"})
			i++
			continue
		}
		if r == '#' && wordAfter(rs, i+1) {
			out = append(out, token{w: "number", orig: "#"}, token{w: "of", orig: ""}) // "# ordini"
			i++
			continue
		}
		if words, n := comparisonSign(rs, i); n > 0 { // ">=1 AE", "< 40": the words they stand for
			for _, w := range strings.Fields(words) {
				out = append(out, token{w: w, orig: string(rs[i : i+n])})
			}
			i += n
			continue
		}
		if !isWord(r) {
			i++
			continue
		}
		j := i
		for j < len(rs) && (isWord(rs[j]) || (isJoiner(rs[j]) && j+1 < len(rs) && isWord(rs[j+1]) && j > i)) {
			j++
		}
		w := "" // the chat marks read here ("w/", "w/o", "n.", "nr.") are short words
		if j-i <= 3 {
			w = data.Fold(string(rs[i:j]))
		}
		if (w == "w" || w == "w/o") && (j == len(rs) || !isWord(rs[j])) {
			out = append(out, slashWith(w, string(rs[i:j]), j < len(rs) && rs[j] == '/'))
			if w == "w" && j < len(rs) && rs[j] == '/' {
				j++
			}
			i = j
			continue
		}
		if mark, end := countMark(rs, w, j); mark != "" {
			out = append(out, token{w: "number", orig: string(rs[i:end])})
			if mark == "count" {
				out = append(out, token{w: "of", orig: ""})
			}
			i = end
			continue
		}
		n := len(out)
		out = append(out, split(string(rs[i:j]))...)
		for k := n; k < len(out); k++ {
			out[k].quote = quote
		}
		i = j
	}
	if quote != 0 {
		setQuoted(out, quote, strings.TrimRight(string(rs[start:]), "?!. "))
	}
	return mergeMultipliers(out)
}

// countMarks are the short forms of "number" that, before a word, ask for a count: "nr.
// ordini", "n. ordini per mese", "n° clienti". A lone "n" is a mark only with its dot or
// degree sign; before a number any of them is "number" ("tavolo n. 12").
var countMarks = set("n", "nr", "nro", "num")

// countMark reads such a mark, w (folded, ending at rs[j]): "count" before a word,
// "number" before a number ("tavolo n. 12"), else ""; and where the mark ends (past its
// dot or sign).
func countMark(rs []rune, w string, j int) (string, int) {
	if !countMarks[w] {
		return "", j
	}
	end := j
	if end < len(rs) && strings.ContainsRune(".°º", rs[end]) {
		end++
	} else if w == "n" {
		return "", j
	}
	switch {
	case wordAfter(rs, end):
		return "count", end
	case digitAfter(rs, end) && end > j:
		return "number", end
	}
	return "", j
}

// wordAfter reports a word that starts with a letter after the spaces at rs[i:].
func wordAfter(rs []rune, i int) bool {
	for i < len(rs) && unicode.IsSpace(rs[i]) {
		i++
	}
	return i < len(rs) && unicode.IsLetter(rs[i])
}

// digitAfter reports a number after the spaces at rs[i:].
func digitAfter(rs []rune, i int) bool {
	for i < len(rs) && unicode.IsSpace(rs[i]) {
		i++
	}
	return i < len(rs) && unicode.IsDigit(rs[i])
}

// slashWith reads the chat forms "w/" (with) and "w/o" (without); a lone "w" stays a word.
func slashWith(w, orig string, slash bool) token {
	switch {
	case w == "w/o":
		return token{w: "without", orig: orig}
	case slash:
		return token{w: "with", orig: orig + "/"}
	}
	return token{w: w, orig: orig}
}

func setQuoted(ts []token, quote int, text string) {
	for k := range ts {
		if ts[k].quote == quote {
			ts[k].quoted = strings.TrimSpace(text)
		}
	}
}

// quoteAt reports a quotation mark at i that opens quoted text (after a space or at the
// start, before a word) or closes it (inside quotes, not before a letter); an apostrophe
// within or after a word ("what's", "companies'") is neither.
func quoteAt(rs []rune, i int, open bool) (opens, closes bool) {
	if !strings.ContainsRune(`'"“”‘’«»`, rs[i]) {
		return false, false
	}
	before := i == 0 || unicode.IsSpace(rs[i-1]) || strings.ContainsRune("(", rs[i-1])
	after := i+1 < len(rs) && isWord(rs[i+1])
	switch {
	case open && !after:
		return false, true
	case !open && before && after:
		return true, false
	}
	return false, false
}

// comparisonSign reads >, <, >=, <=, ≥, ≤ at i as the words they stand for, with the
// runes they take; 0 when there is none.
func comparisonSign(rs []rune, i int) (string, int) {
	eq := i+1 < len(rs) && rs[i+1] == '='
	switch {
	case rs[i] == '>' && eq:
		return "at least", 2
	case rs[i] == '<' && eq:
		return "at most", 2
	case rs[i] == '≥':
		return "at least", 1
	case rs[i] == '≤':
		return "at most", 1
	case rs[i] == '>':
		return "more than", 1
	case rs[i] == '<':
		return "less than", 1
	}
	return "", 0
}

func isWord(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
func isJoiner(r rune) bool {
	return r == '-' || r == '.' || r == ',' || r == '/' || r == '\'' || r == '’'
}

// split turns one raw run into tokens: a number, a code, or words.
func split(raw string) []token {
	hasDigit := strings.IndexFunc(raw, unicode.IsDigit) >= 0
	if n, ok := ordinal(raw); ok { // 14th, 1st: a day of the month
		return []token{{w: strconv.Itoa(n), orig: raw, num: float64(n), isNum: true}}
	}
	if y1, y2, ok := yearSpan(raw); ok { // 2023-2024: from one year to the next
		return []token{{w: y1, orig: y1, num: float64(atoi(y1)), isNum: true}, {w: "-", orig: "-"}, {w: y2, orig: y2, num: float64(atoi(y2)), isNum: true}}
	}
	if a, b, ok := strings.Cut(raw, "-"); ok && digits(a) && len(a) <= 4 {
		switch {
		case len(b) >= 3 && strings.IndexFunc(b, func(r rune) bool { return !unicode.IsLetter(r) }) < 0:
			// "55-inch", "10-day": a number and its word
			return append([]token{{w: a, orig: a, num: float64(atoi(a)), isNum: true}}, split(b)...)
		case digits(b) && len(b) <= 4 && atoi(a) < atoi(b):
			// "1-15", "16-31": a range of numbers
			return []token{{w: a, orig: a, num: float64(atoi(a)), isNum: true}, {w: "-", orig: "-"}, {w: b, orig: b, num: float64(atoi(b)), isNum: true}}
		}
	}
	if hasDigit {
		if n, ok := parseNumber(raw); ok {
			return []token{{w: data.Fold(raw), orig: raw, num: n, isNum: true}}
		}
		if !strings.ContainsAny(raw, "'’") {
			t := token{w: data.Fold(raw), orig: raw, id: strings.IndexFunc(raw, unicode.IsLetter) >= 0 || strings.Contains(raw, "-")}
			return []token{t}
		}
	}
	if data.Fold(raw) == "i.e" { // "i.e.": that is (a restatement follows)
		return []token{{w: "ie", orig: raw}}
	}
	parts := strings.FieldsFunc(raw, func(r rune) bool { return isJoiner(r) })
	if len(parts) == 2 && months[data.Fold(parts[0])] > 0 && months[data.Fold(parts[1])] > 0 && strings.Contains(raw, "-") {
		// "Oct-Dec", "gen-feb": a range of months
		return []token{{w: data.Fold(parts[0]), orig: parts[0]}, {w: "-", orig: "-"}, {w: data.Fold(parts[1]), orig: parts[1]}}
	}
	var out []token
	for i, part := range parts {
		if i > 0 && strings.ContainsAny(raw, "'’") {
			if exp, ok := contraction(out, data.Fold(part)); ok { // aren't, I'd, what's
				out = exp
				continue
			}
		}
		if full, ok := abbreviations[data.Fold(part)]; ok && len(parts) == 1 {
			out = append(out, token{w: full, orig: part})
			continue
		}
		if n, ok := numberWords[data.Fold(part)]; ok {
			out = append(out, token{w: data.Fold(part), orig: part, num: n, isNum: true})
			continue
		}
		if n, ok := parseNumber(part); ok {
			out = append(out, token{w: part, orig: part, num: n, isNum: true})
			continue
		}
		out = append(out, token{w: data.Fold(part), orig: part})
	}
	return out
}

// yearSpan reads "2023-2024" or "2023/2024" as two years, the second later.
func yearSpan(raw string) (string, string, bool) {
	if len(raw) != 9 || (raw[4] != '-' && raw[4] != '/') || !digits(raw[:4]) || !digits(raw[5:]) {
		return "", "", false
	}
	a, b := atoi(raw[:4]), atoi(raw[5:])
	return raw[:4], raw[5:], a >= 1990 && b <= 2100 && b > a
}

// contraction reads the English contraction whose second part is suffix, given the tokens
// before it: "aren't" is are not, "didn't" did not, "can't" can not, "I'd" I would,
// "what's" what is, "we've" we have, "they're" they are, "I'm" I am.
func contraction(out []token, suffix string) ([]token, bool) {
	if len(out) == 0 {
		return out, false
	}
	last := &out[len(out)-1]
	switch suffix {
	case "t":
		switch {
		case last.w == "can": // can't: can not
		case last.w == "won": // won't: will not
			last.w = "will"
		case strings.HasSuffix(last.w, "n") && len(last.w) > 2:
			last.w = last.w[:len(last.w)-1]
		default:
			return out, false
		}
		return append(out, token{w: "not", orig: "n't"}), true
	case "d", "s", "ve", "re", "m", "ll":
		if !englishPronoun[last.w] {
			return out, false // Italian elisions (dell'anno) and possessives (company's)
		}
		full := map[string]string{"d": "would", "s": "is", "ve": "have", "re": "are", "m": "am", "ll": "will"}[suffix]
		return append(out, token{w: full, orig: "'" + suffix}), true
	}
	return out, false
}

// englishPronoun are the words whose 'd, 's, 've, 're, 'm, 'll are a verb.
var englishPronoun = set("i", "you", "we", "they", "he", "she", "it", "that", "what", "there", "here", "who", "where", "how", "let")

// abbreviations are the short forms users type for words the vocabulary knows: a whole
// word only ("tot", not "tot" inside a code).
var abbreviations = map[string]string{
	"tot": "total", "qty": "quantity", "qta": "quantita", "yr": "year", "yrs": "years", "mo": "month",
	"mos": "months", "pts": "patients", "pt": "patient", "trt": "treatment", "rev": "revenue",
	"amt": "amount", "avg": "average", "nr": "number", "num": "number", "dept": "department",
	"depts": "departments", "ppl": "people", "approx": "approximately",
	"grp": "group", "grps": "groups", "subj": "subject", "subjs": "subjects", "pct": "percent",
	"cnt": "count", "mth": "month", "mths": "months", "qtr": "quarter", "qtrs": "quarters",
	"pop": "population", "pops": "populations",
	// chat shorthand, English and Italian ("hw many pts r there", "qnti ordini cn satispay")
	"hw": "how", "wat": "what", "wht": "what", "wut": "what", "r": "are", "u": "you", "ur": "your",
	"thx": "thanks", "ty": "thanks", "qnti": "quanti", "qnte": "quante", "qnt": "quanti", "qnto": "quanto",
	"qnta": "quanta", "cn": "con", "nn": "non", "xke": "perche", "xche": "perche", "ke": "che",
	"sn": "sono", "cmq": "comunque", "qlc": "qualche", "tt": "tutti",
}

// numberWords are numbers written as words (not "one"/"uno": also articles; not "sei":
// also "you are").
var numberWords = map[string]float64{
	"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
	"eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30, "fifty": 50, "hundred": 100,
	"due": 2, "tre": 3, "quattro": 4, "cinque": 5, "sette": 7, "otto": 8, "nove": 9, "dieci": 10,
	"undici": 11, "dodici": 12, "quindici": 15, "venti": 20, "trenta": 30, "cinquanta": 50, "cento": 100,
}

// ordinal reads 1st, 2nd, 3rd, 14th.
func ordinal(raw string) (int, bool) {
	low := strings.ToLower(raw)
	for _, suf := range []string{"st", "nd", "rd", "th"} {
		if num, ok := strings.CutSuffix(low, suf); ok && digits(num) && len(num) <= 2 {
			return atoi(num), true
		}
	}
	return 0, false
}

// parseNumber reads 2024, 1.5, 1,000, 21,956.62, 10k, 1.2m, and the Italian 21.956,62.
func parseNumber(s string) (float64, bool) {
	mult := 1.0
	low := strings.ToLower(s)
	switch {
	case strings.HasSuffix(low, "k") && len(low) > 1:
		mult, low = 1e3, low[:len(low)-1]
	case strings.HasSuffix(low, "m") && len(low) > 1:
		mult, low = 1e6, low[:len(low)-1]
	}
	if low == "" || strings.IndexFunc(low, func(r rune) bool { return !unicode.IsDigit(r) && r != '.' && r != ',' }) >= 0 {
		return 0, false
	}
	dots, commas := strings.Count(low, "."), strings.Count(low, ",")
	switch {
	case commas > 0 && dots > 0 && strings.LastIndex(low, ",") > strings.LastIndex(low, "."):
		low = strings.ReplaceAll(strings.ReplaceAll(low, ".", ""), ",", ".") // 21.956,62
	case commas > 0 && (dots > 0 || commas > 1 || len(low)-strings.LastIndex(low, ",") == 4):
		low = strings.ReplaceAll(low, ",", "") // 21,956.62 or 1,000
	case commas == 1:
		low = strings.ReplaceAll(low, ",", ".") // 1,5
	case dots > 1:
		low = strings.ReplaceAll(low, ".", "") // 1.000.000
	}
	f, err := strconv.ParseFloat(low, 64)
	return f * mult, err == nil
}

// mergeMultipliers joins "1 million", "2 mila", "3 thousand" into one number.
func mergeMultipliers(ts []token) []token {
	mult := map[string]float64{"thousand": 1e3, "mila": 1e3, "million": 1e6, "millions": 1e6, "milioni": 1e6, "milione": 1e6, "mln": 1e6, "billion": 1e9, "miliardi": 1e9}
	var out []token
	for i := 0; i < len(ts); i++ {
		t := ts[i]
		if t.isNum && i+1 < len(ts) && mult[ts[i+1].w] > 0 {
			t.num *= mult[ts[i+1].w]
			t.orig += " " + ts[i+1].orig
			i++
		} else if (t.w == "one" || t.w == "a" || t.w == "un") && i+1 < len(ts) && mult[ts[i+1].w] > 0 { // "one million"
			t = token{w: "1", orig: t.orig + " " + ts[i+1].orig, num: mult[ts[i+1].w], isNum: true}
			i++
		}
		out = append(out, t)
	}
	return out
}

// stem reduces a folded word to a stem shared by its English and Italian inflections:
// plural -s/-es/-ies and Italian final vowels (ordini, ordine → ordin).
func stem(w string) string {
	if len(w) <= 3 || strings.IndexFunc(w, unicode.IsDigit) >= 0 {
		return w
	}
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "shes"), strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "xes"):
		return w[:len(w)-2]
	case strings.HasSuffix(w, "ss"):
		return w
	case strings.HasSuffix(w, "s"):
		w = w[:len(w)-1]
	}
	if len(w) > 3 {
		switch w[len(w)-1] {
		case 'a', 'e', 'i', 'o', 'y':
			return w[:len(w)-1]
		}
	}
	return w
}
