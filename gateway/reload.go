package gateway

import (
	"context"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/fsnotify/fsnotify"
)

// debounce is how long the watcher waits after the last file event before reloading:
// editors and `kubectl cp` touch several files in a burst.
const debounce = 200 * time.Millisecond

// Reload compiles a new snapshot from the config file and swaps it in. When anything fails
// to load the running snapshot stays, and the error (with file:line) is logged, counted and
// shown on /admin/status. In-flight requests finish with the snapshot they started with.
func (g *Gateway) Reload(ctx context.Context) error {
	g.reloadMu.Lock()
	defer g.reloadMu.Unlock()
	old := g.snap.Load()
	snap, err := compile(ctx, g.opts.ConfigPath, g.opts.Overrides, old)
	g.status.mu.Lock()
	g.status.lastAt = time.Now()
	if err != nil {
		g.status.failures++
		g.status.lastError = err.Error()
		g.status.mu.Unlock()
		g.metrics.reloadFailures.Inc()
		g.log.Error("reload failed; keeping the running snapshot", "err", err.Error())
		return err
	}
	g.status.reloads++
	g.status.lastError = ""
	g.status.mu.Unlock()
	g.warnRestartOnly(old, snap)
	snap.logWarnings(g.log)
	g.armAborts(snap)
	g.snap.Store(snap)
	snap.closeUnused(old)
	g.metrics.reloads.Inc()
	g.log.Info("reloaded", "pack", snap.Pack.Revision(), "policies", snap.Bundle.Revision())
	return nil
}

// warnRestartOnly logs the settings a reload cannot change: listeners, the body and header
// limits and the audit sink are bound at start (rate limits and credentials reload).
func (g *Gateway) warnRestartOnly(old, s *Snapshot) {
	o, n := old.Config, s.Config
	sizes := o.Limits.MaxBodyBytes != n.Limits.MaxBodyBytes || o.Limits.MaxHeaderBytes != n.Limits.MaxHeaderBytes
	if o.Listen != n.Listen || o.AdminListen != n.AdminListen || sizes || o.Audit.Path != n.Audit.Path {
		g.log.Warn("listen addresses, body and header limits and audit.path changed in the config; they take effect at the next restart")
	}
}

// Watch reloads on changes below the config's, the rule pack's and the policy bundle's
// directories (directories, not files: editors replace files by rename and Kubernetes swaps
// symlinks) and on SIGHUP, until ctx ends.
func (g *Gateway) Watch(ctx context.Context) error {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return err
	}
	defer func() { _ = w.Close() }()
	g.watchDirs(w)
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-hup:
			g.log.Info("SIGHUP: reloading")
			_ = g.Reload(ctx) // a failed reload is logged and shown on /admin/status
			g.watchDirs(w)
		case ev, ok := <-w.Events:
			if !ok {
				return nil
			}
			if ev.Op == fsnotify.Chmod || !g.relevant(ev.Name) {
				continue
			}
			timer.Reset(debounce)
		case err, ok := <-w.Errors:
			if !ok {
				return nil
			}
			g.log.Warn("file watcher", "err", err)
		case <-timer.C:
			_ = g.Reload(ctx) // a failed reload is logged and shown on /admin/status
			g.watchDirs(w)    // the config may name other directories now; new subdirectories appear
		}
	}
}

// watchDirs adds the config file's directory and every directory below the rule packs and
// policy bundles (the top-level ones, routes' and tenants' own) and the JWKS file's
// directory. Adding a watched directory again is harmless.
func (g *Gateway) watchDirs(w *fsnotify.Watcher) {
	s := g.snap.Load()
	dirs := []string{filepath.Dir(s.Config.File)}
	if f := jwksFile(s); f != "" {
		dirs = append(dirs, filepath.Dir(f))
	}
	for _, root := range s.watchRoots() {
		_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				dirs = append(dirs, p)
			}
			return nil
		})
	}
	for _, d := range dirs {
		if err := w.Add(d); err != nil {
			g.log.Warn("cannot watch directory", "dir", d, "err", err)
		}
	}
}

// relevant reports whether a change to path can change the snapshot: anything below a
// rule pack, a policy bundle or the JWKS file's directory, and in the config's directory the config file itself or a
// Kubernetes ConfigMap swap (..data). The audit trail's own writes never are.
func (g *Gateway) relevant(path string) bool {
	s := g.snap.Load()
	c := s.Config
	path = filepath.Clean(path)
	if path == filepath.Clean(c.Audit.Path) {
		return false
	}
	if f := jwksFile(s); f != "" && path == filepath.Clean(f) {
		return true
	}
	for _, root := range s.watchRoots() {
		if rel, err := filepath.Rel(root, path); err == nil && !strings.HasPrefix(rel, "..") {
			return true
		}
	}
	base := filepath.Base(path)
	return filepath.Dir(path) == filepath.Dir(c.File) && (base == filepath.Base(c.File) || strings.HasPrefix(base, ".."))
}

// jwksFile is the JWKS file of auth.jwt.jwks_file, "" without one.
func jwksFile(s *Snapshot) string {
	if j := s.Config.Auth.JWT; j != nil {
		return j.JWKSFile
	}
	return ""
}
