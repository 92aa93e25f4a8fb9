package judge

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"
)

// Asker answers one question: the HTTP status and the response body.
type Asker func(question string) (int, []byte, error)

// ReadSet reads a question set (JSON lines).
func ReadSet(path string) ([]Question, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []Question
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for line := 1; sc.Scan(); line++ {
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 || text[0] == '#' {
			continue
		}
		var q Question
		dec := json.NewDecoder(bytes.NewReader(text))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&q); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, line, err)
		}
		out = append(out, q)
	}
	return out, sc.Err()
}

// Graded is a question with its verdict.
type Graded struct {
	Question
	Verdict
}

// Run asks every question and grades the answers.
func Run(qs []Question, ask Asker) ([]Graded, error) {
	out := make([]Graded, 0, len(qs))
	for _, q := range qs {
		status, body, err := ask(q.Query)
		if err != nil {
			return nil, fmt.Errorf("%q: %w", q.Query, err)
		}
		out = append(out, Graded{q, Judge(q, status, body)})
	}
	return out, nil
}

// Summary counts the classes.
func Summary(gs []Graded) map[string]int {
	m := map[string]int{}
	for _, g := range gs {
		m[g.Class]++
	}
	return m
}

// Report writes one line per question that is not exact, then the counts.
func Report(name string, gs []Graded) string {
	var b strings.Builder
	for _, g := range gs {
		if g.Class != Exact {
			fmt.Fprintf(&b, "%-7s %-8s %q: %s\n", g.Class, g.Kind, g.Query, g.Detail)
		}
	}
	m := Summary(gs)
	keys := []string{Exact, Wrong, Refused, Other}
	sort.Strings(keys[4:])
	fmt.Fprintf(&b, "%s: %d questions: exact %d (%.1f%%), wrong number %d, refused/empty %d, other %d\n", name, len(gs),
		m[Exact], 100*float64(m[Exact])/float64(max(1, len(gs))), m[Wrong], m[Refused], m[Other])
	return b.String()
}

// BinaryAsker runs `bin query --config config [--mode mode] question` and reads its output:
// exit 0 is a 200 answer, exit 1 with a JSON error body a refusal.
func BinaryAsker(bin, config, mode string, env []string) Asker {
	return func(question string) (int, []byte, error) {
		args := []string{"query", "--config", config}
		if mode != "" {
			args = append(args, "--mode", mode)
		}
		cmd := exec.Command(bin, append(args, question)...)
		cmd.Env = append(os.Environ(), env...)
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		status := 200
		if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 && json.Valid(out.Bytes()) {
			status, err = 400, nil
		}
		if err != nil {
			return 0, nil, fmt.Errorf("%v: %s", err, errOut.String())
		}
		return status, out.Bytes(), nil
	}
}
