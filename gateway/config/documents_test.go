package config

import (
	"strings"
	"testing"
	"time"
)

const docsBase = `rules: r
policies: p
routes:
  - {name: q, surface: query, auth: none, sources: [adsl, protocol]}
data:
  - {name: adsl, schema: s.yaml, csv: a.csv, tool: query_adsl}
documents:
`

func TestDocumentsValid(t *testing.T) {
	src := docsBase + `  - name: protocol
    paths: [docs/*.pdf, /abs/sap.md]
    dsn: ${DOCS_DSN:-}
    tool: search_protocol
  - name: manuals
    paths: [manuals/*.txt]
    dsn: postgres://weir:secret@db:5432/weir
    chunk_words: 100
    overlap_words: 10
    limit: 8
    timeout: 2s
`
	cfg, err := parse("weir.yaml", "/etc/weir/weir.yaml", []byte(src), env(nil))
	if err != nil {
		t.Fatal(err)
	}
	p, m := cfg.Documents[0], cfg.Documents[1]
	if p.Tool != "search_protocol" || p.ChunkWords != 200 || p.OverlapWords != 40 || p.Limit != 5 || p.Timeout.Std() != 5*time.Second {
		t.Errorf("defaults = %+v", p)
	}
	if p.Paths[0] != "/etc/weir/docs/*.pdf" || p.Paths[1] != "/abs/sap.md" || p.Dir != "/etc/weir" {
		t.Errorf("paths = %q, dir %q", p.Paths, p.Dir)
	}
	if m.Tool != DefaultDocumentTool || m.ChunkWords != 100 || m.OverlapWords != 10 || m.Limit != 8 {
		t.Errorf("manuals = %+v", m)
	}
	ix := p.Index()
	if ix.Name != "protocol" || ix.BaseDir != "/etc/weir" || len(ix.Paths) != 2 || ix.ChunkWords != 200 || ix.Timeout != 5*time.Second {
		t.Errorf("Index() = %+v", ix)
	}
	if d := cfg.Dump(); strings.Contains(d, "secret") || !strings.Contains(d, "weir:redacted@db") {
		t.Errorf("Dump shows the DSN password:\n%s", d)
	}
}

func TestDocumentsErrors(t *testing.T) {
	tests := []struct {
		name, docs string
		want       string
	}{
		{"name required", "  - {paths: [a.md]}\n", "weir.yaml:8: config_invalid: documents[0].name is required"},
		{"bad name", "  - {name: 'my docs', paths: [a.md]}\n", `weir.yaml:8: config_invalid: document source "my docs": name must be a letter`},
		{"name taken by data", "  - {name: adsl, paths: [a.md]}\n", `weir.yaml:8: config_invalid: document source "adsl": the name is already used`},
		{"duplicate name", "  - {name: protocol, paths: [a.md]}\n  - {name: protocol, paths: [b.md], tool: t2}\n", `weir.yaml:9: config_invalid: document source "protocol": the name is already used`},
		{"tool taken by data", "  - {name: protocol, paths: [a.md], tool: query_adsl}\n", `weir.yaml:8: config_invalid: document source "protocol": tool "query_adsl" is already offered`},
		{"bad tool", "  - {name: protocol, paths: [a.md], tool: 'search protocol'}\n", `tool must be 1-64 letters`},
		{"no paths", "  - {name: protocol}\n", `weir.yaml:8: config_invalid: document source "protocol": paths (files or glob patterns) are required`},
		{"bad glob", "  - name: protocol\n    paths: [ok.md, 'docs/[x']\n", `weir.yaml:9: config_invalid: document source "protocol": paths[1] "/x/docs/[x" is not a valid glob pattern`},
		{"bad dsn", "  - name: protocol\n    paths: [a.md]\n    dsn: mysql://x\n", `weir.yaml:10: config_invalid: document source "protocol": sqlstore: unsupported DSN scheme "mysql"`},
		{"chunk too small", "  - name: protocol\n    paths: [a.md]\n    chunk_words: 5\n", `weir.yaml:10: config_invalid: document source "protocol": chunk_words must be between 20 and 2000, not 5`},
		{"overlap too big", "  - name: protocol\n    paths: [a.md]\n    chunk_words: 50\n    overlap_words: 30\n", `weir.yaml:11: config_invalid: document source "protocol": overlap_words`},
		{"limit too big", "  - name: protocol\n    paths: [a.md]\n    limit: 50\n", `weir.yaml:10: config_invalid: document source "protocol": limit must be between 1 and 20`},
		{"unknown key", "  - {name: protocol, paths: [a.md], chunk_size: 100}\n", `weir.yaml:8: config_unknown_key: unknown key "chunk_size" in documents[0]`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parse("weir.yaml", "/x/weir.yaml", []byte(docsBase+tc.docs), env(nil))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v\nwant %s", err, tc.want)
			}
		})
	}
}

// TestDocumentsAsRouteSources: a query route may name a document source, and may have
// documents as its only sources.
func TestDocumentsAsRouteSources(t *testing.T) {
	src := "rules: r\npolicies: p\nroutes:\n  - {name: q, surface: query, auth: none, sources: [protocol]}\ndocuments:\n  - {name: protocol, paths: [a.md]}\n"
	if _, err := parse("weir.yaml", "/x/weir.yaml", []byte(src), env(nil)); err != nil {
		t.Errorf("documents only: %v", err)
	}
	src = "rules: r\npolicies: p\nroutes:\n  - {name: q, surface: query, auth: none, sources: [nope]}\ndocuments:\n  - {name: protocol, paths: [a.md]}\n"
	if _, err := parse("weir.yaml", "/x/weir.yaml", []byte(src), env(nil)); err == nil || !strings.Contains(err.Error(), `unknown data source "nope"`) {
		t.Errorf("unknown source: %v", err)
	}
}
