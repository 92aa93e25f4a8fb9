package strictjson

import (
	"bytes"
	"os"
	"strconv"
	"testing"
)

// FuzzParse checks that Parse never panics, refuses whatever encoding/json refuses,
// refuses documents encoding/json accepts only for a reason readers differ on, and
// that whatever it accepts round-trips through AppendValue to an equal value (see
// checkAgreement). The seeds are in testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	f.Fuzz(func(t *testing.T, doc []byte) {
		checkAgreement(t, doc)
	})
}

// readSeed reads a seed file of the fuzzing corpus ("go test fuzz v1" and one []byte).
func readSeed(t testing.TB, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitN(data, []byte("\n"), 3)
	if len(lines) < 2 || string(lines[0]) != "go test fuzz v1" {
		t.Fatalf("%s: not a fuzz seed", path)
	}
	lit := bytes.TrimSuffix(bytes.TrimPrefix(lines[1], []byte("[]byte(")), []byte(")"))
	s, err := strconv.Unquote(string(lit))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return []byte(s)
}
