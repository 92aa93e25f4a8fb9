package strictjson

import "testing"

func TestKeySet(t *testing.T) {
	s := NewKeySet("role", "content", "tool_calls", "stream", "kind")
	cases := []struct {
		key, known string
		variant    bool
		has        bool
	}{
		{"content", "", false, true},
		{"Content", "content", true, false},
		{"TOOL_CALLS", "tool_calls", true, false},
		{"Tool_calls", "tool_calls", true, false},
		{"ſtream", "stream", true, false},
		{"\u212aind", "kind", true, false},
		{"contents", "", false, false},
		{"toolcalls", "tool_calls", true, false},
		{"Tool-Calls", "tool_calls", true, false},
		{"_content", "content", true, false},
		{"con-tent", "content", true, false},
		{"st_ream", "stream", true, false},
		{"", "", false, false},
		{"name", "", false, false},
	}
	for _, tc := range cases {
		t.Run(tc.key, func(t *testing.T) {
			known, ok := s.Variant(tc.key)
			if known != tc.known || ok != tc.variant {
				t.Errorf("Variant(%q) = %q, %v; want %q, %v", tc.key, known, ok, tc.known, tc.variant)
			}
			if got := s.Has(tc.key); got != tc.has {
				t.Errorf("Has(%q) = %v", tc.key, got)
			}
		})
	}
	if n := testing.AllocsPerRun(100, func() { s.Variant("Tool_Calls"); s.Has("content") }); n != 0 {
		t.Errorf("Variant allocates %v times", n)
	}
}
