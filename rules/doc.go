// Package rules is Weir's first stage: it compiles a rule pack (a directory of YAML files:
// intents, normalization, alias tables, extractors, weighted rules, ordered overrides and
// inline tests) into an immutable Pack, and classifies questions with it.
//
// Compile, then serve: LoadDir validates everything (unknown keys, regexes, expr
// expressions, references between rules, intents and alias tables) and reports every
// problem as `file:line: code: message`. Classification only reads the compiled pack:
//
//	cap → normalize → literal prefilter → extract fields → match rules → score → decide → confidence
//	                                                                           └─ below fallback.below: Fallback tier or pack default
//
// The prefilter (package rules/internal/prefilter: Aho–Corasick over the literals every
// regex requires, and plans that answer from the literals' positions) keeps regexes that
// cannot match from running; it exists only for speed, and tests run the same corpus with and
// without it. Expressions with a Go form skip expr's VM (cond.go); they too are checked
// against the VM. expr is imported by this package only. rules/README.md is the language
// reference for authors.
package rules
