// Command weir is Weir's single binary: the gateway and the tools policy authors and CI use
// (classify, check, validate). main.go only dispatches; each subcommand lives in its own
// file and wires packages together without holding logic of its own.
package main

import (
	"fmt"
	"io"
	"os"
	"sort"
)

// command is one subcommand: its one-line summary and its entry point, which returns the
// process exit code.
type command struct {
	summary string
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

func commands() map[string]command {
	cmds := map[string]command{
		"classify": {"classify questions with a rule pack (--rules DIR, or --config FILE with its fallback model)", runClassify},
		"check":    {"compile a rule pack and/or a policy bundle and run their tests", runCheck},
		"mock-llm": {"serve a scripted OpenAI-compatible model for tests and demos", runMockLLM},
	}
	for name, c := range registered {
		cmds[name] = c
	}
	return cmds
}

// registered holds subcommands that wiring files add in init, so each stage's commands
// live beside the wiring of that stage.
var registered = map[string]command{}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cmds := commands()
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stdout, cmds)
		return 0
	}
	c, ok := cmds[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "weir: unknown command %q\n\n", args[0])
		usage(stderr, cmds)
		return 2
	}
	return c.run(args[1:], stdin, stdout, stderr)
}

func usage(w io.Writer, cmds map[string]command) {
	fmt.Fprintln(w, "usage: weir <command> [flags]\n\ncommands:")
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, cmds[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'weir <command> -h' for a command's flags.")
}
