package docs

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// protocolQuestion is one line of examples/clinical/protocol_questions.jsonl: a question the
// clinical example's documents answer, and where the answer is.
type protocolQuestion struct {
	Question string `json:"question"`
	File     string `json:"file"`
	Page     int    `json:"page"`
	Section  string `json:"section"`
	Passage  string `json:"passage"` // words the answering passage contains
}

func loadProtocolQuestions(t *testing.T) []protocolQuestion {
	t.Helper()
	f, err := os.Open("../../examples/clinical/protocol_questions.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []protocolQuestion
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		var q protocolQuestion
		dec := json.NewDecoder(strings.NewReader(sc.Text()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&q); err != nil || q.Question == "" || q.File == "" || q.Passage == "" {
			t.Fatalf("protocol_questions.jsonl:%d: %v %+v", line, err, q)
		}
		out = append(out, q)
	}
	return out
}

// TestProtocolQuestions: for every question of the clinical example, the passage that
// answers it (its file, page, section and words) is among the first three results, on
// every backend, with the example's own document configuration.
func TestProtocolQuestions(t *testing.T) {
	qs := loadProtocolQuestions(t)
	if len(qs) < 20 {
		t.Fatalf("%d protocol questions, want at least 20", len(qs))
	}
	for _, be := range backends(t) {
		t.Run(be.name, func(t *testing.T) {
			ix := openIndex(t, Config{Name: "protocol", BaseDir: filepath.Dir(clinicalDocs), DSN: be.dsn,
				Paths: []string{"docs/*.pdf", "docs/*.md"}})
			for _, q := range qs {
				ps := search(t, ix, q.Question, 3)
				if rank := answerRank(ps, q); rank == 0 {
					t.Errorf("%q: %s p%d %q not in the top 3: %s", q.Question, q.File, q.Page, q.Section, cites(ps))
				}
			}
		})
	}
}

func answerRank(ps []Passage, q protocolQuestion) int {
	for i, p := range ps {
		if p.File == q.File && p.Page == q.Page && p.Section == q.Section &&
			strings.Contains(strings.Join(strings.Fields(p.Text), " "), q.Passage) {
			return i + 1
		}
	}
	return 0
}

func cites(ps []Passage) string {
	var s []string
	for _, p := range ps {
		s = append(s, p.ChunkID+" ["+p.Section+"]")
	}
	return strings.Join(s, ", ")
}
