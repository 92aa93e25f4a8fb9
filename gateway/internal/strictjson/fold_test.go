package strictjson

import (
	"encoding/json"
	"testing"
	"unicode/utf8"
)

func TestFold(t *testing.T) {
	cases := []struct{ in, want string }{
		{"content", "CONTENT"},
		{"CONTENT", "CONTENT"},
		{"Tool_calls", "TOOL_CALLS"},
		{"ſtream", "STREAM"},
		{"\u212aind", "KIND"},
		{"é", "É"},
		{"ß", "ß"}, // ß and ẞ (U+1E9E) fold together, not to "ss"
		{"ẞ", "ß"},
		{"Σσς", "ΣΣΣ"},
		{"a\xffb", "A\ufffdB"},
		{"", ""},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			if got := Fold(tc.in); got != tc.want {
				t.Errorf("Fold(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestFoldEqual(t *testing.T) {
	cases := []struct {
		a, b string
		want bool
	}{
		{"content", "Content", true},
		{"tool_calls", "TOOL_CALLS", true},
		{"s", "ſ", true},
		{"k", "\u212a", true},
		{"K", "\u212a", true},
		{"ss", "ß", false},
		{"content", "contents", false},
		{"@", "`", false}, // differ by 0x20 but are not letters
		{"[", "{", false},
		{"", "", true},
		{"a\xff", "A\xfe", true}, // both U+FFFD once decoded
	}
	for _, tc := range cases {
		t.Run(tc.a+"~"+tc.b, func(t *testing.T) {
			if got := FoldEqual(tc.a, tc.b); got != tc.want {
				t.Errorf("FoldEqual(%q, %q) = %v", tc.a, tc.b, got)
			}
			if got := foldEqualBytes([]byte(tc.a), []byte(tc.b)); got != tc.want {
				t.Errorf("foldEqualBytes(%q, %q) = %v", tc.a, tc.b, got)
			}
			if got := Fold(tc.a) == Fold(tc.b); got != tc.want {
				t.Errorf("Fold(%q) == Fold(%q) is %v", tc.a, tc.b, got)
			}
			if len(tc.a) == len(tc.b) && isASCII(tc.a+tc.b) && asciiFoldEqual([]byte(tc.a), []byte(tc.b)) != tc.want {
				t.Errorf("asciiFoldEqual(%q, %q) disagrees", tc.a, tc.b)
			}
		})
	}
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// TestFoldMatchesEncodingJSON checks, rune by rune over the Basic Multilingual Plane and
// beyond, that a one-rune key is matched by encoding/json to a struct field exactly when
// Fold says it equals the field's name: Fold is the matching rule of the Go clients.
func TestFoldMatchesEncodingJSON(t *testing.T) {
	if testing.Short() {
		t.Skip("walks 70000 runes")
	}
	type fields struct {
		K  int `json:"k"`
		S  int `json:"s"`
		E  int `json:"é"`
		Mu int `json:"µ"`
	}
	names := []string{"k", "s", "é", "µ"}
	for r := rune(0x20); r < 0x11000; r++ {
		if r == '"' || r == '\\' || !utf8.ValidRune(r) {
			continue
		}
		var f fields
		key := string(r)
		doc, _ := json.Marshal(map[string]int{key: 1})
		if err := json.Unmarshal(doc, &f); err != nil {
			t.Fatal(err)
		}
		got := []bool{f.K == 1, f.S == 1, f.E == 1, f.Mu == 1}
		for i, name := range names {
			if got[i] != FoldEqual(key, name) {
				t.Errorf("key %+q: encoding/json matches field %q: %v; FoldEqual: %v", key, name, got[i], !got[i])
			}
		}
	}
}
