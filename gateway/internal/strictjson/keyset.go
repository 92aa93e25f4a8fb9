package strictjson

// KeySet is a set of known keys of one wire format object (a message's "role",
// "content", "tool_calls", ...), built once, that finds keys which are case variants of
// them. A lone "Tool_calls" passes Parse, which refuses only two keys of one object that
// fold together; but a Go client decoding into a struct reads it as tool_calls, so a
// codec must refuse it too.
type KeySet struct {
	folded map[string]string // Fold(key) → key
}

// NewKeySet returns the set of keys. Two keys that fold together make no sense in one
// set; the first is kept.
func NewKeySet(keys ...string) *KeySet {
	s := &KeySet{folded: make(map[string]string, len(keys))}
	for _, k := range keys {
		if _, dup := s.folded[Fold(k)]; !dup {
			s.folded[Fold(k)] = k
		}
	}
	return s
}

// Variant returns the known key that key is a case variant of: equal under Fold but not
// byte for byte ("Content", "ſtream", "\u212aind" for "kind"). ok is false for a known key
// itself and for an unrelated key. It does not allocate for keys of up to 64 bytes.
func (s *KeySet) Variant(key string) (known string, ok bool) {
	known = s.lookup(key)
	if known == "" || known == key {
		return "", false
	}
	return known, true
}

// Has reports whether key is one of the known keys, exactly.
func (s *KeySet) Has(key string) bool { return key != "" && s.lookup(key) == key }

// lookup returns the known key that folds like key, "" for none.
func (s *KeySet) lookup(key string) string {
	var buf [64]byte
	return s.folded[string(appendFold(buf[:0], key))]
}
