package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/weirgw/weir/policies"
)

func init() {
	registered["validate"] = command{"validate offline exchanges against a policy bundle (--policies DIR --jsonl)", runValidate}
}

// runValidate reads exchanges from stdin and writes one verdict per exchange. With --jsonl
// every input line gets exactly one output line, in order; a malformed line gets a verdict
// with an input_invalid violation. Without --jsonl it reads one JSON document and
// pretty-prints its verdict. The exit code is 0 when every exchange was judged (allowed or
// not), 1 when the bundle does not load or stdin fails, 2 on a usage error.
func runValidate(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("validate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("policies", "", "policy bundle directory (required)")
	jsonl := fs.Bool("jsonl", false, "read one exchange per line, write one verdict per line")
	fs.Usage = func() {
		fmt.Fprintln(stderr, `usage: weir validate --policies DIR [--jsonl] < exchanges
Each exchange: {"intent": "...", "messages": [chat messages], "answer": "...", "tool_calls": [...]}
Each verdict:  {"allowed": bool, "violations": [{"code", "message", "rule", "text"}], "numbers": [...]}`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *dir == "" || fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	ctx := context.Background()
	b, err := policies.Load(ctx, *dir)
	if err != nil {
		printPolicyErrors(stderr, err)
		return 1
	}
	if !*jsonl {
		return validateOne(ctx, b, stdin, stdout, stderr)
	}
	return validateLines(ctx, b, stdin, stdout, stderr)
}

func validateLines(ctx context.Context, b *policies.Bundle, stdin io.Reader, stdout, stderr io.Writer) int {
	r := bufio.NewReaderSize(stdin, 64<<10)
	w := bufio.NewWriter(stdout)
	defer func() { _ = w.Flush() }()
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			if encErr := enc.Encode(verdictFor(ctx, b, line)); encErr != nil {
				fmt.Fprintln(stderr, "weir validate:", encErr)
				return 1
			}
		}
		if errors.Is(err, io.EOF) {
			return 0
		}
		if err != nil {
			fmt.Fprintln(stderr, "weir validate: reading stdin:", err)
			return 1
		}
	}
}

// verdictFor judges one input line; it never fails, so line N out answers line N in.
func verdictFor(ctx context.Context, b *policies.Bundle, line []byte) policies.Verdict {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return policies.InvalidInput("empty line")
	}
	var ex policies.Exchange
	if err := json.Unmarshal(line, &ex); err != nil {
		return policies.InvalidInput("not an exchange: " + err.Error())
	}
	v, _ := b.Validate(ctx, ex) // on error v already denies with a policy_error violation
	return v
}

func validateOne(ctx context.Context, b *policies.Bundle, stdin io.Reader, stdout, stderr io.Writer) int {
	src, err := io.ReadAll(stdin)
	if err != nil {
		fmt.Fprintln(stderr, "weir validate: reading stdin:", err)
		return 1
	}
	out, _ := json.MarshalIndent(verdictFor(ctx, b, src), "", "  ")
	fmt.Fprintln(stdout, string(out))
	return 0
}
