package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/weirgw/weir/adapters/mockllm"
)

func runMockLLM(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serveMockLLM(ctx, args, stdout, stderr)
}

// serveMockLLM serves a script until ctx ends; tests cancel ctx instead of signalling.
func serveMockLLM(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mock-llm", flag.ContinueOnError)
	fs.SetOutput(stderr)
	script := fs.String("script", "", "YAML script of cases (required; see adapters/mockllm/README.md)")
	listen := fs.String("listen", "127.0.0.1:8081", "address to listen on")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: weir mock-llm --script FILE [--listen ADDR]\n\nServes an OpenAI-compatible /v1/chat/completions and /v1/models that answer from the script.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *script == "" || fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	s, err := mockllm.LoadScript(*script)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	srv, err := mockllm.Listen(s, *listen)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	fmt.Fprintf(stdout, "mock-llm: %d cases from %s, model %q, serving %s\n", len(s.Cases), *script, s.Model, srv.URL())
	<-ctx.Done()
	if err := srv.Close(); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	return 0
}
