package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/weirgw/weir/gateway/audit/replay"
	"github.com/weirgw/weir/gateway/config"
)

// auditReplay re-decides a trail's exchanges with a candidate pack and bundle: those of
// --config, or --rules and --policies. Exit 0 (whatever changes), 1 on an error, 2 on a
// usage error.
func auditReplay(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("audit replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfgPath := fs.String("config", "", "gateway config whose rules and policies are the candidate")
	rulesDir := fs.String("rules", "", "candidate rule pack directory")
	policiesDir := fs.String("policies", "", "candidate policy bundle directory")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	files, ok := parseInterleaved(fs, args)
	if !ok || len(files) == 0 || (*cfgPath == "") == (*rulesDir == "" || *policiesDir == "") {
		fmt.Fprintln(stderr, auditUsage)
		return 2
	}
	if *cfgPath != "" {
		cfg, err := config.Load(*cfgPath)
		if err != nil {
			fmt.Fprintf(stderr, "weir audit replay: %v\n", err)
			return 1
		}
		*rulesDir, *policiesDir = cfg.Rules, cfg.Policies
	}
	ctx := context.Background()
	c, err := replay.Load(ctx, *rulesDir, *policiesDir)
	if err == nil {
		var rep *replay.Report
		if rep, err = c.Files(ctx, files); err == nil && *asJSON {
			err = rep.WriteJSON(stdout)
		} else if err == nil {
			err = rep.WriteText(stdout)
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "weir audit replay: %v\n", err)
		return 1
	}
	return 0
}
