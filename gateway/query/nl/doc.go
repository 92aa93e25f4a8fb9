// Package nl reads a question into a semantic query (adapters/data/semantic): the words
// of the question are matched against the layer's vocabulary (the measures, dimensions,
// values and entities each dataset declares, and the values read from the data) and a
// small generic lexicon of English and Italian (aggregations, rankings, comparisons,
// negation, dates and ranges). Every content word must be understood: a word the parser
// cannot place is listed in Query.Uncovered, so that Weir says it cannot answer instead of
// answering something nearby. A reading is added only where it is unambiguous; where two
// readings could give different numbers, the question is refused.
//
// The files follow the reading's order:
//
//   - tokens.go, typos.go: words, numbers, codes and quoted text; contractions and chat
//     abbreviations; a word one edit from exactly one word of the layer (or of a few long
//     lexicon words, or of a closed list of values) read as it, with a note.
//   - lexicon.go, vocab.go, weekdays.go: the generic lexicon and the layer's vocabulary.
//   - purpose.go, preamble.go: what the answer is for ("for the board meeting") and leading
//     clauses about the one asking ("I'm new here:") that name nothing of the data or only
//     what the question names again, removed before reading, each said in a note.
//   - parse.go, dates.go, vague.go, yearstart.go, resolve.go: items (phrases, numbers,
//     dates) and the periods they name ("da inizio anno" too), resolved against today or
//     the data's own range.
//   - read.go: the reader: unknown words, the fact source, what the question asks that no
//     part of the query uses (leftovers: refused, never dropped).
//   - values.go, negation.go, text.go: conditions on values, exclusions, "X, not Y",
//     "regardless of <fields>", text searches (in every text field, or the one named after
//     the text) and conditions on a field's text.
//   - numbers.go, numlist.go, days.go: thresholds, ranges, lists of values, top N, day
//     numbers of a study.
//   - times.go, dategrain.go: periods as conditions, comparisons of periods, changes
//     between two periods (in percent when asked), grouping by a date's grain.
//   - group.go, distinct.go, avgsuper.go: the dimension a question groups or ranks by.
//   - measures.go, per.go, perarticle.go, restate.go: what is computed: named measures
//     (with their basis, "lordo"; a measure on another basis than the layer declares is
//     refused; two measures with a percentage are the ratio the layer declares),
//     aggregations of a field, medians, counts of rows, entities or distinct values,
//     averages per group or per entity; a measure restated by its parts and arithmetic.
//   - shape.go, rowsuper.go, shareperiod.go: rows, a value, values per group, a ranking, a
//     comparison, a share.
package nl
