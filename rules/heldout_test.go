package rules

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
)

// heldout reads the queries of an example's heldout.jsonl, if it has one.
func heldout(exampleDir string) []string {
	f, err := os.Open(filepath.Join(exampleDir, "heldout.jsonl"))
	if err != nil {
		return nil
	}
	defer f.Close()
	var qs []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var line struct {
			Query string `json:"query"`
		}
		if json.Unmarshal(sc.Bytes(), &line) == nil && line.Query != "" {
			qs = append(qs, line.Query)
		}
	}
	return qs
}
