package docs

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// kind is a document format.
type kind string

const (
	kindPDF      kind = "pdf"
	kindMarkdown kind = "markdown"
	kindText     kind = "text"
)

var kinds = map[string]kind{
	".pdf": kindPDF, ".md": kindMarkdown, ".markdown": kindMarkdown, ".txt": kindText, ".text": kindText,
}

// file is one document read from disk.
type file struct {
	path string // absolute
	name string // relative to BaseDir, slash-separated: how passages cite it
	kind kind
	data []byte
	hash string // sha256 of data
}

// collect expands the configured paths into files, sorted by name, each read once. A
// pattern that matches nothing, a missing or unreadable file and an unsupported extension
// are errors that name the path.
func collect(c Config) ([]file, error) {
	seen := map[string]bool{}
	var out []file
	for _, p := range c.Paths {
		abs := p
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(c.BaseDir, p)
		}
		matches, err := expand(abs)
		if err != nil {
			return nil, err
		}
		for _, m := range matches {
			if seen[m] {
				continue
			}
			seen[m] = true
			f, err := readFile(c.BaseDir, m)
			if err != nil {
				return nil, err
			}
			out = append(out, f)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out, nil
}

// expand returns the files a path or pattern names. A plain path is returned as is, so that
// reading it reports why it cannot be read.
func expand(p string) ([]string, error) {
	if !strings.ContainsAny(p, "*?[") {
		return []string{p}, nil
	}
	matches, err := filepath.Glob(p)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	var files []string
	for _, m := range matches {
		if fi, err := os.Stat(m); err == nil && fi.Mode().IsRegular() {
			files = append(files, m)
		}
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: the pattern matches no file", p)
	}
	return files, nil
}

func readFile(base, path string) (file, error) {
	k, ok := kinds[strings.ToLower(filepath.Ext(path))]
	if !ok {
		return file{}, fmt.Errorf("%s: unsupported file type %q (use .pdf, .md, .markdown, .txt or .text)", path, filepath.Ext(path))
	}
	fi, err := os.Stat(path)
	if err != nil {
		return file{}, err // *PathError: "stat <path>: no such file or directory"
	}
	if !fi.Mode().IsRegular() {
		return file{}, fmt.Errorf("%s: not a regular file", path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return file{}, err
	}
	sum := sha256.Sum256(data)
	return file{path: path, name: displayName(base, path), kind: k, data: data, hash: hex.EncodeToString(sum[:])}, nil
}

// displayName is path relative to base when it lies below it, else the absolute path.
func displayName(base, path string) string {
	absBase, err1 := filepath.Abs(base)
	absPath, err2 := filepath.Abs(path)
	if err1 == nil && err2 == nil {
		if rel, err := filepath.Rel(absBase, absPath); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(path)
}

// fingerprint identifies the indexed content: the format version, the chunking settings
// and every file's name and content hash. Equal fingerprints mean equal indexes.
func fingerprint(c Config, files []file) string {
	h := sha256.New()
	fmt.Fprintf(h, "weir-docs/%d\x00%d\x00%d\x00", indexVersion, c.ChunkWords, c.OverlapWords)
	for _, f := range files {
		fmt.Fprintf(h, "%s\x00%s\x00", f.name, f.hash)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// indexVersion changes whenever parsing or chunking changes what an index holds, so that
// an index built by an older Weir is rebuilt.
const indexVersion = 1
