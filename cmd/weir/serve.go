package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/weirgw/weir/gateway"
)

func init() {
	registered["serve"] = command{"run the gateway (--config FILE [--listen ADDR] [--admin-listen ADDR] [--audit FILE])", runServe}
}

// runServe starts the gateway and runs it until SIGINT or SIGTERM; SIGHUP and changes to
// the config, rule-pack or policy-bundle directories reload it. Exit 1 when the first
// snapshot does not load or a listener fails, 2 on a usage error.
func runServe(args []string, _ io.Reader, _, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfg := fs.String("config", "", "gateway config file (required)")
	var ov gateway.Overrides
	fs.StringVar(&ov.Listen, "listen", "", "listen address, overrides the config's listen")
	fs.StringVar(&ov.AdminListen, "admin-listen", "", "admin listen address, overrides admin_listen")
	fs.StringVar(&ov.AuditPath, "audit", "", `audit trail file or "stdout", overrides audit.path`)
	grace := fs.Duration("grace", 10*time.Second, "how long in-flight requests may finish on shutdown")
	debug := fs.Bool("debug", false, "log every decision, not only blocked and modified ones")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *cfg == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: weir serve --config FILE [--listen ADDR] [--admin-listen ADDR] [--audit FILE]")
		fs.PrintDefaults()
		return 2
	}
	level := slog.LevelInfo
	if *debug {
		level = slog.LevelDebug
	}
	logger := slog.New(slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: level}))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	g, err := gateway.New(ctx, gateway.Options{ConfigPath: *cfg, Overrides: ov, Logger: logger})
	if err != nil {
		fmt.Fprintf(stderr, "weir serve: %v\n", err)
		return 1
	}
	if err := g.Run(ctx, *grace); err != nil {
		fmt.Fprintf(stderr, "weir serve: %v\n", err)
		return 1
	}
	return 0
}
