package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/weirgw/weir/gateway/audit"
)

// auditVerify checks a trail (its files in chain order), optionally against signed
// checkpoints. Exit 0 when intact, 1 with the first bad seq, 2 on a usage error.
func auditVerify(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("audit verify", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cpFile := fs.String("checkpoints", "", "signed checkpoint file: detects removed records at the end")
	pubFile := fs.String("pubkey", "", "the checkpoints' Ed25519 public key (PEM), with --checkpoints")
	files, ok := parseInterleaved(fs, args)
	if !ok || len(files) == 0 || (*cpFile == "") != (*pubFile == "") {
		fmt.Fprintln(stderr, auditUsage)
		return 2
	}
	cps, err := loadCheckpoints(*cpFile, *pubFile)
	if err != nil {
		fmt.Fprintf(stderr, "weir audit verify: %v\n", err)
		return 1
	}
	v, brk, err := audit.VerifyFiles(files, cps)
	switch {
	case err != nil:
		fmt.Fprintf(stderr, "weir audit verify: %v\n", err)
		return 1
	case brk != nil:
		fmt.Fprintf(stdout, "%d records intact, then %v\n", v.Records, brk)
		return 1
	}
	fmt.Fprintf(stdout, "%d records in %d file(s), chain intact; format %s\n", v.Records, len(files), formats(v.Formats))
	if cps == nil {
		fmt.Fprintln(stdout, "no --checkpoints: records removed from the end of the trail cannot be detected")
	} else {
		fmt.Fprintln(stdout, coverage(cps, v.LastSeq))
	}
	return 0
}

func loadCheckpoints(cpFile, pubFile string) ([]audit.Checkpoint, error) {
	if cpFile == "" {
		return nil, nil
	}
	pub, err := audit.LoadPublicKey(pubFile)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(cpFile)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	cps, err := audit.ReadCheckpoints(cpFile, f, pub)
	if err == nil && cps == nil {
		cps = []audit.Checkpoint{}
	}
	return cps, err
}

// formats names the hash formats of a trail: "jcs", or "legacy (seq 1..9), then jcs (seq 10..20)".
func formats(fs []audit.Format) string {
	if len(fs) == 0 {
		return "(empty)"
	}
	if len(fs) == 1 {
		return fs[0].Name
	}
	parts := make([]string, len(fs))
	for i, f := range fs {
		parts[i] = fmt.Sprintf("%s (seq %d..%d)", f.Name, f.From, f.To)
	}
	return strings.Join(parts, ", then ")
}

func coverage(cps []audit.Checkpoint, last uint64) string {
	if len(cps) == 0 {
		return "0 signed checkpoints: the end of the trail is not covered"
	}
	top := cps[len(cps)-1].Seq
	msg := fmt.Sprintf("%d signed checkpoints verified, the last at seq %d", len(cps), top)
	if top < last {
		msg += fmt.Sprintf("; records %d..%d are not covered by a checkpoint yet", top+1, last)
	}
	return msg
}

// parseInterleaved parses flags written before, between or after the positional arguments.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, bool) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, false
		}
		if fs.NArg() == 0 {
			return pos, true
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}
