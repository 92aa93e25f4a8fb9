package loadtest

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/weirgw/weir/gateway"
)

// The roles of the server processes the harness starts.
const (
	RoleUpstream    = "upstream"    // the canned OpenAI-compatible upstream
	RolePassthrough = "passthrough" // the gateway with Options.Passthrough: one bare proxy hop
	RoleGateway     = "gateway"     // the full gateway
)

// ChildMain runs one harness server in the current process: the harness starts each server
// as a child process (`weir bench child ROLE ...`) so that each one's CPU time is its own.
// args are ROLE and, for the gateway roles, --config FILE and --audit FILE; the upstream
// URL reaches the config through the WEIR_LLM_URL variable the harness sets. With
// --cpuprofile FILE the child profiles itself from ready to shutdown.
//
// The protocol is line-based: the child prints "ready ADDR" once it serves, answers each
// "cpu" line read from stdin with "cpu USER_NS SYSTEM_NS" (its own CPU time so far), and
// shuts down when stdin ends, so a harness that dies takes its children with it.
func ChildMain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "weir bench child: a role is required: upstream, passthrough or gateway")
		return 2
	}
	role := args[0]
	fs := flag.NewFlagSet("child "+role, flag.ContinueOnError)
	fs.SetOutput(stderr)
	config := fs.String("config", "", "gateway config file")
	auditPath := fs.String("audit", "", "audit trail file")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the serving time to this file")
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	stop, addr, err := startRole(role, *config, *auditPath, stderr)
	if err == nil && *cpuProfile != "" {
		err = startProfile(*cpuProfile, &stop)
	}
	if err != nil {
		fmt.Fprintf(stderr, "weir bench child %s: %v\n", role, err)
		return 1
	}
	fmt.Fprintf(stdout, "ready %s\n", addr)
	serveCommands(stdin, stdout)
	if err := stop(); err != nil {
		fmt.Fprintf(stderr, "weir bench child %s: %v\n", role, err)
		return 1
	}
	return 0
}

// startProfile starts a CPU profile into path and makes *stop end it after the server.
func startProfile(path string, stop *func() error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return err
	}
	server := *stop
	*stop = func() error {
		err := server()
		pprof.StopCPUProfile()
		return errors.Join(err, f.Close())
	}
	return nil
}

// startRole starts the role's server on a free loopback port and returns how to stop it
// and the address clients use (a base URL for the upstream, host:port for the gateways).
func startRole(role, config, auditPath string, stderr io.Writer) (func() error, string, error) {
	switch role {
	case RoleUpstream:
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, "", err
		}
		srv := serveCanned(ln)
		return srv.Shutdown, "http://" + ln.Addr().String() + "/v1", nil
	case RolePassthrough, RoleGateway:
		if config == "" || auditPath == "" {
			return nil, "", fmt.Errorf("--config and --audit are required")
		}
		// Decisions are logged as in production: allowed ones at debug (not written),
		// blocked and modified ones at info.
		logger := slog.New(slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
		g, err := gateway.New(context.Background(), gateway.Options{
			ConfigPath:  config,
			Overrides:   gateway.Overrides{Listen: "127.0.0.1:0", AdminListen: "127.0.0.1:0", AuditPath: auditPath},
			Logger:      logger,
			Passthrough: role == RolePassthrough,
		})
		if err != nil {
			return nil, "", err
		}
		if err := g.Start(); err != nil {
			return nil, "", err
		}
		stop := func() error {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			return g.Shutdown(ctx)
		}
		return stop, g.Addr(), nil
	}
	return nil, "", fmt.Errorf("unknown role %q: want upstream, passthrough or gateway", role)
}

// serveCommands answers the harness's commands until stdin ends.
func serveCommands(stdin io.Reader, stdout io.Writer) {
	sc := bufio.NewScanner(stdin)
	for sc.Scan() {
		switch strings.TrimSpace(sc.Text()) {
		case "cpu":
			user, sys, err := processCPU()
			if err != nil {
				fmt.Fprintf(stdout, "error %v\n", err)
				continue
			}
			fmt.Fprintf(stdout, "cpu %d %d\n", user.Nanoseconds(), sys.Nanoseconds())
		default:
			fmt.Fprintf(stdout, "error unknown command %q\n", sc.Text())
		}
	}
}
