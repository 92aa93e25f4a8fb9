package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/weirgw/weir/gateway/audit"
)

func init() {
	registered["audit"] = command{"verify, summarise or replay an audit trail; make a checkpoint key (verify | summary | replay | keygen)", runAudit}
}

const auditUsage = `usage: weir audit verify FILE... [--checkpoints CPFILE --pubkey PUBFILE]
       weir audit summary FILE... [--since DURATION] [--top N]
       weir audit replay FILE... (--config weir.yaml | --rules DIR --policies DIR) [--json]
       weir audit keygen [--out PREFIX]
verify checks the hash chain over the files in order (rotated files oldest first, the live
file last): exit 0 when intact, 1 naming the first bad seq. With signed checkpoints it also
detects records removed from the end.
summary counts decisions by outcome, intent, violation code and tool.
replay re-decides every recorded exchange with a candidate rule pack and policy bundle and
prints what would change.
keygen writes an Ed25519 key pair for audit.checkpoint (PREFIX.key, PREFIX.pub).`

func runAudit(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, auditUsage)
		return 2
	}
	switch args[0] {
	case "verify":
		return auditVerify(args[1:], stdout, stderr)
	case "summary":
		return auditSummary(args[1:], stdout, stderr)
	case "keygen":
		return auditKeygen(args[1:], stdout, stderr)
	case "replay":
		return auditReplay(args[1:], stdout, stderr)
	case "-h", "--help", "help":
		fmt.Fprintln(stdout, auditUsage)
		return 0
	}
	fmt.Fprintf(stderr, "weir audit: unknown subcommand %q\n%s\n", args[0], auditUsage)
	return 2
}

func auditSummary(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("audit summary", flag.ContinueOnError)
	fs.SetOutput(stderr)
	since := fs.Duration("since", 0, "only records newer than this (e.g. 24h)")
	top := fs.Int("top", 10, "how many blocked tools to list")
	fs.Usage = func() { fmt.Fprintln(stderr, auditUsage); fs.PrintDefaults() }
	// Accept the flags before, between or after the files.
	var files []string
	for rest := args; ; {
		if err := fs.Parse(rest); err != nil {
			return 2
		}
		if fs.NArg() == 0 {
			break
		}
		files, rest = append(files, fs.Arg(0)), fs.Args()[1:]
	}
	if len(files) == 0 || *since < 0 {
		fs.Usage()
		return 2
	}
	// Rotated files are read in the order given, as one trail.
	readers := make([]io.Reader, 0, len(files))
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			fmt.Fprintf(stderr, "weir audit summary: %v\n", err)
			return 1
		}
		defer f.Close()
		readers = append(readers, f)
	}
	var from time.Time
	if *since > 0 {
		from = time.Now().Add(-*since)
	}
	s, err := audit.Summarize(io.MultiReader(readers...), from)
	if err != nil {
		fmt.Fprintf(stderr, "weir audit summary: %s: %v\n", strings.Join(files, ", "), err)
		return 1
	}
	s.WriteText(stdout, *top)
	return 0
}
