package nl

import "strings"

// gen is the meaning of a word of the generic lexicon: the words of questions about any
// data, in English and Italian.
type gen int

const (
	gFiller      gen = iota + 1 // asks nothing by itself (articles, auxiliaries, question framing)
	gCount                      // how many, number of: count
	gSum                        // total, sum
	gAvg                        // average, mean
	gMax                        // highest, maximum, biggest
	gMin                        // lowest, minimum, smallest
	gMost                       // the most, più: rank by the measure, descending
	gLeast                      // the least, meno: rank ascending
	gTop                        // top (N)
	gRank                       // rank, classifica: order every group
	gBy                         // by, per, for each: group by what follows
	gVs                         // vs, versus: the two sides of a comparison
	gCompare                    // compare, confronta
	gNot                        // not, excluding, tranne
	gAnd                        // and, e
	gOr                         // or, o
	gGT                         // more than, over, above
	gLT                         // less than, under, below
	gGE                         // at least, or more
	gLE                         // at most, or less
	gWhich                      // which, quale: asks for a label (a ranking's winner, a row)
	gWho                        // who, chi: asks for the actor
	gShow                       // show, list: asks for rows
	gPercent                    // percentage, share
	gDistinct                   // different, distinct
	gHowMuch                    // how much, quanto
	gGrowth                     // grow, crescere (by N%)
	gFuture                     // forecast, predict, will: not in past data
	gAdvice                     // should, recommend: not a data question
	gAny                        // any, ci sono: asks for rows
	gOne                        // one, un, uno (as "at least one")
	gNone                       // no, none, nessun, senza: no rows of
	gWith                       // with, con, had, having: relates a row to a condition
	gEvery                      // every, each, ogni (as "per each")
	gRecent                     // latest, most recent: the last by time
	gOldest                     // earliest, first: the first by time
	gFrequent                   // most frequent, most common: count ranking
	gGroupOf                    // breakdown, distribution, suddivisione: group by what follows
	gOnly                       // only, solo: an equals, not a contains
	gGrain                      // a time grain: monthly, per mese (see grains)
	gSize                       // size, numerosità: how many
	gGrainBy                    // monthly, mese per mese: group by a time grain by itself
	gWhy                        // why, explain, analyse: an analysis, not a value
	gBetween                    // between N and M (of numbers; dates are read before)
	gUnsupported                // percentile, variance: statistics the query does not compute
	gMedian                     // median, mediana: the middle value of a field
	gAfter                      // after, dopo (a day number; dates read "after" themselves)
	gBefore                     // before, prima del (a day number)
	gWithin                     // within, entro (the first N days)
	gMention                    // mention, contain, parlano di: a search of the free text (text.go)
	gAbout                      // about, regarding, riguardanti: a search of the text when one follows, else a filler
	gAmong                      // among: the field after it is what a ranking ranks (tra, fra are gBetween)
	gChange                     // changed, went up, aumentato: a comparison of a period's two ends
	gStarts                     // begins with, inizia con: a text field's value starts with what follows
	gWeekday                    // monday, sabato, the weekend: days of the week (see weekdaySets)
	gSpend                      // spendiamo, we spend: the business's outlay, framing the measure named with it
	gMoney                      // money, soldi: the measure in money the question names, else the default one
	gRestate                    // cioè, i.e., ovvero: what follows restates what came before (restate.go)
	gArith                      // minus, divided by, times: the arithmetic of a restated measure (restate.go)
	gRegardless                 // regardless of, a prescindere da: the fields after it are no condition
	gRepeat                     // more than once, più di una volta: more than one row of each (entityRepeat)
)

// grains are the time grains words name, for grouping by the time dimension.
var grains = map[string]string{}

// grainBy are words that group by a grain by themselves ("monthly").
func grainBy(g, words string) {
	for _, w := range strings.Split(words, "|") {
		if w = strings.TrimSpace(w); w != "" {
			grains[w] = g
			lexicon[w] = gGrainBy
		}
	}
}

func grain(g, words string) {
	for _, w := range strings.Split(words, "|") {
		if w = strings.TrimSpace(w); w != "" {
			grains[w] = g
			lexicon[w] = gGrain
		}
	}
}

// lexicon is the generic vocabulary, folded. Phrases are matched longest first.
var lexicon = map[string]gen{}

func add(g gen, words string) {
	for _, w := range strings.Split(words, "|") {
		if w = strings.TrimSpace(w); w != "" {
			lexicon[w] = g
		}
	}
}

func init() {
	add(gFiller, `a|an|the|of|in|on|at|to|for|from|with the|is|are|was|were|be|been|being|do|does|did|done|have|has|
		what|whats|what's|s|it|its|this|that|these|those|there|their|our|we|us|i|me|my|you|your|they|them|
		please|tell|tell me|give me|can you|could you|i want|i need|i'd like|would like|let me know|know|
		il|lo|la|i|gli|le|l|un|una|uno|del|della|dello|dei|degli|delle|di|da|dal|dalla|dai|dalle|in|nel|nella|nei|nelle|nello|negli|
		al|alla|ai|alle|allo|agli|su|sul|sulla|sui|sulle|a|ad|per il|e il|che|ci|c|ce|si|mi|ti|vi|ne|
		e|ed|sono|stato|stata|stati|state|era|erano|essere|ha|hanno|ho|abbiamo|avete|avuto|avuta|avuti|avute|fatto|fatti|
		qual|cosa|che cosa|dimmi|mi dici|vorrei sapere|sapere|voglio|puoi|potresti|
		all|alls|total of|in total|overall|in totale|complessivamente|tutti|tutte|tutto|whole|entire|
		so far|ever|still|ancora|currently|attualmente|now|ora|
		reported|recorded|registered|logged|raised|identified|found|filed|submitted|entered|noted|observed|occurred|happened|
		registrati|registrate|registrato|registrata|segnalati|segnalate|rilevati|rilevate|trovati|trovate|
		made|make|generated|generato|generata|generati|produced|
		given|granted|applied|concesso|concessa|concessi|concesse|applicato|applicata|applicati|applicate|
		get|got|take|took|taken|preso|presi|presa|prese|served|servito|serviti|handled|gestito|gestiti|
		assessed|classified|marked|flagged|coded|rated|valutati|valutate|classificati|
		single|singolo|singola|individual|one by one|
		ones|one of|item|items|record|records|entries|entry|riga|righe|row|rows|
		dati|dataset|database|table|tabella|study|studio|trial|sperimentazione|
		here|qui|exactly|esattamente|about|circa|roughly|approximately|
		also|anche|just|only if|
		respectively|each one|ciascuno|ciascuna|
		number|numero|
		been done|out|up|
		there are|ce ne sono|are there|is there|c e|ci sono stati|
		as|come|like|
		if|se|then|poi|
		same|stesso|stessa|
		level|livello|
		type|types|tipo|tipi|kind|kinds|categoria di|
		figure|cifra|valore|value|amount|importo|ammontare|
		so|quindi|allora|ok|okay|
		much|molto|many|molti|molte|than|col|coi|nello|sull|dell|all|tutte le|
		related|relating|regarding|concerning|about the|relativi|relative|riguardanti|inerenti|
		started|starting|began|iniziati|iniziate|avvenuti|avvenute|occurring|
		raise|raises|raising|report|reports|reporting|record|recorded by|log|logs|identify|find out|register|
		file|files|filing|submit|issued|issue date|happen|occur|occurs|take place|took place|
		dagli|dalle|dallo|dall|agli|alle|allo|negli|nelle|nell|sugli|sulle|sullo|sul|sui|degli|dello|coi|pei|
		over the|in the|of the|for the|on the|at the|to the|from the|with the|
		we have|do we have|have we|did we|abbiamo avuto|ci sono stati|ce|c'e|c e stato|
		please show|let me see|i would like|vorrei|voglio sapere|puoi dirmi|sai dirmi|
		serve|servono|servirebbe|servirebbero|occorre|occorrono|bisogna|need|needed|needs|required|require|necessario|necessari|to reach|per arrivare|raggiungere`)
	add(gCount, `how many|how many times|number of|numero di|numero degli|numero dei|numero delle|count|conta|conteggio|quanti|quante|quanta gente|tally|totale di`)
	add(gSum, `total|totale|totali|sum|somma|sum of|somma di|cumulative|complessivo|complessiva|combined|insieme`)
	add(gAvg, `average|avg|mean|media|medio|medi|medie|in media|on average|mediamente`)
	add(gMax, `max|maximum|highest|biggest|largest|greatest|longest|massimo|massima|piu alto|piu alta|maggiore|piu grande|piu lungo|piu lunga|piu elevato|piu elevata`)
	add(gMin, `min|minimum|lowest|smallest|shortest|minimo|minima|piu basso|piu bassa|minore|piu piccolo|piu piccola|piu corto|piu breve`)
	add(gMost, `most|the most|di piu|piu|maggior|maggiore numero|maggior numero|il maggior numero|highest number|the highest number|largest number|best|top seller|mostly|more`)
	add(gLeast, `least|the least|fewest|the fewest|di meno|meno|minor numero|il minor numero|lowest number|worst|less`)
	add(gTop, `top|primi|prime|first|i primi|le prime|leading`)
	add(gRank, `rank|ranked|ranking|classifica|ordina|order by|sort|sorted|in order|in ordine`)
	add(gBy, `by|per|for each|for every|per ogni|per ciascun|per ciascuna|broken down by|split by|suddivisi per|divisi per|grouped by|raggruppati per|each|across|by each|a seconda del|in base al|in base alla`)
	add(gVs, `vs|v|versus|contro|against|compared to|compared with|rispetto a|rispetto al|rispetto alla|rispetto ai|paragonato a`)
	add(gCompare, `compare|comparison|confronta|confronto|confrontare|paragona|paragone|difference between|differenza tra|differenza fra|side by side|between the two`)
	add(gNot, `not|non|isn't|aren't|wasn't|weren't|don't|didn't|doesn't|excluding|exclude|excluded|except|except for|apart from|besides|other than|tranne|eccetto|escluso|esclusa|esclusi|escluse|escludendo|ad eccezione di|all but|but not|non e|non sono`)
	add(gAnd, `and|e|ed|plus|&|nonche|as well as`)
	add(gOr, `or|o|oppure|either`)
	add(gGT, `more than|over|above|greater than|higher than|bigger than|larger than|exceeding|exceeds|in excess of|piu di|oltre|sopra|superiore a|superiori a|maggiore di|maggiori di`)
	add(gLT, `less than|fewer than|under|below|lower than|smaller than|cheaper than|meno di|sotto|inferiore a|inferiori a|minore di|minori di`)
	add(gGE, `at least|or more|or above|or over|or higher|almeno|o piu|minimo di|non meno di|no less than`)
	add(gLE, `at most|or less|or fewer|or below|up to|al massimo|o meno|fino a un massimo di|no more than|non piu di`)
	add(gWhich, `which|quale|quali|qual e|what is the|which one|which ones|in quale|in which|in what|for which|per quale`)
	add(gFiller, `whose`) // "the findings whose status is Open": a relative, the condition follows
	add(gWho, `who|chi|whom`)
	add(gShow, `show|show me|list|list all|display|see|view|give|mostra|mostrami|mostraci|elenca|elencami|elenchi|mi elenchi|elencate|lista|elenco|fammi vedere|visualizza|dammi|find|trova|trovami|get me|fetch|pull|print|export|estrai|details|dettagli|dettaglio`)
	add(gPercent, `percentage|percent|per cent|percentuale|share|quota|proportion|proporzione|rate of|tasso di|incidenza|%|what fraction|fraction`)
	add(gDistinct, `different|distinct|unique|diversi|diverse|distinti|distinte|unici|uniche|separate`)
	add(gHowMuch, `how much|quanto|quanta|how much did|quanto abbiamo|quanto e|quant e`)
	add(gGrowth, `grow|grow by|growth of|crescere|crescere del|crescita del|aumentare|aumentare del|increase by|increase of|raise by|incrementare|incremento del`)
	add(gFuture, `forecast|predict|prediction|projection|project|projected|prevedi|prevedere|previsione|previsioni|proiezione|stima|stimare|estimate|will|expect|expected|aspettarci|aspettare|next year|next month|next quarter|prossimo|prossima|prossimi|future|futuro|futura|phase 3|going to`)
	add(gAdvice, `should|shall|recommend|recommendation|suggest|suggestion|advice|advise|consiglia|consigli|consigliare|suggerisci|dovrei|dovremmo|devo|dobbiamo|conviene|come posso|come possiamo|how can|how could|how do i|how should|prioritize|prioritise|priorita|best way|switch|improve|migliorare|aumentare il|ridurre|reduce|cut`)
	add(gAny, `any|ci sono|are there any|is there any|qualche|alcuni|alcune`)
	add(gOne, `one|un|uno|una|single one`)
	add(gNone, `no|none|nessun|nessuno|nessuna|senza|without|zero|never|mai|not any`)
	add(gWith, `with|con|had|having|that had|who had|with a|with an|che hanno|che hanno avuto|che ha|che ha avuto|aventi|affected|affected by|colpiti|colpiti da|experienced|experiencing|suffered|reported a|got a|presenting`)
	add(gEvery, `every|ogni|ciascun|ciascuna|each`)
	add(gRecent, `latest|most recent|the most recent|the latest|the newest|newest|last|ultimo|ultima|piu recente|piu recenti|recent|recente|more recent`)
	add(gOldest, `oldest|earliest|first ever|piu vecchio|piu vecchia|piu vecchi|piu antico|primo in assoluto|meno recente`)
	add(gFrequent, `most frequent|most frequently|most common|most commonly|most often|frequent|frequently|common|commonly|piu frequente|piu frequenti|piu comune|piu comuni|frequente|ricorrente|piu ricorrente|piu spesso|typical|most typical|
		popular|popolare|popolari|preferred|preferito|preferita|
		most used|most chosen|most requested|the most used|the most chosen|the most requested|used most|used the most|chosen most|requested most|
		piu usato|piu usata|piu usati|piu usate|piu utilizzato|piu utilizzata|piu scelto|piu scelta|piu richiesto|piu richiesta|
		il piu usato|la piu usata|usato di piu|usata di piu|usati di piu|usate di piu|utilizzato di piu|utilizzata di piu`)
	// Verbs of use alone frame a condition ("how many orders used a credit card", "quanti
	// ordini hanno usato il bancomat"); with most / più they rank (above).
	add(gFiller, `used|usato|usata|usati|usate|utilizzato|utilizzata|utilizzati|utilizzate|chosen|scelto|scelta|requested|richiesto|richiesta`)
	add(gGroupOf, `breakdown|breakdown of|distribution|distribution of|split|suddivisione|ripartizione|distribuzione|spaccato|trend|andamento`)
	add(gOnly, `only|solo|soltanto|solamente|just the`)
	add(gSize, `size|dimensione|numerosita|headcount|population size`)
	add(gBetween, `between|tra|fra|compreso tra|compresi tra`)
	add(gWhy, `why|perche|per quale motivo|come mai|explain|explanation|spiega|spiegami|spiegazione|analyze|analyse|analysis|analizza|analisi|pattern|patterns|reason|reasons|motivo|motivi|cause|causes|causa|cause principali|root cause|insight|insights|interpret|interpreta|summarize|summarise|riassumi|riassunto`)
	add(gFiller, `keep|keeps|kept|getting|get|gets|go|goes|going|come|comes|continue|continues|continuano|continua|tend|tends|happening|still being|
		everything|anything|all of it|tutto quanto|in tutto|sell|sells|vendere|vendiamo in tutto`)
	// Politeness, framing and verbs that carry no condition of their own: what they frame
	// (the measure, the values, the period) is read from the other words.
	add(gFiller, `per favore|per piacere|favore|pls|plz|thanks|thank you|grazie|
		in terms of|terms of|in termini di|when it comes to|per quanto riguarda|
		where|where the|dove|
		during|durante|nel corso di|throughout|
		came|came in|come in|came from|comes from|coming from|
		the whole period|whole period|entire period|the entire period|all time|of all time|
		tutto il periodo|l intero periodo|intero periodo|in assoluto|di sempre|da sempre|
		at least once|almeno una volta|una volta|volta|
		fa|fanno|fare|faccio|facciamo|
		brought|brought in|bring|bring in|brings|brings in|bringing in|earned|earn|earns|
		paid|pay|pays|paying|pagato|pagata|pagati|pagate|paga|pagano|hanno pagato|
		declared|declare|declares|dichiarato|dichiarata|dichiarati|dichiarate|
		involve|involves|involved|involving|riguarda|riguardano|
		give away|gave away|given away|
		quello|quella|quelli|quelle|quello di|quella di|quelli di|quelle di`)
	add(gFiller, `hey|hi|hello|ciao|buongiorno|buonasera|salve|rn|right now|actually|really|basically|
		dire|dirmi|diresti|mi diresti|mi puoi dire|puoi dire|sai dire|potresti dirmi|
		noi|da noi|voi|avete|che avete|nostro|nostra|nostri|nostre|vostro|vostra|vostri|vostre|
		racked|racked up|came up|come up|show up|shows up|showed up|turn up|turned up|
		venuti|venute|venuto|venuta|sono venuti|arriva|arrivano|arrivato|arrivati|proviene|provengono|
		identificato|identificata|identificati|identificate|individuati|individuate|
		in value terms|value terms|in terms|wise|plain|simple|semplice|semplici|straight|
		for me|per me|if possible|se possibile|quickly|veloce|al volo|yet|as yet|so far yet|
		in cui|cui|how did|how does|how do|how has|how have|all years|all the years|across all years|over all years`)
	add(gNone, `not have any|not had any|not has any|had no|have no|has no|non hanno avuto|non ha avuto`)
	add(gNot, `not counting|not including|non includendo|non compresi|non comprese`)
	add(gBy, `x`)
	add(gCount, `quante volte|how often|no of|nr of|nr di|n di|n of`)
	add(gCompare, `confrontato|confrontata|confrontati|confrontate|paragonato|paragonata|compared|comparing|confrontando`)
	add(gLeast, `bottom|in fondo`)
	add(gMost, `busiest|piu intenso|piu intensi|piu movimentato|piu movimentati`)
	add(gFrequent, `recurring|most recurring|reoccurring|recurrent|ricorrenti|piu ricorrenti`)
	add(gNot, `leaving out|leave out|left out|leaving aside|setting aside|lasciando fuori|lasciando da parte|a parte|fuorche|ignoring|without counting|senza contare|non contando`)
	// A row's own line, as "nella stessa riga" is (fillers): "orders with 3 pieces on the same line".
	add(gFiller, `on the same line|in the same line|on a single line|in a single line|on one line|sulla stessa riga|sulla stessa linea|nella stessa linea|in una sola riga|in un unica riga`)
	// Known, so that no typo correction reads "median" as "media" (the mean).
	add(gMedian, `median|mediana|mediano`)
	// Around a day number ("after day 60", "within the first 14 days"); dates read these
	// words themselves, and an unused one is uncovered.
	add(gAfter, `after|dopo|dopo il|beyond|later than|successivo al|successivi al`)
	add(gBefore, `before|prima del|prima di|earlier than`)
	add(gWithin, `within|entro|entro il|entro i|entro le`)
	add(gUnsupported, `percentile|percentili|quartile|quartili|variance|varianza|
		standard deviation|deviazione standard|std dev|stddev|weighted average|media ponderata|geometric mean|media geometrica`)
	add(gShow, `fai vedere|mi fai vedere|vedere|vediamo|let s see|lets see`)
	// "Quanti ordini superano i 40 euro": to exceed is to be more than.
	add(gGT, `supera|superano|superava|superavano|superi|superando|exceed|exceeded`)
	// The past participles ("hanno superato i 40 euro"): the auxiliary is a filler.
	add(gGT, `superato|superata|superati|superate|surpassed|topped`)
	// The whole period of the data asks for no period: every phrase of it whole, so that a
	// shorter filler at its start ("in tutto", "over the") never leaves "il periodo" or
	// "period" unread.
	add(gFiller, `in tutto il periodo|per tutto il periodo|su tutto il periodo|di tutto il periodo|tutto il periodo considerato|
		in tutto l intero periodo|sull intero periodo|per l intero periodo|l intero arco temporale|intero arco temporale|tutto l arco temporale|periodo completo|
		in tutti i dati|su tutti i dati|tutti i dati|in tutto il dataset|tutto il dataset|l intero dataset|intero dataset|
		over the whole period|for the whole period|in the whole period|during the whole period|across the whole period|
		over the entire period|for the entire period|in the entire period|across the entire period|
		full period|the full period|over the full period|for the full period|whole time period|entire time period|the whole time|the entire time|
		all the data|in all the data|across all the data|over all the data|all of the data|all data|in all data|across all data|
		the whole dataset|the entire dataset|the full dataset|whole dataset|entire dataset|full dataset|all periods|all the period`)
	// "Quanti ordini facciamo al giorno", "quanto incassiamo al mese": per day, per month.
	// "al mese di marzo" names March, no grain.
	grainBy("day", `al giorno|a giorno`)
	grainBy("month", `al mese|a mese`)
	grainBy("year", `all anno`)
	add(gFiller, `al mese di|del mese di|nel mese di|il mese di|mese di`)
	// "Quale tavolo porta più incasso": to bring frames the measure, as "brings in" does.
	add(gFiller, `porta|portano|portato|ha portato|hanno portato|portare|portava|portavano`)
	add(gGroupOf, `break down|broken down|breakdown by|ripartito|ripartiti|suddiviso|suddivisi`)
	add(gBy, `diviso per|divisa per|divise per|diviso tra|divisi tra`)
	// A search of the free text (text.go). The about words were fillers before they could
	// search, and stay fillers when no text follows them.
	add(gMention, `mention|mentions|mentioning|mentioned|that mention|which mention|
		have to do with|has to do with|having to do with|had to do with|to do with|
		talk about|talks about|talking about|deal with|deals with|dealing with|refer to|refers to|referring to|
		contain|contains|containing|with the word|with the words|
		che parlano di|parlano di|che parla di|parla di|che menzionano|menzionano|menziona|che citano|citano|
		che contengono|contengono|contiene|contenenti|con la parola|con le parole`)
	add(gAbout, `about|about the|regarding|concerning|related to|relating to|involving|involve|involves|
		on the topic of|on the subject of|riguardanti|riguarda|riguardano|che riguardano|che riguarda|
		relativi a|relative a|relativo a|relativa a|inerenti a|in merito a|a proposito di|in tema di|sul tema di`)
	// Framing of a ranking: "among the project types we actually have findings for, which
	// has the fewest", "tra quelli": the groups ranked are those with rows, as in any ranking.
	add(gAmong, `among|amongst|among those|among the ones|out of the`)
	add(gFiller, `tra quelli|tra quelle|fra quelli|fra quelle|tra questi|fra questi|per cui|for which we|that we have`)
	add(gFiller, `unweighted|arithmetic|aritmetica`) // "the plain (unweighted) average" (restatedAverage)
	add(gStarts, `begins with|begin with|beginning with|starts with|start with|starting with|inizia con|iniziano con|comincia con|cominciano con|che inizia con|che iniziano con`)
	add(gFiller, `whose name|whose names|il cui nome|i cui nomi`) // "companies whose name begins with ..."
	add(gFiller, `measured|measured in|expressed in|misurato|misurata|misurati|misurate|espresso in|espressa in|espressi in|espresse in`)
	add(gChange, `change|changed|changes|changing|go up|went up|gone up|going up|go down|went down|gone down|increase|increased|increases|
		decrease|decreased|decreases|rise|rose|risen|fall|fell|fallen|drop|dropped|decline|declined|grew|grown|shrank|shrunk|evolve|evolved|
		cambiato|cambiata|cambiati|cambiate|cambiare|variazione|variazioni|variation|variato|variata|variati|variate|aumentato|aumentata|aumentati|aumentate|
		diminuito|diminuita|diminuiti|diminuite|calato|calata|calati|calate|cresciuto|cresciuta|cresciuti|cresciute|sceso|scesa|scesi|salito|salita|saliti`)
	// Verbs of judging and appearing, intensifiers, and the inclusiveness of a range: they
	// frame a condition (the value, the range) that the other words state.
	add(gFiller, `judged|judged as|deemed|considered|considered as|rated as|classed as|categorised as|categorized as|
		appear|appears|appeared|appearing|compaiono|appaiono|figurano|
		definitely|certainly|clearly|actually|sicuramente|certamente|
		inclusive|inclusivo|both inclusive|estremi inclusi|inclusi gli estremi|compresi gli estremi`)
	// "closure rate", "tasso di chiusura": the share of the rows with the value named.
	add(gPercent, `rate|rates|tasso|ratio`)
	// "aziende diverse da Dell": other than, not "different companies".
	add(gNot, `diverso da|diversa da|diversi da|diverse da|differente da|differenti da|different from|different than|other then`)
	add(gCompare, `difference|differenza|differences|differenze|the difference in|la differenza di`)
	// Framing of a condition on a department or an owner; "aside" closes "leaving X aside"
	// (leavingAside).
	add(gFiller, `owned by|owned|belonging to|belongs to|belong to|assigned to|in charge of|in carico a|di competenza di|
		part of|parte di|fanno parte di|fa parte di|aside|da parte`)
	add(gRecent, `most recently|more recently|piu recentemente`)
	// Money names no measure of its own: the one in a currency the question names ("how much
	// money did we give away in discounts"), else the source's default ("which table brings
	// in the most money"); "quanti soldi" asks how much, not how many.
	add(gMoney, `money|soldi|denaro|quattrini|quanti soldi|quanto denaro|how much money|the money|i soldi`)
	add(gRestate, `cioe|ovvero|ossia|vale a dire|in altre parole|ie|namely|in other words`)
	// Asking to work a value out, and apologies: framing, the value asked is in the other words.
	add(gFiller, `calcolato|calcolata|calcolati|calcolate|calculated|computed|calcola|calcoli|calcolami|calcolatemi|calcolare|mi calcoli|mi calcola|puoi calcolare|calculate|compute|work out|
		scusa|scusi|scusate|scusami|scusatemi|sorry|excuse me|sono nuovo|sono nuova|sono nuovi|i am new|i m new|im new|new here|nuovo qui|nuova qui`)
	// What a discount gives away is its amount ("quanto abbiamo dato via in sconti").
	add(gFiller, `dato via|dati via|data via|date via|diamo via|regalato|regalati|regalata|regalate|regaliamo`)
	// "How many different tables did we use": the verb frames what is counted.
	add(gFiller, `use|do we use|did we use|have we used`)
	// What "we" spend is a cost the question names ("spendiamo di più in materie prime");
	// without one it says no measure ("quanto spendiamo per i camerieri": their wages).
	add(gSpend, `spendiamo|spendevamo|abbiamo speso|spendete|avete speso|we spend|we spent|do we spend|did we spend|have we spent|we ve spent|are we spending|we are spending`)
	// Chat framing and the inclusiveness of a range ("quick one", "both days included");
	// "diff" is "different" ("how many diff products"), and "diff between" a difference.
	// Shorthand for single words is in abbreviations (tokens.go).
	add(gFiller, `quick one|quick question|quick q|quick|a quick one|real quick|one more|another one|also|
		both days included|both days inclusive|both included|both ends included|both inclusive|endpoints included|
		estremi compresi|entrambi compresi|entrambi inclusi|inclusi entrambi|compresi entrambi`)
	add(gFiller, `comunque|anyway|anyways`)
	add(gDistinct, `diff|dif`)
	add(gCompare, `diff between|the diff|diff in|diff of|diff tra|diff fra`)
	// How the rows divide among the values of a field: "come si dividono gli ordini tra i vari
	// metodi di pagamento", "how are orders split across payment methods" — a breakdown by it.
	add(gGroupOf, `come si dividono|come si divide|come si ripartiscono|come si ripartisce|come si distribuiscono|come si distribuisce|
		come si suddividono|come sono divisi|come sono divise|come sono distribuiti|come sono distribuite|come sono ripartiti|come sono ripartite|
		split across|split among|split between|divided among|divided across|divided between|distributed across|distributed among|spread across|spread among`)
	add(gFiller, `how are|how is|how do|how does|various|vari|varie`)
	add(gBy, `tra i vari|tra le varie|fra i vari|fra le varie|tra i diversi|tra le diverse|fra i diversi|fra le diverse|
		among the various|among the different|across the various|across the different|among all the|across all the`)
	// Verbs that frame a condition or a share the other words state: "ordini che avevano uno
	// sconto", "clienti passati a gennaio", "la quota che viene dal 2024", "what share does the
	// United States account for", "com'è andato il fatturato".
	add(gWith, `avevano|aveva|avevamo|che avevano|che aveva`)
	add(gFiller, `passati|passato|passata|passate|sono passati|viene|vengono|veniva|venivano|
		account for|accounts for|accounted for|make up|makes up|made up|represent|represents|represented|
		rappresenta|rappresentano|rappresentava|rappresentavano|
		com e andato|come e andato|com e andata|come e andata|come sono andati|come sono andate|com sono andati|
		how did|how was|how were|d|in the data|in our data|from the data|in this data|nei dati|nei nostri dati|dai dati|
		not weighted|non ponderata|non ponderato|
		sono stati|sono state|e stato|e stata|erano stati|erano state|siano stati|siano state|sono stato|sono stata`)
	// "quanto pesano i vini sul fatturato": the share of it.
	add(gPercent, `pesano|pesa sul|pesa sulla|pesano sul|pesano sulla|pesavano|weigh|weighs`)
	add(gVs, `rispetto ad|rispetto agli|rispetto alle|rispetto allo|rispetto all`)
	// "Don't count in-progress or deferred ones": what follows is left out.
	add(gNot, `don't count|do not count|dont count|don t count|non contare|non contate|escludi|escludete|escludere`)
	add(gLE, `or earlier|and under|and below`)
	add(gGE, `or later|and over|and above|e oltre`)
	add(gOnly, `counting only|contando solo|considerando solo|only counting`)
	// The arithmetic of a measure restated by its parts ("revenue minus ingredient cost",
	// "total value divided by total kilos", "prezzo x quantità"): read only there (restate.go).
	add(gArith, `minus|divided by|divided|diviso|diviso il|diviso la|diviso i|diviso le|times|multiplied by|moltiplicato per|
		sottratto|meno il|meno la|meno i|meno le`)
	// Framing that users of reports write around what they ask: verbs that carry no condition
	// ("which quarter saw the most", "a quanto ammontano", "che rendono di più", "went to
	// Germany", "carries the highest value", "ha presentato"), the table the answer is for,
	// "calendar year", "both years together"; "confrontami" compares, "some" asks whether any.
	add(gFiller, `saw|seen|ammonta|ammontano|ammontava|ammontavano|amount to|amounts to|amounted to|
		rende|rendono|rendeva|rendevano|reso|yield|yields|yielded|went|go to|goes to|carries|carry|carried|
		presentato|presentata|presentati|presentate|presentare|presentano|presented|lodged|lodge|
		sommando|sommando tutti|summing|summing up|adding up|nel periodo|periodo|the period|period|
		demographics|demographic|demografia|demografica|safety table|summary table|tabella riassuntiva|
		calendar year|calendar|anno solare|both years|both years together|together|insieme|tutti e due gli anni|entrambi gli anni|
		averaging over|averaged over|averaging across|averaged across|into|-`)
	add(gCompare, `confrontami|confrontaci|confrontatemi|compare for me`)
	// More framing from people learning the business: "proveniente dal Giappone", "sono
	// entrati nel 2024", "stayed on treatment", "whatever the unit", "break them down by",
	// "I mean events", "dei due mesi", "counting both X and Y", "e quanto costa".
	add(gFiller, `proveniente|provenienti|provenienza|coming from|originating from|entrati|entrate|entrato|entrata|entered|
		stayed|stayed on|remained|remained on|rimasti|rimaste|rimasto|
		whatever the unit|regardless of the unit|in any unit|any unit|qualunque unita|indipendentemente dall unita|
		break|break them|break it|down|i mean|i meant|intendo|counting both|contando sia|
		dei due mesi|dei due anni|delle due|tutti e due|tutte e due|entrambi|entrambe|both of them|the two years|the two months|i due mesi|i due anni|
		e quanto costa|quanto costa|and how much is it|and what does it cost|what does it cost|how much does it cost`)
	add(gFiller, `both dates included|both dates inclusive|both ends inclusive|dates included|inclusive of both|both|dated|
		once|only once|counted once|counted only once|each counted once|counting identical|identical|counted|placed|place|fatta|fatte`)
	add(gGE, `on or after|il o dopo`)
	add(gLE, `on or before|il o prima`)
	add(gNone, `never had|never had any|never experienced|never reported|non hanno mai avuto|non ha mai avuto|mai avuto`)
	add(gSize, `how big|how large|quanto e grande|quanto grande`)
	// Formatting asked of the answer, and more framing verbs: the value is the same.
	add(gFiller, `one decimal|with one decimal|to one decimal|one decimal place|two decimals|with two decimals|to two decimals|
		one decimal please|percentages with one decimal|percentage with one decimal|rounded|round it|arrotondato|arrotondata|
		un decimale|una cifra decimale|con un decimale|due decimali|con due decimali|
		risultano|risulta|risultavano|emessi|emesse|emesso|emessa|corrisponde|corrispondono|corresponds|corresponds to|
		effettivamente|when|whenever|but`)
	// Asking to be given, and idioms of the trade: "can I get revenue month by month",
	// "quanti ordini abbiamo battuto", "il famoso food cost", "fammi la classifica",
	// "how much revenue came in through each".
	add(gFiller, `can i get|can i have|can i see|can we get|can we see|could i get|could i have|may i have|can i|could i|
		battuto|battuti|battute|battuta|famoso|famosa|cosiddetto|cosiddetta|so called|fammi|fammi la|make me|through each|through`)
	add(gRepeat, `more than once|more than one time|at least twice|two or more times|più di una volta|piu di una volta|almeno due volte|più volte|piu volte|multiple times`)
	add(gRestate, `meaning|calcolato come|calcolata come|calculated as|computed as|defined as|inteso come|intesa come`)
	// "Looking only at pizzas, …", "Guardando mese per mese, …": the scope or grouping the
	// other words state; "orders where a discount was applied": the rows with one.
	add(gFiller, `looking|looking at|looking only at|guardando|guardando a|guardando solo|focusing on|focus on|considering|considerando|limited to`)
	add(gWith, `where a|where an|where there was a|a cui e stato applicato|a cui e stata applicata|in cui c e|with any`)
	// "a prescindere dalla severità e dallo stato", "regardless of status": no condition on
	// the fields named (readRegardless).
	add(gRegardless, `regardless of|irrespective of|a prescindere da|a prescindere dalla|a prescindere dal|a prescindere dallo|
		indipendentemente da|indipendentemente dalla|indipendentemente dal|indipendentemente dallo|no matter the|whatever the`)
	// The month of the year across years is no grouping the query makes (it groups by each
	// year's month): refused, never answered with one year's month.
	add(gUnsupported, `calendar month|calendar months|month of the year|months of the year|mese dell anno|mesi dell anno`)
	add(gLeast, `piu debole|piu deboli|weakest|the weakest`)
	add(gMost, `piu forte|piu forti|strongest|the strongest`)
	add(gPercent, `fetta|che fetta|slice|quanta parte|che parte|what part`)
	add(gAny, `some`)
	add(gMention, `have the word|has the word|having the word|have the words|has the words|use the word|uses the word|using the word|contain the word|contains the word`)
	// The question words as they are often mistyped (a typo of a generic word is otherwise
	// never corrected: typos.go).
	add(gWhich, `wich|whcih|wihch|whic`)
	// "the widest range of goods": the most different ones (a count of distinct values)
	add(gMost, `widest range of|wider range of|broadest range of|widest variety of|greatest variety of|largest variety of|biggest variety of|
		widest selection of|la piu ampia varieta di|piu ampia varieta di|la maggiore varieta di|maggiore varieta di|la piu ampia gamma di|piu ampia gamma di`)
	// "subjects (not) part of the ITT population", "che fanno parte del braccio placebo":
	// membership in what follows, a framing of its condition.
	add(gFiller, `part of|a part of|belong to|belongs to|belonging to|members of|member of|included in|
		fanno parte|fa parte|facenti parte|fanno parte di|fa parte di|facenti parte di|appartengono|appartiene|appartenenti|appartenente|inclusi in|incluse in`)
	add(gFiller, `owns|own|owning`)                                 // "which department owns the most findings"
	add(gFiller, `someone|somebody|anyone|qualcuno`)                // "the orders where someone got 5 or more"
	add(gFiller, `strictly|strettamente|altogether|in all|insomma`) // "RELATED (strictly, not possibly related)", "how many kg altogether"
	// Ranks of an ordered value ("moderate or worse", "gravità media o superiore"): see ordered.go.
	add(gGE, `or worse|and worse|o peggio|o superiore|o superiori|o piu grave|o piu gravi|and above|and higher|e superiori|e oltre`)
	add(gLE, `or lower|and lower|and below|or better|or milder|o inferiore|o inferiori|o meno grave|o meno gravi`)
	grain("day", `day|days|giorno|giorni|date|dates|data|giornata|giornate`)
	grain("month", `month|months|mese|mesi`)
	grain("quarter", `quarter|quarters|trimestre|trimestri`)
	grain("year", `year|years|anno|anni`)
	grainBy("day", `daily|giornaliero|giornaliera|giornalieri|day by day|giorno per giorno|each day|ogni giorno|per day`)
	grainBy("month", `monthly|mensile|mensili|month by month|mese per mese|each month|ogni mese|per month`)
	grainBy("quarter", `quarterly|trimestrale|trimestrali|quarter by quarter|trimestre per trimestre`)
	grainBy("year", `yearly|annual|annuale|annuali|year by year|anno per anno|each year|ogni anno|per year|year over year`)
}
