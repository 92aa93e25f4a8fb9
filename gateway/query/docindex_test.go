package query

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weirgw/weir/gateway/config"
)

// TestOpenDocsKeepsUnchangedIndexes: a reopen with the same files and settings keeps the
// index (a reload does not reindex) even when the tool name changes; a changed file gets a
// new index, and the old one is retired; a search returns passages of the source.
func TestOpenDocsKeepsUnchangedIndexes(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "protocol.md")
	write := func(s string) {
		if err := os.WriteFile(file, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("# Sample size\n\nAssuming a dropout rate of 15%, 12 participants are randomised per arm.\n")
	cfg := config.DocumentSource{Name: "pdf", Paths: []string{file}, Dir: dir, Tool: "search_protocol", ChunkWords: 200, OverlapWords: 40, Limit: 5}
	ctx := context.Background()
	first, err := OpenDocs(ctx, []config.DocumentSource{cfg}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := first["pdf"].Search(ctx, "dropout rate", 0)
	if err != nil || len(ps) != 1 || ps[0].Source != "pdf" || ps[0].File != "protocol.md" {
		t.Fatalf("%+v %v", ps, err)
	}
	renamed := cfg
	renamed.Tool = "search_documents"
	second, err := OpenDocs(ctx, []config.DocumentSource{renamed}, first)
	if err != nil {
		t.Fatal(err)
	}
	if second["pdf"].Index() != first["pdf"].Index() || second["pdf"].Tool() != "search_documents" || len(RetiredDocs(first, second)) != 0 {
		t.Fatal("an unchanged index was not kept")
	}
	write("# Sample size\n\nAssuming a dropout rate of 20%.\n")
	third, err := OpenDocs(ctx, []config.DocumentSource{renamed}, second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, d := range RetiredDocs(third, nil) {
			d.Close()
		}
	})
	retired := RetiredDocs(second, third)
	if third["pdf"].Index() == second["pdf"].Index() || len(retired) != 1 || retired[0] != second["pdf"] {
		t.Fatal("a changed file did not give a new index")
	}
	retired[0].Close()
}

// TestOpenDocsError: a source that does not open fails the whole set, naming it, and closes
// what was opened for it.
func TestOpenDocsError(t *testing.T) {
	bad := config.DocumentSource{Name: "pdf", Paths: []string{filepath.Join(t.TempDir(), "missing*.md")}, Tool: "search_protocol", ChunkWords: 200, OverlapWords: 40}
	if _, err := OpenDocs(context.Background(), []config.DocumentSource{bad}, nil); err == nil || !strings.Contains(err.Error(), "documents pdf") {
		t.Fatalf("err %v", err)
	}
}
