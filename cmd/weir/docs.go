package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"github.com/weirgw/weir/adapters/docs"
	"github.com/weirgw/weir/gateway/config"
)

func init() {
	registered["docs"] = command{"index a config's documents or search them (index | search)", runDocs}
}

const docsUsage = `usage: weir docs index --config FILE [--source NAME]
       weir docs search --config FILE [--source NAME] [--limit N] [--json] "question"

index builds (or finds current) the index of every document source of the config and
prints its files; search prints the best passages for a question, with file and page.`

func runDocs(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, docsUsage)
		return 2
	}
	switch args[0] {
	case "index":
		return runDocsCmd(args[1:], false, stdout, stderr)
	case "search":
		return runDocsCmd(args[1:], true, stdout, stderr)
	case "-h", "--help", "help":
		fmt.Fprintln(stdout, docsUsage)
		return 0
	}
	fmt.Fprintf(stderr, "weir docs: unknown subcommand %q\n%s\n", args[0], docsUsage)
	return 2
}

// runDocsCmd opens the selected document sources and indexes or searches them. Exit 0 on
// success, 1 when a config or a document cannot be read, 2 on a usage error.
func runDocsCmd(args []string, isSearch bool, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("docs", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfgPath := fs.String("config", "", "gateway config file with documents: (required)")
	source := fs.String("source", "", "the document source's name (default: every one)")
	limit := fs.Int("limit", 0, "passages per source (default: the source's limit)")
	asJSON := fs.Bool("json", false, "print the passages as JSON")
	fs.Usage = func() { fmt.Fprintln(stderr, docsUsage); fs.PrintDefaults() }
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *cfgPath == "" || (isSearch && fs.NArg() != 1) || (!isSearch && fs.NArg() != 0) {
		fs.Usage()
		return 2
	}
	cfg, err := config.Load(*cfgPath)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	sources, err := docSources(cfg, *source)
	if err != nil {
		fmt.Fprintf(stderr, "weir docs: %v\n", err)
		return 2
	}
	for _, src := range sources {
		if err := docsOne(src, isSearch, fs.Arg(0), *limit, *asJSON, stdout); err != nil {
			fmt.Fprintf(stderr, "weir docs: %v\n", err)
			return 1
		}
	}
	return 0
}

// docSources returns the config's document sources, or the one named.
func docSources(cfg *config.Config, name string) ([]config.DocumentSource, error) {
	if len(cfg.Documents) == 0 {
		return nil, fmt.Errorf("%s has no documents: section", cfg.File)
	}
	if name == "" {
		return cfg.Documents, nil
	}
	for _, d := range cfg.Documents {
		if d.Name == name {
			return []config.DocumentSource{d}, nil
		}
	}
	return nil, fmt.Errorf("%s has no document source %q", cfg.File, name)
}

func docsOne(src config.DocumentSource, isSearch bool, question string, limit int, asJSON bool, w io.Writer) error {
	ctx := context.Background()
	ix, err := docs.Open(ctx, src.Index())
	if err != nil {
		return err
	}
	defer func() { _ = ix.Close() }()
	if !isSearch {
		printDocsStats(w, src, ix.Stats())
		return nil
	}
	if limit <= 0 {
		limit = src.Limit
	}
	ps, err := ix.Search(ctx, question, limit)
	if err != nil {
		return err
	}
	if asJSON {
		return json.NewEncoder(w).Encode(map[string]any{"source": src.Name, "tool": src.Tool, "passages": ps})
	}
	printPassages(w, src, ps)
	return nil
}

func printDocsStats(w io.Writer, src config.DocumentSource, s docs.Stats) {
	state := "index current, files unchanged"
	if s.Reindexed {
		state = "indexed"
	}
	fmt.Fprintf(w, "%s (tool %s): %d passages, %s\n", src.Name, src.Tool, s.Chunks, state)
	for _, f := range s.Files {
		pages := ""
		if f.Kind == "pdf" {
			pages = fmt.Sprintf(", %d pages", f.Pages)
		}
		fmt.Fprintf(w, "  %s (%s%s): %d passages\n", f.Name, f.Kind, pages, f.Chunks)
	}
	for _, warning := range s.Warnings {
		fmt.Fprintf(w, "  warning: %s\n", warning)
	}
}

func printPassages(w io.Writer, src config.DocumentSource, ps []docs.Passage) {
	fmt.Fprintf(w, "%s (tool %s): %d passages\n", src.Name, src.Tool, len(ps))
	for i, p := range ps {
		fmt.Fprintf(w, "%d. %s  [%s]  score %.2f  %s\n   %s\n", i+1, docs.Cite(p), p.Section, p.Score, p.ChunkID, p.Snippet)
	}
	if len(ps) > 0 {
		fmt.Fprintf(w, "\nWithout a model, the answer quotes:\n%s\n", docs.Quote(ps, 3))
	}
}
