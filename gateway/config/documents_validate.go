package config

import (
	"fmt"

	"github.com/weirgw/weir/adapters/data/sqlstore"
	"github.com/weirgw/weir/adapters/docs"
)

// validateDocuments checks every document source, and that its name and tool are not
// those of another source: route `sources` lists and the tools policy name both.
func (c *Config) validateDocuments(bad func(path, format string, args ...any)) {
	names, tools := map[string]bool{}, map[string]bool{}
	for _, d := range c.Data {
		names[d.Name], tools[d.Tool] = true, true
	}
	for i, d := range c.Documents {
		p := "documents" + index(i)
		switch {
		case d.Name == "":
			bad(p, "documents%s.name is required", index(i))
		case !sourceNameRE.MatchString(d.Name):
			bad(p+".name", "document source %q: name must be a letter followed by letters, digits, _ or -", d.Name)
		case names[d.Name]:
			bad(p+".name", "document source %q: the name is already used by another data or document source", d.Name)
		}
		names[d.Name] = true
		switch {
		case !toolNameRE.MatchString(d.Tool):
			bad(p+".tool", "document source %q: tool must be 1-64 letters, digits, _ or -, not %q", d.Name, d.Tool)
		case tools[d.Tool]:
			bad(p+".tool", "document source %q: tool %q is already offered by another source", d.Name, d.Tool)
		}
		tools[d.Tool] = true
		validateDocumentFields(bad, p, d)
	}
}

func validateDocumentFields(bad func(path, format string, args ...any), p string, d DocumentSource) {
	if len(d.Paths) == 0 {
		bad(p, "document source %q: paths (files or glob patterns) are required", d.Name)
	}
	for j, path := range d.Paths {
		if err := checkPattern(path); err != "" {
			bad(fmt.Sprintf("%s.paths[%d]", p, j), "document source %q: paths[%d] %s", d.Name, j, err)
		}
	}
	if d.DSN != "" {
		if _, err := sqlstore.ParseDSN(d.DSN); err != nil {
			bad(p+".dsn", "document source %q: %v", d.Name, err)
		}
	}
	if d.ChunkWords < docs.MinChunkWords || d.ChunkWords > docs.MaxChunkWords {
		bad(p+".chunk_words", "document source %q: chunk_words must be between %d and %d, not %d", d.Name, docs.MinChunkWords, docs.MaxChunkWords, d.ChunkWords)
	}
	if d.OverlapWords < 0 || d.OverlapWords >= d.ChunkWords/2 {
		bad(p+".overlap_words", "document source %q: overlap_words must be at least 0 and less than half of chunk_words, not %d", d.Name, d.OverlapWords)
	}
	if d.Limit < 0 || d.Limit > docs.MaxLimit {
		bad(p+".limit", "document source %q: limit must be between 1 and %d, not %d", d.Name, docs.MaxLimit, d.Limit)
	}
}
