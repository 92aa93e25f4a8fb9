package nl

// differenceAsked reports a question that asks how much one side exceeds the other: "how
// many more findings in 2024 than in 2023", "by how much does Germany's value exceed South
// Korea's", "di quanto il fatturato dei Secondi supera quello dei Primi", "gennaio ha
// fatturato più di febbraio?". Its two sides are compared and the answer is the first minus
// the second. A comparison word before a number is a threshold ("more than 5"), never this.
func (r *reader) differenceAsked() bool {
	if r.differenceSaid() {
		return true
	}
	ts := r.ts
	for i := range ts {
		w, next := wordAndNext(ts, i)
		switch {
		case w == "by" && next == "how" && i+2 < len(ts) && ts[i+2].w == "much":
			return true
		case exceedWords[w] && !(i+1 < len(ts) && (ts[i+1].isNum || i+2 < len(ts) && articles[next] && ts[i+2].isNum)):
			return true
		case (w == "more" || w == "piu") && r.thanSide(i):
			return true
		}
	}
	return false
}

// differenceSaid reports a question that says the difference in so many words, whatever
// else compares the sides: "how much more", "how many more", "quanto … in più", "di
// quanto" ("Nel 2024 quanto ha importato in più la Corea del Sud rispetto al Giappone").
func (r *reader) differenceSaid() bool {
	ts := r.ts
	quanto := false
	for i := range ts {
		w, next := wordAndNext(ts, i)
		switch {
		case w == "how" && (next == "much" || next == "many") && i+2 < len(ts) && ts[i+2].w == "more":
			return true
		case w == "di" && next == "quanto":
			return true
		case w == "quanto" || w == "quanti" || w == "quante":
			quanto = true
		case quanto && w == "in" && next == "piu":
			return true
		}
	}
	return false
}

var exceedWords = set("exceed", "exceeds", "exceeded", "supera", "superano", "superato", "superata")

// thanSide reports "than" / "di" after "more" at i, with no number after it ("more AEs
// than the high dose arm", "più di febbraio"): a side, not a threshold.
func (r *reader) thanSide(i int) bool {
	for j := i + 1; j < len(r.ts); j++ {
		if w := r.ts[j].w; w == "than" || w == "di" && j == i+1 {
			k := j + 1
			for k < len(r.ts) && articles[r.ts[k].w] {
				k++
			}
			return k < len(r.ts) && !r.ts[k].isNum
		}
	}
	return false
}

// differenceWords marks the words that asked for the difference (more, più, exceed,
// meno in "gen meno feb") as read.
func (r *reader) differenceWords() {
	for _, it := range r.items {
		if len(it.ms) == 0 && (it.gen == gGT || it.gen == gMost || it.gen == gLeast || exceedWords[it.word]) {
			it.used = true
		}
	}
}

// wordAndNext are the word at i and the one after it ("" at the end).
func wordAndNext(ts []token, i int) (string, string) {
	if i+1 < len(ts) {
		return ts[i].w, ts[i+1].w
	}
	return ts[i].w, ""
}
