package docs

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"time"
)

// Config says which files an Index holds and where it keeps them.
type Config struct {
	// Name identifies the index in error messages and in a shared database (a letter, then
	// letters, digits, _ or -). Required.
	Name string
	// Paths are files or glob patterns (filepath.Match syntax) of .pdf, .md, .markdown, .txt
	// and .text files, absolute or relative to BaseDir. A pattern that matches nothing is an
	// error. Required.
	Paths []string
	// BaseDir is the directory relative paths start from; passages name their file relative
	// to it ("docs/protocol.pdf"). Default: the current directory.
	BaseDir string
	// DSN is where the index lives: empty for a private embedded SQLite database removed by
	// Close, sqlite:path.db for a persistent one (a restart with unchanged files keeps it), or
	// postgres://user@host/db for PostgreSQL full-text search.
	DSN string
	// ChunkWords is the most words a passage holds. Default 200.
	ChunkWords int
	// OverlapWords is how many words a passage repeats from the previous one of the same
	// section, so that a sentence cut at a boundary is whole in one of them. Default 40.
	OverlapWords int
	// Timeout bounds each search. Default 5s.
	Timeout time.Duration
}

// Defaults and bounds of Config.
const (
	DefaultChunkWords   = 200
	DefaultOverlapWords = 40
	DefaultTimeout      = 5 * time.Second
	MinChunkWords       = 20
	MaxChunkWords       = 2000
)

var nameRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]{0,63}$`)

func (c Config) withDefaults() Config {
	if c.ChunkWords == 0 {
		c.ChunkWords = DefaultChunkWords
	}
	if c.OverlapWords == 0 {
		c.OverlapWords = DefaultOverlapWords
	}
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	if c.BaseDir == "" {
		c.BaseDir = "."
	}
	return c
}

// Validate reports every problem of c (after defaults), joined.
func (c Config) Validate() error {
	var errs []error
	if !nameRE.MatchString(c.Name) {
		errs = append(errs, fmt.Errorf("name %q must be a letter followed by letters, digits, _ or -", c.Name))
	}
	if len(c.Paths) == 0 {
		errs = append(errs, errors.New("paths: at least one file or glob pattern is required"))
	}
	for _, p := range c.Paths {
		if _, err := filepath.Match(p, ""); err != nil {
			errs = append(errs, fmt.Errorf("paths: %q is not a valid glob pattern", p))
		}
	}
	if c.ChunkWords < MinChunkWords || c.ChunkWords > MaxChunkWords {
		errs = append(errs, fmt.Errorf("chunk_words must be between %d and %d, not %d", MinChunkWords, MaxChunkWords, c.ChunkWords))
	}
	if c.OverlapWords < 0 || c.OverlapWords >= c.ChunkWords/2 {
		errs = append(errs, fmt.Errorf("overlap_words must be at least 0 and less than half of chunk_words (%d), not %d", c.ChunkWords, c.OverlapWords))
	}
	return errors.Join(errs...)
}
