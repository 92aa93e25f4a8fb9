package openai

import (
	"slices"

	"github.com/weirgw/weir/gateway/internal/strictjson"
)

// keys is an allowlist of an object's exact keys, with what finds their variants.
type keys struct {
	list []string
	set  *strictjson.KeySet
}

func newKeys(list ...string) *keys { return &keys{list: list, set: strictjson.NewKeySet(list...)} }

// object reads the members of obj against known, its allowlist of exact keys: fn gets each
// known member; a variant of a known key — equal to it under case folding, or under the
// looser matching some decoders use (without '_' and '-') — is refused with code, since a
// client could read it as the known key; any other key goes to unknown, which refuses it
// (an error) or drops it (nil).
func object(obj strictjson.Value, path string, known *keys, code string,
	fn func(key string, v strictjson.Value) error, unknown func(key string) error) error {
	if obj.Kind() != strictjson.Object {
		if path == "" {
			return errorf(code, "the body is not a JSON object")
		}
		return errorf(code, "%s must be an object", path)
	}
	for k, v := range obj.Members() {
		if slices.Contains(known.list, k) {
			if err := fn(k, v); err != nil {
				return err
			}
			continue
		}
		if twin, ok := known.set.Variant(k); ok {
			return errorf(code, "%s: the key %q differs only in case from %q; clients could read it as %q or ignore it", orTop(path), k, twin, twin)
		}
		if err := unknown(k); err != nil {
			return err
		}
	}
	return nil
}

// drop is object's unknown for what Weir does not forward: dropped.
func drop(string) error { return nil }

// refuse returns object's unknown for a client's request: an unknown key is refused.
func refuse(path string) func(string) error {
	return func(k string) error {
		return errorf(CodeUnsupported, "%s: %q is not a parameter weir forwards", join(path, k), k)
	}
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func index(path string, i int) string {
	return path + "[" + itoa(i) + "]"
}

func orTop(path string) string {
	if path == "" {
		return "the body"
	}
	return path
}

func itoa(i int) string {
	if i >= 0 && i < 10 {
		return string(rune('0' + i))
	}
	var b [20]byte
	n := len(b)
	neg := i < 0
	if neg {
		i = -i
	}
	for i > 0 {
		n--
		b[n] = byte('0' + i%10)
		i /= 10
	}
	if neg {
		n--
		b[n] = '-'
	}
	return string(b[n:])
}

// str reads a string member (null counts as absent); another kind is refused.
func str(v strictjson.Value, path, code string) (string, error) {
	switch v.Kind() {
	case strictjson.String:
		return v.Str(), nil
	case strictjson.Null:
		return "", nil
	}
	return "", errorf(code, "%s must be a string", path)
}
