package gateway

import (
	"io"
	"log/slog"
	"os"

	"github.com/weirgw/weir/gateway/audit"
	"github.com/weirgw/weir/gateway/config"
)

// openAudit opens the audit trail the config describes: the file (rotated) or stdout,
// signed checkpoints and the HTTP sink. sink, when set, replaces the file (tests).
func openAudit(c config.Audit, sink io.Writer, log *slog.Logger) (*audit.Writer, error) {
	opts := audit.Options{Log: log, Out: sink}
	switch {
	case sink != nil:
	case c.Path == config.AuditStdout:
		opts.Out = os.Stdout
	default:
		opts.Path = c.Path
		opts.Rotate = audit.Rotate{MaxBytes: c.Rotate.MaxBytes, MaxAge: c.Rotate.MaxAge.Std()}
	}
	if cp := c.Checkpoint; cp != nil {
		key, err := audit.LoadPrivateKey(cp.KeyFile)
		if err != nil {
			return nil, err
		}
		opts.Checkpoint = &audit.CheckpointOptions{Path: cp.Path, Every: cp.Every, Interval: cp.Interval.Std(), Key: key}
	}
	if h := c.HTTP; h != nil {
		opts.Ship = &audit.ShipOptions{URL: h.URL, Headers: h.Headers, OnError: h.OnError, Spool: h.Spool,
			Batch: h.Batch, FlushInterval: h.FlushInterval.Std(), Timeout: h.Timeout.Std(), MaxBackoff: h.MaxBackoff.Std()}
	}
	return audit.New(opts)
}
