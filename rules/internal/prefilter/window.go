package prefilter

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"unicode"
	"unicode/utf8"
)

// A window plan runs a pattern only on the stretches of text around its required literals.
// When every match of a pattern is Pre·L·Suf, with L a finite set of literals
// (`\b([a-z]+) department\b`, `\S*\*\S*`, `(?:^|\s)/[a-z0-9_.-]+`), a match contains an
// occurrence of L, reaches left of it only over bytes Pre can consume, and right of it only
// over bytes Suf can consume. The window of an occurrence is that reach; overlapping or
// touching windows merge, and the regex runs on each merged window with one rune of real
// context on either side. A pattern whose alternatives each have such a literal
// (`\b(?:[a-z]+[A-Z]\w*|[a-z]+_\w+)\b`) has one item per alternative, each with its own reach.
//
// The result is exactly the regex's on the whole text. Every match lies inside one window,
// and inside the slice every zero-width assertion sees its real neighbours. No path of the
// regex can start on the left context rune (it would have to consume that rune with a Pre,
// which cannot, or start an occurrence of an L there, whose window would have merged) nor
// end on the right one (symmetrically), so the slice offers no match the text lacks, and
// leftmost-first picks the same match at the same start.
type windowPlan struct {
	items []*windowItem
	// Every match holds at least minCount bytes of count (ASCII bytes only): a merged window
	// with fewer holds none (minCount 0: no such bound). `[A-Z][a-z]+[A-Z]\w*` needs two
	// capitals, so the window around the capital of a sentence's first word is never run.
	count    *byteClass
	minCount int
}

// windowItem is one required literal set with the reach of the matches around it.
type windowItem struct {
	set         []string   // L, until newPrefilter turns it into lits
	lits        []int32    // AC indices of L
	left, right *byteClass // bytes Pre and Suf may consume
	// minLeft and minRight are the fewest bytes Pre and Suf consume: an occurrence with less
	// room than that on either side hosts no match, and a merged window none of whose
	// occurrences has the room is not run.
	minLeft, minRight int
	// first and last are the ops of Pre's first and Suf's last element (0: none, or not
	// known); a match that must start at ^ or at \b, or end at $ or at \b, needs the reach
	// to end there too (see room).
	first, last syntax.Op
	// wbLeft and wbRight: Pre starts (Suf ends) with \b, consumes a byte and only word bytes.
	wbLeft, wbRight bool
}

// byteClass is a set of bytes. A rune class that contains any non-ASCII rune contains every
// byte >= 0x80 here (and so does a class that matches invalid UTF-8, which reads as U+FFFD),
// so a window never stops inside a multi-byte rune a pattern may consume.
type byteClass [256]bool

// Bounds of window plans: the literals of one item, the items of a plan, the runes of a
// class taken as a literal set (enough for [A-Z]), and the nesting analysed.
const (
	maxWindowLits  = 256
	maxWindowItems = 16
	maxWindowClass = 26
	maxWindowDepth = 3
)

// newWindowPlan returns the window plan of re, or nil when re has no required literal sets
// whose windows stay narrow.
func newWindowPlan(re *syntax.Regexp) *windowPlan {
	items, _ := windowItems(re, maxWindowDepth)
	if items == nil {
		return nil
	}
	w := &windowPlan{items: items, count: new(byteClass)}
	for _, it := range items {
		it.wbLeft = it.first == syntax.OpWordBoundary && it.minLeft > 0 && it.left.words()
		it.wbRight = it.last == syntax.OpWordBoundary && it.minRight > 0 && it.right.words()
		for _, x := range it.set {
			if len(x) == 1 && x[0] < utf8.RuneSelf {
				w.count[x[0]] = true
			}
		}
	}
	if w.minCount = minCount(re, w.count); w.minCount < 2 {
		// A window holds an occurrence of a literal; one byte of count says nothing more.
		w.count, w.minCount = nil, 0
	}
	return w
}

// minRunes returns the fewest runes a match of re consumes (each is at least one byte).
func minRunes(re *syntax.Regexp) int {
	switch re.Op {
	case syntax.OpLiteral:
		return len(re.Rune)
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return 1
	case syntax.OpCapture, syntax.OpPlus:
		return minRunes(re.Sub[0])
	case syntax.OpRepeat:
		return re.Min * minRunes(re.Sub[0])
	case syntax.OpConcat:
		n := 0
		for _, s := range re.Sub {
			n += minRunes(s)
		}
		return n
	case syntax.OpAlternate:
		n := -1
		for _, s := range re.Sub {
			if m := minRunes(s); n < 0 || m < n {
				n = m
			}
		}
		return max(n, 0)
	}
	return 0 // star, quest, empty, assertions
}

// minCount returns the fewest bytes of c (ASCII bytes only) a match of re consumes: a rune
// counts when whatever it matches is a byte of c.
func minCount(re *syntax.Regexp, c *byteClass) int {
	switch re.Op {
	case syntax.OpLiteral:
		n := 0
		for _, r := range re.Rune {
			if in := asciiIn(r, c); in && re.Flags&syntax.FoldCase != 0 {
				for f := unicode.SimpleFold(r); f != r && in; f = unicode.SimpleFold(f) {
					in = asciiIn(f, c)
				}
				if in {
					n++
				}
			} else if in {
				n++
			}
		}
		return n
	case syntax.OpCharClass:
		if len(re.Rune) == 0 {
			return 0
		}
		for i := 0; i+1 < len(re.Rune); i += 2 {
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				if !asciiIn(r, c) {
					return 0
				}
			}
		}
		return 1
	case syntax.OpCapture, syntax.OpPlus:
		return minCount(re.Sub[0], c)
	case syntax.OpRepeat:
		return re.Min * minCount(re.Sub[0], c)
	case syntax.OpConcat:
		n := 0
		for _, s := range re.Sub {
			n += minCount(s, c)
		}
		return n
	case syntax.OpAlternate:
		n := -1
		for _, s := range re.Sub {
			if m := minCount(s, c); n < 0 || m < n {
				n = m
			}
		}
		return max(n, 0)
	}
	return 0
}

// asciiIn reports whether r is an ASCII byte of c.
func asciiIn(r rune, c *byteClass) bool { return r >= 0 && r < utf8.RuneSelf && c[r] }

// flattenConcat appends the elements of re's top-level concatenation, looking through
// capture groups: a path through the pattern consumes them in this order.
func flattenConcat(re *syntax.Regexp, out *[]*syntax.Regexp) {
	switch re.Op {
	case syntax.OpCapture:
		flattenConcat(re.Sub[0], out)
	case syntax.OpConcat:
		for _, s := range re.Sub {
			flattenConcat(s, out)
		}
	default:
		*out = append(*out, re)
	}
}

// register turns the items' literal sets into AC indices.
func (w *windowPlan) register(id func(string) int32) {
	for _, it := range w.items {
		for _, s := range it.set {
			it.lits = append(it.lits, id(s))
		}
		it.set = nil
	}
}

// windowItems returns the items of re and the cost of their widest window, or nil. It tries
// each element of re's concatenation as the host of the literals and keeps the cheapest.
func windowItems(re *syntax.Regexp, depth int) ([]*windowItem, int) {
	var elems []*syntax.Regexp
	flattenConcat(re, &elems)
	var best []*windowItem
	bestCost := 0
	for k, e := range elems {
		items := elemItems(e, depth)
		if items == nil {
			continue
		}
		cost := 0
		for _, it := range items {
			for _, x := range elems[:k] {
				it.left.add(x)
				it.minLeft += minRunes(x)
			}
			for _, x := range elems[k+1:] {
				it.right.add(x)
				it.minRight += minRunes(x)
			}
			// The elements of this level enclose those of the levels inside.
			if k > 0 {
				it.first = elems[0].Op
			}
			if k+1 < len(elems) {
				it.last = elems[len(elems)-1].Op
			}
			if it.left.wide() || it.right.wide() {
				cost = -1
				break
			}
			cost = max(cost, it.cost())
		}
		if cost >= 0 && (best == nil || cost < bestCost) {
			best, bestCost = items, cost
		}
	}
	return best, bestCost
}

// elemItems returns the items of one element: its own literal set, or those of what it
// repeats at least once (whose further repetitions join the right reach), or one set of
// items per alternative.
func elemItems(e *syntax.Regexp, depth int) []*windowItem {
	for e.Op == syntax.OpCapture {
		e = e.Sub[0]
	}
	if set := windowSet(e); set != nil {
		return []*windowItem{{set: set, left: new(byteClass), right: new(byteClass)}}
	}
	if depth == 0 {
		return nil
	}
	switch {
	case e.Op == syntax.OpPlus || e.Op == syntax.OpRepeat && e.Min >= 1:
		items, _ := windowItems(e.Sub[0], depth-1)
		for _, it := range items {
			it.right.add(e)
			it.last = 0 // a further repetition may end the match
		}
		return items
	case e.Op == syntax.OpConcat:
		items, _ := windowItems(e, depth-1)
		return items
	case e.Op == syntax.OpAlternate:
		var all []*windowItem
		for _, s := range e.Sub {
			items, _ := windowItems(s, depth-1)
			if items == nil || len(all)+len(items) > maxWindowItems {
				return nil
			}
			all = append(all, items...)
		}
		return all
	}
	return nil
}

// windowSet returns the literal set e requires, or nil. A set must be worth tracking: no
// empty string, and no single lower-case letter or whitespace byte (they occur everywhere;
// digits, capitals and punctuation seldom).
func windowSet(e *syntax.Regexp) []string {
	set, ok := languageN(e, maxWindowClass)
	if !ok || len(set) == 0 || len(set) > maxWindowLits {
		return nil
	}
	for _, s := range set {
		if s == "" || len(s) == 1 && ('a' <= s[0] && s[0] <= 'z' || isSpaceByte(s[0])) {
			return nil
		}
	}
	return set
}

// cost estimates how much text the item's windows cover: the bytes of its reach, plus a
// penalty for single-byte literals, which occur more often than words.
func (it *windowItem) cost() int {
	c := it.left.count() + it.right.count()
	for _, s := range it.set {
		if len(s) == 1 {
			return c + 50
		}
	}
	return c
}

// add adds the bytes re may consume.
func (c *byteClass) add(re *syntax.Regexp) {
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			c.addRune(r)
			if re.Flags&syntax.FoldCase != 0 {
				for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
					c.addRune(f)
				}
			}
		}
	case syntax.OpCharClass:
		for i := 0; i+1 < len(re.Rune); i += 2 {
			lo, hi := re.Rune[i], re.Rune[i+1]
			for r := lo; r <= hi && r < utf8.RuneSelf; r++ {
				c[r] = true
			}
			if hi >= utf8.RuneSelf {
				c.addRune(utf8.RuneSelf)
			}
		}
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		for b := range c {
			c[b] = b != '\n' || re.Op == syntax.OpAnyChar
		}
	default:
		for _, s := range re.Sub {
			c.add(s)
		}
	}
}

// addRune adds r, or every byte >= 0x80 for a non-ASCII r.
func (c *byteClass) addRune(r rune) {
	if r < utf8.RuneSelf {
		c[r] = true
		return
	}
	for b := utf8.RuneSelf; b < 256; b++ {
		c[b] = true
	}
}

// wide reports whether the class crosses words: it holds the space and every lower-case
// letter, so a window would run over whole sentences and save nothing.
func (c *byteClass) wide() bool {
	if !c[' '] {
		return false
	}
	for b := 'a'; b <= 'z'; b++ {
		if !c[b] {
			return false
		}
	}
	return true
}

func (c *byteClass) count() int {
	n := 0
	for _, in := range c {
		if in {
			n++
		}
	}
	return n
}

// occSpan is a span of text: an occurrence of a literal, or a window; room says whether it
// (one of the occurrences of a window) has room for a match on either side.
type occSpan struct {
	start, end int32
	room       bool
}

// windows appends to buf, sorted and merged, the windows around the occurrences of the plan's
// literals. Each item's occurrences are taken in text order, and a scan that reaches the span
// the item's previous scan covered takes that scan's result, so no byte is scanned twice per
// item.
func (w *windowPlan) windows(text string, o *occurrences, buf []occSpan) []occSpan {
	buf = buf[:0]
	for _, it := range w.items {
		from := len(buf)
		for _, lit := range it.lits {
			for e := o.head[lit]; e >= 0; e = o.ev[e].next {
				buf = append(buf, occSpan{start: o.ev[e].start, end: o.ev[e].end})
			}
		}
		occ := buf[from:]
		sortSpans(occ)
		lastS, lastL, lastE, lastR := -1, -1, -1, -1
		for k, oc := range occ {
			s, e := int(oc.start), int(oc.end)
			l := s
			for l > 0 && it.left[text[l-1]] {
				if l == lastS {
					l = lastL
					break
				}
				l--
			}
			r := e
			if lastE <= e && e <= lastR {
				r = lastR
			} else {
				for r < len(text) && it.right[text[r]] {
					if r == lastE {
						r = lastR
						break
					}
					r++
				}
			}
			lastS, lastL, lastE, lastR = s, l, e, r
			occ[k] = occSpan{int32(l), int32(r), it.room(text, s, e, l, r)}
		}
	}
	sortSpans(buf)
	n := 0
	for _, sp := range buf {
		if n > 0 && sp.start <= buf[n-1].end {
			buf[n-1].end = max(buf[n-1].end, sp.end)
			buf[n-1].room = buf[n-1].room || sp.room
			continue
		}
		buf[n] = sp
		n++
	}
	// Windows are merged first, so the context of every window run stays what it was; then
	// those that cannot hold a match are dropped.
	k := 0
	for _, sp := range buf[:n] {
		if sp.room && w.counts(text[sp.start:sp.end]) {
			buf[k] = sp
			k++
		}
	}
	return buf[:k]
}

// room reports whether the occurrence text[s:e], whose reach is text[l:r], can host a
// match: Pre and Suf need their fewest bytes, and a match that starts at ^ starts at 0.
// When Pre starts with \b and consumes at least one byte, all of them word bytes, a match
// cannot start inside the reach (a word byte precedes it there), so it starts at l, which
// needs \b; the same holds on the right for $ and \b.
func (it *windowItem) room(text string, s, e, l, r int) bool {
	if s-l < it.minLeft || r-e < it.minRight {
		return false
	}
	if it.first == syntax.OpBeginText && l != 0 || it.last == syntax.OpEndText && r != len(text) {
		return false
	}
	return !(it.wbLeft && l > 0 && isREWord(text[l-1]) || it.wbRight && r < len(text) && isREWord(text[r]))
}

// words reports whether every byte of c is an ASCII word byte.
func (c *byteClass) words() bool {
	for b, in := range c {
		if in && !isREWord(byte(b)) {
			return false
		}
	}
	return true
}

// sortSpans sorts spans by start: by insertion while they are few (a question holds a
// handful of occurrences per plan, often already in order), else with slices.SortFunc.
func sortSpans(spans []occSpan) {
	if len(spans) > 16 {
		slices.SortFunc(spans, func(a, b occSpan) int { return int(a.start - b.start) })
		return
	}
	for i := 1; i < len(spans); i++ {
		for j := i; j > 0 && spans[j].start < spans[j-1].start; j-- {
			spans[j], spans[j-1] = spans[j-1], spans[j]
		}
	}
}

// counts reports whether window holds the bytes of count every match needs.
func (w *windowPlan) counts(window string) bool {
	if w.minCount == 0 {
		return true
	}
	n := 0
	for i := 0; i < len(window); i++ {
		if w.count[window[i]] {
			if n++; n >= w.minCount {
				return true
			}
		}
	}
	return false
}

// slice returns the bounds of window [ws, we) widened by one rune of context on each side.
func slice(text string, ws, we int) (int, int) {
	if ws > 0 {
		_, n := utf8.DecodeLastRuneInString(text[:ws])
		ws -= n
	}
	if we < len(text) {
		_, n := utf8.DecodeRuneInString(text[we:])
		we += n
	}
	return ws, we
}

// matchString reports whether re matches text, given the plan's windows.
func (w *windowPlan) matchString(re *regexp.Regexp, text string, wins []occSpan) bool {
	for _, win := range wins {
		s, e := slice(text, int(win.start), int(win.end))
		if re.MatchString(text[s:e]) {
			return true
		}
	}
	return false
}

// each calls fn with the matches of re.FindAllStringSubmatchIndex(text, -1), in order, until
// fn returns false, given the plan's windows; see eachMatch for all.
func (w *windowPlan) each(re *regexp.Regexp, text string, wins []occSpan, all bool, fn func(m []int) bool) {
	for _, win := range wins {
		s, e := slice(text, int(win.start), int(win.end))
		more := true
		eachMatch(re, text[s:e], all, func(m []int) bool {
			for k := range m {
				if m[k] >= 0 {
					m[k] += s
				}
			}
			more = fn(m)
			return more
		})
		if !more {
			return
		}
	}
}
