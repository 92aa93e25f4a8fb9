package config

import (
	"fmt"
	"net/url"
	"path/filepath"
	"regexp"
	"time"

	"github.com/weirgw/weir/adapters/docs"
)

// DocumentSource is one entry of `documents:`, a set of documents (protocols, plans,
// manuals) that query routes search through a tool, like a data source:
//
//	documents:
//	  - name: pdf                          # the name intents' route sources use
//	    paths: [docs/*.pdf, docs/*.md]     # files or globs, relative to this config
//	    dsn: ${WEIR_DOCS_DSN:-}            # empty: embedded SQLite FTS5; postgres://...: PostgreSQL full-text
//	    tool: search_protocol              # the tool name the policy and the model see
//	    chunk_words: 200
//	    overlap_words: 40
//
// The files are read, split into passages (each with its file, PDF page and section) and
// indexed when the snapshot is built; a reload that finds the same files keeps the index.
// PDF (with a text layer), Markdown (.md, .markdown) and text (.txt, .text) are read.
type DocumentSource struct {
	// Name identifies the source in route and intent `sources` lists, unique among the
	// data and document sources: a letter, then letters, digits, _ or -. Required.
	Name string `yaml:"name"`
	// Paths are files or glob patterns (Go filepath.Match syntax: *, ?, [a-z]), relative
	// to this config. A pattern that matches no file is an error at start. Required.
	Paths []string `yaml:"paths"`
	// DSN is where the index lives: empty for a private embedded SQLite database built at
	// start, sqlite:path.db for a SQLite file kept across restarts (rebuilt only when the
	// files change), or postgres://user@host:5432/db for PostgreSQL full-text search,
	// shared by replicas (tables weir_doc_sources and weir_doc_chunks).
	DSN string `yaml:"dsn"`
	// Tool is the name under which the query surface offers this source to the model and
	// to the tools policy. Default search_documents.
	Tool string `yaml:"tool"`
	// ChunkWords is the most words a passage holds. Default 200, between 20 and 2000.
	ChunkWords int `yaml:"chunk_words"`
	// OverlapWords is how many words a passage repeats from the previous one of the same
	// section. Default 40, less than half of chunk_words.
	OverlapWords int `yaml:"overlap_words"`
	// Limit is how many passages a search returns when the call asks for no number.
	// Default 5, at most 20.
	Limit int `yaml:"limit"`
	// Timeout bounds each search. Default 5s.
	Timeout Duration `yaml:"timeout"`
	// Dir is the directory of the config file, set at load: passages name their files
	// relative to it ("docs/protocol.pdf").
	Dir string `yaml:"-"`
}

// DefaultDocumentTool is the tool name of a document source that names none.
const DefaultDocumentTool = "search_documents"

// Index returns the settings adapters/docs opens this source with.
func (d DocumentSource) Index() docs.Config {
	return docs.Config{
		Name: d.Name, Paths: d.Paths, BaseDir: d.Dir, DSN: d.DSN,
		ChunkWords: d.ChunkWords, OverlapWords: d.OverlapWords, Timeout: time.Duration(d.Timeout),
	}
}

func (c *Config) documentDefaults() {
	for i := range c.Documents {
		d := &c.Documents[i]
		def(&d.Tool, DefaultDocumentTool)
		if d.ChunkWords == 0 {
			d.ChunkWords = docs.DefaultChunkWords
		}
		if d.OverlapWords == 0 && d.ChunkWords > 2*docs.DefaultOverlapWords {
			d.OverlapWords = docs.DefaultOverlapWords
		}
		if d.Limit == 0 {
			d.Limit = docs.DefaultLimit
		}
		defDur(&d.Timeout, docs.DefaultTimeout)
	}
}

func (c *Config) resolveDocuments(dir string) {
	for i := range c.Documents {
		d := &c.Documents[i]
		d.Dir = dir
		for j, p := range d.Paths {
			if p != "" && !filepath.IsAbs(p) {
				d.Paths[j] = filepath.Join(dir, p)
			}
		}
	}
}

var (
	sourceNameRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]{0,63}$`)
	toolNameRE   = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)
)

// checkPattern returns what is wrong with a path or glob pattern, or "".
func checkPattern(p string) string {
	if p == "" {
		return "must not be empty"
	}
	if _, err := filepath.Match(p, ""); err != nil {
		return fmt.Sprintf("%q is not a valid glob pattern", p)
	}
	return ""
}

// redactDSN hides the password of a URL-shaped DSN.
func redactDSN(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil || u.User == nil {
		return dsn
	}
	if _, ok := u.User.Password(); !ok {
		return dsn
	}
	u.User = url.UserPassword(u.User.Username(), "redacted")
	return u.String()
}
