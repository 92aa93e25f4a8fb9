# Package weir.lib holds the helpers the built-in decisions share. It stays loaded even
# when a bundle switches the library off (library: false), so custom decisions can use it.
# The helpers are written for the hot path: no per-evaluation object building, and every
# missing key falls to the safe side (no tools, numbers must be grounded).
package weir.lib

# intent is the intent the classifier chose.
default intent := ""

intent := input.classification.intent

# tool_calls are the calls the model proposes (tools decision); [] when absent.
default tool_calls := []

tool_calls := input.tool_calls

# tools_called are the tools the conversation already called (with a result); [] when absent.
default tools_called := []

tools_called := input.tools_called

# numbers are the answer's numbers with their grounding; [] when absent.
default numbers := []

numbers := input.answer.numbers

# admitted holds when data.weir.intents has an entry for the intent.
admitted if is_object(data.weir.intents[intent])

# cfg is the intent's entry in data.weir.intents; {} when the intent is not admitted, which
# allows no tool and blocks numbers.
default cfg := {}

cfg := data.weir.intents[intent] if admitted

# blocked_set is the set of tools the intent blocks; computed once per evaluation. Always
# defined ({} when the key is missing), so `not x in blocked_set` cannot go undefined.
blocked_set := {t | some t in object.get(cfg, "blocked_tools", [])}

# allowed_set is the set of tools the intent may call: listed in allowed_tools and not in
# blocked_tools (blocked wins). Always defined ({} when the key is missing).
allowed_set := {t | some t in object.get(cfg, "allowed_tools", []); not t in blocked_set}

# tool_blocked(name) holds when the intent blocks the tool.
tool_blocked(name) if name in blocked_set

# tool_allowed(name) holds when the intent may call the tool: listed in allowed_tools and
# not in blocked_tools (blocked wins). Names are case-sensitive.
tool_allowed(name) if name in allowed_set

# allowed_tools is the sorted list of tools the intent may call.
allowed_tools := sort([t | some t in object.get(cfg, "allowed_tools", []); not t in object.get(cfg, "blocked_tools", [])])

# blocked_tools is the sorted list of tools the intent blocks.
blocked_tools := sort([t | some t in object.get(cfg, "blocked_tools", [])])

# require_tool_call holds when the intent must call an allowed tool before answering.
default require_tool_call := false

require_tool_call if cfg.require_tool_call == true

# block_numeric_generation holds unless the intent sets it to false: numbers must be grounded.
default block_numeric_generation := false

block_numeric_generation if not cfg.block_numeric_generation == false

# allow_derivations holds when one arithmetic step from source numbers counts as grounded.
default allow_derivations := false

allow_derivations if cfg.allow_derivations == true

# ignore_small_integers holds when the intent exempts trivial numbers (bare integers ≤ 10
# such as "3 leve") from grounding.
default ignore_small_integers := false

ignore_small_integers if cfg.ignore_small_integers == true

# number_sources are the source kinds numbers may come from: all by default, none when the
# intent is not admitted.
default number_sources := ["tool", "user", "system"]

number_sources := cfg.number_sources

number_sources := [] if not admitted

# number_grounded(n) holds when n is grounded in an admitted kind of source, and is not a
# derivation unless the intent allows derivations.
number_grounded(n) if {
	ignore_small_integers
	n.trivial == true
}

number_grounded(n) if {
	n.grounded == true
	n.source_kind in number_sources
	derivation_ok(n)
}

derivation_ok(n) if object.get(n, "derivation", "") == ""

derivation_ok(n) if allow_derivations
