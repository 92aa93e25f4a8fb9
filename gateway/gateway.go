package gateway

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/weirgw/weir/gateway/audit"
)

// Options configure a Gateway.
type Options struct {
	// ConfigPath is the YAML config file. Required.
	ConfigPath string
	// Overrides replace the config's listen addresses and audit path.
	Overrides Overrides
	// Logger receives structured logs; default slog.Default().
	Logger *slog.Logger
	// AuditSink, when set, receives the audit trail instead of the configured path
	// (tests).
	AuditSink io.Writer
	// Passthrough serves every route as a bare proxy hop, with every stage, the audit
	// record and the decision log off (passthrough.go). It is the load harness's baseline
	// (cmd/weir/loadtest), never a production mode.
	Passthrough bool
}

// Gateway serves the configured routes from the current snapshot and the admin endpoints.
type Gateway struct {
	opts    Options
	log     *slog.Logger
	metrics *metrics
	audit   *audit.Writer
	snap    atomic.Pointer[Snapshot]

	// base is the context of every request: cancelled at shutdown. The fasthttp.RequestCtx
	// is never used as a context, because policies keep it beyond the handler (AfterFunc).
	base       context.Context
	cancelBase context.CancelFunc

	reloadMu sync.Mutex     // one compile at a time
	streams  sync.WaitGroup // stream relays still running; Shutdown waits for them (stream.go)
	handling inflight       // requests in a handler; Shutdown waits for them (upstream_abort.go)
	status   reloadStatus

	server, admin *fasthttp.Server
	ln, adminLn   net.Listener
	done          chan struct{}
	serveErr      chan error
}

// reloadStatus is what /admin/status shows about reloads.
type reloadStatus struct {
	mu        sync.Mutex
	lastError string
	lastAt    time.Time
	reloads   int
	failures  int
}

// New compiles the first snapshot and opens the audit trail. It does not listen yet.
func New(ctx context.Context, opts Options) (*Gateway, error) {
	g := &Gateway{opts: opts, log: opts.Logger, metrics: newMetrics(), done: make(chan struct{}), serveErr: make(chan error, 2)}
	if g.log == nil {
		g.log = slog.Default()
	}
	g.base, g.cancelBase = context.WithCancel(context.Background())
	snap, err := compile(ctx, opts.ConfigPath, opts.Overrides, nil)
	if err != nil {
		return nil, err
	}
	snap.logWarnings(g.log)
	g.armAborts(snap)
	g.snap.Store(snap)
	g.metrics.reg.MustRegister(newFallbackCollector(g.snap.Load))
	if g.audit, err = openAudit(snap.Config.Audit, opts.AuditSink, g.log); err != nil {
		return nil, err
	}
	return g, nil
}

// Snapshot returns the snapshot new requests use.
func (g *Gateway) Snapshot() *Snapshot { return g.snap.Load() }

// Start listens on the data and admin addresses and serves in the background.
func (g *Gateway) Start() error {
	cfg := g.snap.Load().Config
	var err error
	if g.ln, err = net.Listen("tcp", cfg.Listen); err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	if g.adminLn, err = net.Listen("tcp", cfg.AdminListen); err != nil {
		_ = g.ln.Close()
		return fmt.Errorf("admin listen: %w", err)
	}
	g.server = &fasthttp.Server{
		Name:                  "weir",
		Handler:               g.handle,
		ErrorHandler:          g.handleReadError,
		MaxRequestBodySize:    cfg.Limits.MaxBodyBytes,
		ReadBufferSize:        cfg.Limits.MaxHeaderBytes,
		ReadTimeout:           2 * time.Minute,
		WriteTimeout:          2 * time.Minute,
		IdleTimeout:           2 * time.Minute,
		NoDefaultServerHeader: true,
		CloseOnShutdown:       true,
		Logger:                fasthttpLogger{g.log},
	}
	g.admin = &fasthttp.Server{Name: "weir-admin", Handler: g.adminHandler(), ReadTimeout: 10 * time.Second, NoDefaultServerHeader: true}
	go func() { g.serveErr <- g.server.Serve(g.ln) }()
	go func() { g.serveErr <- g.admin.Serve(g.adminLn) }()
	g.log.Info("weir serving", "listen", g.ln.Addr().String(), "admin", g.adminLn.Addr().String(),
		"config", cfg.File, "pack", g.snap.Load().Pack.Revision(), "policies", g.snap.Load().Bundle.Revision())
	return nil
}

// Addr returns the data listener's address; AdminAddr the admin listener's.
func (g *Gateway) Addr() string      { return g.ln.Addr().String() }
func (g *Gateway) AdminAddr() string { return g.adminLn.Addr().String() }

// Shutdown stops accepting connections, waits for in-flight requests (until ctx ends) and
// closes the audit trail.
func (g *Gateway) Shutdown(ctx context.Context) error {
	var errs []error
	if g.server != nil {
		errs = append(errs, g.server.ShutdownWithContext(ctx), g.admin.ShutdownWithContext(ctx))
	}
	g.cancelBase()
	// Cancelling base aborted the upstream calls still waiting: their handlers answer
	// shutting_down and write their records now, before the trail closes.
	if n := g.handling.wait(handlerDrain); n > 0 {
		g.log.Error("shutdown: requests still running after the drain; their audit records may be lost", "requests", n, "drain", handlerDrain.String())
	}
	g.streams.Wait() // cancelling base aborted their upstream reads: they end and are recorded now
	if s := g.snap.Load(); s != nil {
		s.closeSources(nil, 0)
		s.closeAccess(nil)
	}
	errs = append(errs, g.audit.Close())
	return errors.Join(errs...)
}

// handlerDrain bounds how long Shutdown waits, once the grace period is over and every
// upstream call was aborted, for the handlers still running (a fallback classifier or a
// database query ending on the cancelled context) to write their audit records.
const handlerDrain = 5 * time.Second

// Run starts the gateway, reloads on file changes and SIGHUP, and shuts down gracefully
// when ctx ends (in-flight requests get up to grace to finish).
func (g *Gateway) Run(ctx context.Context, grace time.Duration) error {
	if err := g.Start(); err != nil {
		g.cancelBase()
		return errors.Join(err, g.audit.Close())
	}
	watchErr := make(chan error, 1)
	go func() { watchErr <- g.Watch(ctx) }()
	var err error
	select {
	case <-ctx.Done():
	case err = <-g.serveErr:
	case err = <-watchErr:
	}
	sctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	return errors.Join(err, g.Shutdown(sctx))
}

// fasthttpLogger sends fasthttp's own messages (connection errors the ErrorHandler already
// answered) to the structured log at debug level — their format only: fasthttp's arguments
// quote the bytes of the request it could not read, headers and credentials included.
type fasthttpLogger struct{ log *slog.Logger }

func (l fasthttpLogger) Printf(format string, _ ...any) {
	l.log.Debug(format, "component", "fasthttp")
}
