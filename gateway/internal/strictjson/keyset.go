package strictjson

// KeySet is a set of known keys of one wire format object (a message's "role",
// "content", "tool_calls", ...), built once, that finds keys which some Go reader would
// take for one of them. A lone "Tool_calls" passes Parse, which refuses only two keys of
// one object that fold together; but a Go client decoding into a struct reads it as
// tool_calls, so a codec must refuse it too.
type KeySet struct {
	folded map[string]string // Fold(key) → key
	loose  map[string]string // the fold without '_' and '-' → key
}

// NewKeySet returns the set of keys. Of two keys that fold together, the first is kept.
func NewKeySet(keys ...string) *KeySet {
	s := &KeySet{folded: make(map[string]string, len(keys)), loose: make(map[string]string, len(keys))}
	for _, k := range keys {
		add(s.folded, string(appendFold(nil, k, false)), k)
		add(s.loose, string(appendFold(nil, k, true)), k)
	}
	return s
}

func add(m map[string]string, folded, key string) {
	if _, dup := m[folded]; !dup {
		m[folded] = key
	}
}

// Variant returns the known key that key is a variant of, and ok; ok is false for a known
// key itself and for an unrelated key. A variant differs from the known key but
//
//   - is equal to it under Fold, as encoding/json matches struct fields ("Content",
//     "ſtream", "\u212aind" for "kind"), or
//   - is equal to it under the case-insensitive matching of encoding/json/v2 (the
//     case:ignore tag option or MatchCaseInsensitiveNames), which also ignores '_' and
//     '-' ("toolcalls", "Tool-Calls", "_content" for "tool_calls" and "content").
//
// It does not allocate for keys of up to 64 bytes.
func (s *KeySet) Variant(key string) (known string, ok bool) {
	var buf [64]byte
	known, found := s.folded[string(appendFold(buf[:0], key, false))]
	if !found {
		known, found = s.loose[string(appendFold(buf[:0], key, true))]
	}
	if !found || known == key {
		return "", false
	}
	return known, true
}

// Has reports whether key is one of the known keys, exactly.
func (s *KeySet) Has(key string) bool {
	var buf [64]byte
	known, found := s.folded[string(appendFold(buf[:0], key, false))]
	return found && known == key
}
