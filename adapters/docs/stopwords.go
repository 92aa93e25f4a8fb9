package docs

import "strings"

// stopWords are folded English and Italian words that carry no subject: question words,
// articles, prepositions, auxiliaries. Dropping them keeps a question's OR query from
// matching every passage.
var stopWords = wordSet(`
a about after all also am an and any are as at be been before being between both but by can
could did do does doing done during each either else for from further give had has have having
he her here hers him his how i if many much in into is it its itself just me more most my no nor not of
off on once only or other our ours out over own please same say says she should so some such
tell than that the their theirs them then there these they this those through to too under
until up upon us very was we were what whats when where which while who whom whose why will
with would you your yours
il lo la i gli le un uno una di da in con su per tra fra e ed o od che chi cosa come quale quali
qual quanto quanta quanti quante quando dove perche del dello della dei degli delle al allo alla
ai agli alle dal dallo dalla dai dagli dalle nel nello nella nei negli nelle sul sullo sulla sui
sugli sulle col coi sono essere e stato stata stati ha hanno ho hai abbiamo avete si ci mi ti
vi ne non piu anche ma se questo questa questi queste quello quella quelli quelle dell all nell
sull dall un l d c s
`)

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}
