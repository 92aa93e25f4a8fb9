package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/weirgw/weir/gateway/audit"
)

func init() {
	registered["audit"] = command{"verify or summarise an audit trail (verify FILE | summary FILE [--since DURATION])", runAudit}
}

const auditUsage = `usage: weir audit verify FILE
       weir audit summary FILE [--since DURATION] [--top N]
verify checks the hash chain: exit 0 when intact, 1 with the first broken or missing record.
summary counts decisions by outcome, intent, violation code and tool.`

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
	case "-h", "--help", "help":
		fmt.Fprintln(stdout, auditUsage)
		return 0
	}
	fmt.Fprintf(stderr, "weir audit: unknown subcommand %q\n%s\n", args[0], auditUsage)
	return 2
}

func auditVerify(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprintln(stderr, auditUsage)
		return 2
	}
	f, err := os.Open(args[0])
	if err != nil {
		fmt.Fprintf(stderr, "weir audit verify: %v\n", err)
		return 1
	}
	defer f.Close()
	n, brk, err := audit.Verify(f)
	switch {
	case err != nil:
		fmt.Fprintf(stderr, "weir audit verify: %s: %v\n", args[0], err)
		return 1
	case brk != nil:
		fmt.Fprintf(stdout, "%s: %d records intact, then %v\n", args[0], n, brk)
		return 1
	}
	fmt.Fprintf(stdout, "%d records, chain intact\n", n)
	return 0
}

func auditSummary(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("audit summary", flag.ContinueOnError)
	fs.SetOutput(stderr)
	since := fs.Duration("since", 0, "only records newer than this (e.g. 24h)")
	top := fs.Int("top", 10, "how many blocked tools to list")
	fs.Usage = func() { fmt.Fprintln(stderr, auditUsage); fs.PrintDefaults() }
	// Accept the flags before or after FILE.
	if err := fs.Parse(args); err != nil {
		return 2
	}
	file := fs.Args()
	if len(file) >= 1 {
		if err := fs.Parse(file[1:]); err != nil {
			return 2
		}
		file = append(file[:1], fs.Args()...)
	}
	if len(file) != 1 || *since < 0 {
		fs.Usage()
		return 2
	}
	f, err := os.Open(file[0])
	if err != nil {
		fmt.Fprintf(stderr, "weir audit summary: %v\n", err)
		return 1
	}
	defer f.Close()
	var from time.Time
	if *since > 0 {
		from = time.Now().Add(-*since)
	}
	s, err := audit.Summarize(f, from)
	if err != nil {
		fmt.Fprintf(stderr, "weir audit summary: %s: %v\n", file[0], err)
		return 1
	}
	s.WriteText(stdout, *top)
	return 0
}
