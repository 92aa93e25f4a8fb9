package grounding

import "strings"

// suffix is what may follow a numeral: a scale, a percent sign or word, a
// currency, a unit — or letters that show the digits are not a quantity.
type suffix struct {
	end      int
	pct      bool
	scale    float64 // 1 when none
	currency string
	unit     bool
	ordinal  bool // "1st", "3°", "1ª"
	ident    bool // letters touching the digits: "4o", "2FA", "3D"
}

// readSuffix reads the suffix of the numeral that ends at i. money says that
// a currency came before, which lets "m" and "b" mean million and billion.
func readSuffix(s string, i int, money bool) suffix {
	sf := suffix{end: i, scale: 1}
	j := i
	switch {
	case strings.HasPrefix(s[j:], "°"):
		if j+2 < len(s) && (s[j+2] == 'C' || s[j+2] == 'F') {
			sf.unit, sf.end = true, j+3
			return sf
		}
		sf.ordinal = true
		return sf
	case strings.HasPrefix(s[j:], "º"), strings.HasPrefix(s[j:], "ª"):
		sf.ordinal = true
		return sf
	}
	if w, boundary := wordAt(s, j); w != "" {
		switch {
		case timesJoin(s, j):
			return sf // "21956.62x48213.77": two numbers, each read on its own
		case !boundary:
			sf.ident = true
			return sf
		case w == "st" || w == "nd" || w == "rd" || w == "th":
			sf.ordinal = true
			return sf
		case scaleWord(w, money) != 0:
			sf.scale = scaleWord(w, money)
			j += len(w)
			sf.end = j
		case currencyWord(w) != "":
			sf.currency, sf.end = currencyWord(w), j+len(w)
			return sf
		case isUnit(w):
			sf.unit, sf.end = true, j+len(w)
			return sf
		default:
			sf.ident = true
			return sf
		}
	}
	for step := 0; step < 2; step++ {
		k := j + spaceAt(s, j)
		if k < len(s) && s[k] == '%' {
			sf.pct, sf.end = true, k+1
			return sf
		}
		if cur, w := currencySymbolAt(s, k); cur != "" {
			sf.currency, sf.end = cur, k+w
			return sf
		}
		if k == j {
			return sf
		}
		w, boundary := wordAt(s, k)
		if w == "" || !boundary {
			return sf
		}
		if sf.scale == 1 && len(w) > 1 {
			if sc := scaleWord(w, money); sc != 0 {
				sf.scale = sc
				j = k + len(w)
				sf.end = j
				continue
			}
		}
		if n := percentWords(s, k, w); n > 0 {
			sf.pct, sf.end = true, k+n
			return sf
		}
		if cur := currencyWord(w); cur != "" {
			sf.currency, sf.end = cur, k+len(w)
			return sf
		}
		if w == "di" && sf.scale != 1 { // "1,2 milioni di euro"
			k2 := k + 2 + spaceAt(s, k+2)
			if w2, b := wordAt(s, k2); b && currencyWord(w2) != "" {
				sf.currency, sf.end = currencyWord(w2), k2+len(w2)
			}
		}
		return sf
	}
	return sf
}

// percentWords returns the length of "percent", "per cent", "per cento" or
// "percento" at k (w is the first word there).
func percentWords(s string, k int, w string) int {
	switch strings.ToLower(w) {
	case "percent", "percento":
		return len(w)
	case "per":
		k2 := k + 3 + spaceAt(s, k+3)
		if k2 == k+3 {
			return 0
		}
		if w2, b := wordAt(s, k2); b && (strings.EqualFold(w2, "cent") || strings.EqualFold(w2, "cento")) {
			return k2 + len(w2) - k
		}
	}
	return 0
}

// currencySymbolAt reports a currency symbol at k and its width.
func currencySymbolAt(s string, k int) (string, int) {
	for _, c := range currencySymbols {
		if strings.HasPrefix(s[k:], c.text) {
			return c.code, len(c.text)
		}
	}
	return "", 0
}
