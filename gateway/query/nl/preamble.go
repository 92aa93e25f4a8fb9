package nl

import (
	"regexp"
	"strings"
)

// Preambles. "I'm new on the audit team — how many findings are in the register?", "Sono
// nuovo qui e vorrei farmi un'idea: quanti ordini abbiamo registrato?", "Because I'm
// setting up the tables: how many subjects are under 40?": a sentence or clause about the
// one asking, before the question, asks nothing of the data. A leading clause (up to a
// colon, a dash, or the end of a sentence) is dropped when it speaks of the asker (I, we,
// sono, vorrei, per capire …) and names nothing the data or the reader knows: no word of
// the data, no number, no date, and no word that shapes a query (a negation, a comparison,
// a ranking, an aggregation, a grouping, advice, the future). The clause is said in a note.

// clauseEnd ends a leading clause: a colon, a semicolon, a dash between spaces, an em or en
// dash, or the end of a sentence.
var clauseEnd = regexp.MustCompile(`[:;—–!?]|\s-\s|\.\s`)

// speakerWords mark a clause about the one asking.
var speakerWords = set("i", "me", "my", "we", "our", "us", "im", "am", "io", "sono", "sto", "vorrei", "voglio",
	"ho", "mi", "ci", "noi", "capire", "since", "because", "siccome", "poiche", "hi", "hello", "hey", "ciao",
	"buongiorno", "salve", "thanks", "grazie", "looking", "guardando", "reviewing", "checking", "collecting",
	"controllo", "verifica", "preparing", "preparando", "doing", "working", "mio", "mia", "miei", "mie",
	"nostro", "nostra", "nostri", "nostre", "your")

// shapingGens are the generic words that change what a query computes: a clause with one is
// never dropped.
var shapingGens = map[gen]bool{gCount: true, gSum: true, gAvg: true, gMax: true, gMin: true, gMost: true,
	gLeast: true, gTop: true, gRank: true, gBy: true, gVs: true, gCompare: true, gNot: true, gGT: true,
	gLT: true, gGE: true, gLE: true, gWhich: true, gWho: true, gShow: true, gPercent: true, gDistinct: true,
	gHowMuch: true, gGrowth: true, gFuture: true, gAdvice: true, gNone: true, gEvery: true,
	gRecent: true, gOldest: true, gFrequent: true, gGroupOf: true, gOnly: true, gGrain: true, gSize: true,
	gGrainBy: true, gWhy: true, gBetween: true, gUnsupported: true, gMedian: true, gAfter: true, gBefore: true,
	gWithin: true, gMention: true, gAbout: true, gAmong: true, gChange: true, gStarts: true, gWeekday: true,
	gSpend: true, gMoney: true, gRestate: true, gArith: true}

// stripPreamble removes the leading clauses about the one asking; it returns the text left
// and the clauses removed, as written. A clause may name what the question names again
// ("I'm reviewing safety in the High Dose group. How many … on High Dose?"): each word of
// the data in it must be named again after it.
func (p *Parser) stripPreamble(text string) (string, []string) {
	var removed []string
	for {
		loc := clauseEnd.FindStringIndex(text)
		if loc == nil || strings.TrimSpace(text[loc[1]:]) == "" {
			return text, removed
		}
		clause := text[:loc[0]]
		if !p.aboutAsker(clause, text[loc[1]:]) {
			return text, removed
		}
		if c := strings.TrimSpace(clause); c != "" {
			removed = append(removed, c)
		}
		text = text[loc[1]:]
	}
}

// aboutAsker reports a clause that speaks of the one asking and names nothing the data or
// the reader knows.
func (p *Parser) aboutAsker(clause, rest string) bool {
	ts := tokenize(clause)
	speaker := false
	for _, t := range ts {
		if t.isNum {
			return false
		}
		speaker = speaker || speakerWords[t.w]
	}
	if !speaker || len(dates(ts)) > 0 {
		return false
	}
	var named []*item
	for _, it := range p.items(ts) {
		if it.num != nil || shapingGens[it.gen] {
			return false
		}
		if len(it.ms) > 0 {
			named = append(named, it)
		}
	}
	if len(named) == 0 {
		return true
	}
	again := p.items(tokenize(rest))
	for _, it := range named {
		if !namedAgain(it, again) {
			return false
		}
	}
	return true
}

// namedAgain reports that one of the items names what it names (a value of the same field,
// the same measure, field or rows).
func namedAgain(it *item, items []*item) bool {
	for _, o := range items {
		for _, m := range it.ms {
			for _, n := range o.ms {
				if m.kind == n.kind && m.src == n.src && m.field == n.field && m.metric == n.metric && (m.kind != mValue || overlap(m.values, n.values)) {
					return true
				}
			}
		}
	}
	return false
}

func overlap(a, b []string) bool {
	for _, x := range a {
		if contains(b, x) {
			return true
		}
	}
	return false
}
