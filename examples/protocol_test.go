package examples

import (
	"bufio"
	"encoding/json"
	"os"
	"path"
	"strings"
	"testing"

	"github.com/weirgw/weir/adapters/data/sqlstore/pgtest"
)

// protocolQuestion is one line of clinical/protocol_questions.jsonl: a question the demo
// protocol documents answer, and the file, page and section of the passage that does.
type protocolQuestion struct {
	Question string `json:"question"`
	File     string `json:"file"`
	Page     int    `json:"page"`
	Section  string `json:"section"`
	Passage  string `json:"passage"`
}

func readProtocolQuestions(t *testing.T) []protocolQuestion {
	t.Helper()
	f, err := os.Open("clinical/protocol_questions.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []protocolQuestion
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		var q protocolQuestion
		if err := json.Unmarshal(sc.Bytes(), &q); err != nil || q.Question == "" || q.File == "" {
			t.Fatalf("protocol_questions.jsonl:%d: %v", line, err)
		}
		out = append(out, q)
	}
	return out
}

// cite is how an answer cites the passage that answers q: "protocol.pdf p. 7", or for a
// file without pages "sap.md § 3.3 Dropout" (its innermost heading), as docs.Cite does.
func (q protocolQuestion) cite() string {
	name := path.Base(q.File)
	if q.Page > 0 {
		return name + " p. " + itoa(q.Page)
	}
	parts := strings.Split(q.Section, " > ")
	return name + " § " + parts[len(parts)-1]
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestProtocolQuestions asks the clinical example's query route, without a model, every
// protocol question (protocol_questions.jsonl): whatever intent the rules give it, the
// answer must quote the passage that answers it, cited with its file and page, and the
// metadata must list that passage among the sources. The documents are indexed in the
// embedded SQLite and, when WEIR_TEST_POSTGRES_DSN is set, in PostgreSQL.
func TestProtocolQuestions(t *testing.T) {
	qs := readProtocolQuestions(t)
	t.Run("sqlite", func(t *testing.T) { askProtocolQuestions(t, qs) })
	t.Run("postgres", func(t *testing.T) {
		dsn := pgtest.DSN(t)
		if dsn == "" {
			t.Skip("no PostgreSQL")
		}
		t.Setenv("WEIR_DOCS_DSN", dsn)
		askProtocolQuestions(t, qs)
	})
}

func askProtocolQuestions(t *testing.T, qs []protocolQuestion) {
	ask := inProcess(t, "clinical", "")
	for _, q := range qs {
		status, body, err := ask(q.Question)
		if err != nil || status != 200 {
			t.Errorf("%q: %d %v %s", q.Question, status, err, body)
			continue
		}
		var resp struct {
			Answer   string `json:"answer"`
			Metadata struct {
				Intent  string `json:"intent"`
				Sources []struct {
					Name     string `json:"name"`
					Passages []struct {
						File string `json:"file"`
						Page int    `json:"page"`
					} `json:"passages"`
				} `json:"sources"`
			} `json:"metadata"`
		}
		if err := json.Unmarshal(body, &resp); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(resp.Answer, "From "+q.cite()+": \"") {
			t.Errorf("%q (intent %s): %s is not quoted in %q", q.Question, resp.Metadata.Intent, q.cite(), resp.Answer)
		}
		listed := false
		for _, s := range resp.Metadata.Sources {
			for _, p := range s.Passages {
				listed = listed || (s.Name == "pdf" && p.File == q.File && p.Page == q.Page)
			}
		}
		if !listed {
			t.Errorf("%q: %s p. %d is not among the metadata's passages", q.Question, q.File, q.Page)
		}
	}
}
