package policies

import (
	"fmt"
	"slices"
	"sort"
)

// CrossCheck checks a rule pack against the bundle: every intent of the pack has an entry
// in data.weir.intents, every tool a route names is known to the policy (allowed or blocked
// for some intent, or listed in known_tools), and a route's tools are allowed for the
// route's intent. routeTools maps an intent to the tools its route uses. Bundles with
// library: false and no intents data are not checked for intents.
func CrossCheck(b *Bundle, intents []string, routeTools map[string][]string) []error {
	var errs []error
	policy := b.data.intents
	if b.data.library || policy != nil {
		for _, name := range intents {
			if _, ok := policy[name]; !ok {
				errs = append(errs, fmt.Errorf("intent %q of the rule pack has no policy entry (data.weir.intents.%s): its requests are denied with intent_not_admitted", name, name))
			}
		}
	}
	known := b.knownTools()
	for _, intent := range sortedKeys(routeTools) {
		for _, tool := range routeTools[intent] {
			if !slices.Contains(known, tool) {
				errs = append(errs, fmt.Errorf("route of intent %q names tool %q, which the policy does not know (add it to allowed_tools, blocked_tools or known_tools)", intent, tool))
				continue
			}
			ip, ok := policy[intent]
			if ok && b.data.library && (!slices.Contains(ip.AllowedTools, tool) || slices.Contains(ip.BlockedTools, tool)) {
				errs = append(errs, fmt.Errorf("route of intent %q names tool %q, which the policy does not allow for %q: every call would be denied", intent, tool, intent))
			}
		}
	}
	return errs
}

// knownTools returns every tool the bundle data names, sorted.
func (b *Bundle) knownTools() []string {
	set := map[string]bool{}
	for _, t := range b.data.knownTools {
		set[t] = true
	}
	for _, ip := range b.data.intents {
		for _, t := range append(append([]string(nil), ip.AllowedTools...), ip.BlockedTools...) {
			set[t] = true
		}
	}
	return sortedKeys(set)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
