// Package grounding is Weir's deterministic numeric grounding checker: it
// finds the numbers of a model's answer and says, for each, whether it comes
// from a source the gateway can see — a tool result, the user's messages, the
// system prompt — and from where.
//
// Extract reads numbers as people write them in English and Italian
// ("21956.62", "21,956.62", "21.956,62 €", "1 913", "1'234.50", "35,02%",
// "$1.2M", "22k", "3,5 mln", "4.8e4", "0xBC55", signs, ranges and joins
// ("21956.62-48213.77", "30x40"), number words such as "ventiduemila",
// "half a million" and digits spelled one by one ("quattro-otto-due virgola
// sette")), and as readers see them: every text is folded first (digits of
// any script, format characters removed, compatibility forms, HTML character
// references), with spans kept in the original text. It skips what is no
// quantity: list markers, table row numbers and section numbers, ordinals,
// dates, times, years (a bare 4-digit integer from 1900 to 2100),
// identifiers ("gpt-4o", "v1.2.3", "ID-48213" — but not an amount after a
// label: "ID-48213.77"), phone numbers, URL addresses (a query value that
// is an amount is read), e-mail addresses, and number words that are prose
// ("tre leve", "un cliente"). Code spans and blocks are read like any text:
// a reader sees the number in `48213.77`.
//
// NewIndex collects the numbers of the sources once (JSON tool results value
// by value with their JSON path); Check grounds each number of an answer:
//
//   - directly, when a source number rounds to it at the precision it is
//     written with ("23.3" and "23" for 23.333, "22k" for 21956.62);
//   - as a ratio written as a percentage and back ("35.02%" for 0.3502);
//   - with Options.AllowDerivations, as one arithmetic step between two
//     source numbers ("+50% of 21956.62 is 32934.93"), only when the number
//     is written with enough significant digits for a chance match to be
//     unlikely, and with operands the reader can see; as the total of a
//     listed group ("in totale 941"); or, written with fewer digits, from
//     the operands next to it (shown, or named through Options.Names) when
//     fewer than 5% of the numbers written like it are one step from them.
//
// The checker cannot tell whether a grounded number is used for the right
// thing, and it skips years and numbers in code. README.md states the rules,
// the limits and the measured false-grounding rates.
package grounding
