package docs

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/weirgw/weir/adapters/docs/internal/mdpdf"
)

var update = flag.Bool("update", false, "rewrite examples/clinical/docs/protocol.pdf from its Markdown source")

// clinicalDocs is the clinical example's document folder.
const clinicalDocs = "../../examples/clinical/docs"

// renderProtocol renders the demo protocol's Markdown source the way the committed PDF was.
func renderProtocol(t testing.TB) []byte {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(clinicalDocs, "source", "protocol.md"))
	if err != nil {
		t.Fatal(err)
	}
	return mdpdf.Render(src, mdpdf.Options{
		Title:  "Clinical Study Protocol STUDY01 (fictional)",
		Footer: "STUDY01 Clinical Study Protocol - Version 2.0 - Fictional document for the Weir demo",
	})
}

// TestDemoProtocolPDF keeps the shipped PDF the rendering of its Markdown source, so the
// PDF is reproducible and the two never drift. After editing the source:
//
//	go test ./adapters/docs -run TestDemoProtocolPDF -update
func TestDemoProtocolPDF(t *testing.T) {
	got := renderProtocol(t)
	path := filepath.Join(clinicalDocs, "protocol.pdf")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is not the rendering of source/protocol.md: run go test ./adapters/docs -run TestDemoProtocolPDF -update", path)
	}
}
