// Package prefilter is the classifier's fast path: it decides, with one Aho–Corasick scan of
// the question, which of a pack's regexes can match, and answers MatchString and FindAll for
// them by the cheapest road that gives exactly the regex's answer — a plan over the literals'
// positions (exact, loop, branch), the regex run only where a match can start (anchor) or
// only around a required literal (window), or the plain regex.
//
// It exists only to make rules classify fast: every verdict equals the plain regexp's, and
// the tests run the same corpora (the example packs' patterns among them) through both. The
// text given to a prefilter built by New or NewTerms must be fold-canonical (see package fold);
// one built from ExactCase trees works on any text.
//
// Compile, then serve: New analyses the parse trees once; Decide, MatchString and Each only
// read the prefilter and write the caller's Scratch.
package prefilter
