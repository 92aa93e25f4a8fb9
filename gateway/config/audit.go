package config

import (
	"net/url"
	"path/filepath"
	"time"
)

// AuditRotate bounds the live trail file. Rotated files are named
// <name>-<first seq>-<UTC time>.<ext> beside it; `weir audit verify` takes them in name
// order, the live file last.
type AuditRotate struct {
	// MaxBytes rotates before a record would take the file past this size. 0: no limit.
	MaxBytes int64 `yaml:"max_bytes"`
	// MaxAge rotates when the file's first record is older than this. 0: no limit.
	MaxAge Duration `yaml:"max_age"`
}

// AuditCheckpoint configures signed checkpoints: lines {seq, hash, time, key_id, sig}
// appended to their own file, signed with Ed25519 over their RFC 8785 form.
type AuditCheckpoint struct {
	// Path is the checkpoint file, relative to the config file. Required. Keep it (or a
	// copy shipped off the host) where whoever can cut the trail cannot cut it too.
	Path string `yaml:"path"`
	// Every writes a checkpoint after this many records. Default 1000.
	Every int `yaml:"every"`
	// Interval writes a checkpoint this often when records were written since the last.
	// Default 1m. A checkpoint is also written at shutdown.
	Interval Duration `yaml:"interval"`
	// KeyFile is the Ed25519 private key, PEM PKCS#8 as `weir audit keygen` or
	// `openssl genpkey -algorithm ed25519` write it, relative to the config file. Required.
	KeyFile string `yaml:"key_file"`
}

// AuditHTTP ships records to an HTTP endpoint: batches of JSON lines POSTed in order
// (Content-Type application/x-ndjson, X-Weir-Audit-First-Seq), retried with exponential
// backoff until a 2xx answer.
type AuditHTTP struct {
	// URL receives the POSTs. Required, http or https.
	URL string `yaml:"url"`
	// Headers are added to every POST, e.g. {Authorization: "Bearer ${AUDIT_TOKEN}"}.
	Headers map[string]string `yaml:"headers"`
	// OnError is what happens while the endpoint is down: spool (records go through the
	// spool file, requests are served, the spool is replayed in order when the endpoint is
	// back, also after a restart) or fail_closed (requests are refused with 503 while it
	// is down; needs audit.on_error: fail_closed). Default spool.
	OnError string `yaml:"on_error"`
	// Spool is the spool file, relative to the config file. Default: the trail's path with
	// ".spool" appended; required when path is stdout.
	Spool string `yaml:"spool"`
	// Batch is the number of records per POST. Default 500.
	Batch int `yaml:"batch"`
	// FlushInterval is how long a partial batch waits. Default 1s.
	FlushInterval Duration `yaml:"flush_interval"`
	// Timeout bounds one POST. Default 10s.
	Timeout Duration `yaml:"timeout"`
	// MaxBackoff caps the delay between retries (100ms, doubling). Default 30s.
	MaxBackoff Duration `yaml:"max_backoff"`
}

// AuditUI configures the reviewers' web view (/ui on the admin listener, never on the
// public one).
type AuditUI struct {
	// Token is the admin token a reviewer gives to log in (or sends as "Authorization:
	// Bearer <token>"); at least 16 characters. Write it as ${WEIR_ADMIN_TOKEN}. Empty:
	// the web view is off.
	Token string `yaml:"token"`
}

// The values of AuditHTTP.OnError, and the defaults of the audit sections.
const (
	OnErrorSpool = "spool"

	DefaultCheckpointEvery    = 1000
	DefaultCheckpointInterval = time.Minute
	MinUITokenLength          = 16
)

func (a *Audit) defaults() {
	if cp := a.Checkpoint; cp != nil {
		if cp.Every == 0 {
			cp.Every = DefaultCheckpointEvery
		}
		defDur(&cp.Interval, DefaultCheckpointInterval)
	}
	if h := a.HTTP; h != nil {
		def(&h.OnError, OnErrorSpool)
		if h.Spool == "" && a.Path != AuditStdout {
			h.Spool = a.Path + ".spool"
		}
	}
}

func (a *Audit) resolve(dir string) {
	abs := func(p *string) {
		if *p != "" && !filepath.IsAbs(*p) {
			*p = filepath.Join(dir, *p)
		}
	}
	if a.Checkpoint != nil {
		abs(&a.Checkpoint.Path)
		abs(&a.Checkpoint.KeyFile)
	}
	if a.HTTP != nil {
		abs(&a.HTTP.Spool)
	}
}

func (a *Audit) validate(bad func(path, format string, args ...any)) {
	if a.OnError != OnErrorFailClosed && a.OnError != OnErrorLog {
		bad("audit.on_error", "audit.on_error must be fail_closed or log, not %q", a.OnError)
	}
	if a.Rotate.MaxBytes < 0 {
		bad("audit.rotate.max_bytes", "audit.rotate.max_bytes must not be negative")
	}
	if cp := a.Checkpoint; cp != nil {
		if cp.Path == "" {
			bad("audit.checkpoint", "audit.checkpoint.path is required")
		}
		if cp.KeyFile == "" {
			bad("audit.checkpoint", "audit.checkpoint.key_file is required (weir audit keygen writes one)")
		}
		if cp.Every < 0 {
			bad("audit.checkpoint.every", "audit.checkpoint.every must not be negative")
		}
	}
	if h := a.HTTP; h != nil {
		a.validateHTTP(h, bad)
	}
	if t := a.UI.Token; t != "" && len(t) < MinUITokenLength {
		bad("audit.ui.token", "audit.ui.token must have at least %d characters", MinUITokenLength)
	}
}

func (a *Audit) validateHTTP(h *AuditHTTP, bad func(path, format string, args ...any)) {
	if u, err := url.Parse(h.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		bad("audit.http.url", "audit.http.url must be an absolute http or https URL")
	}
	switch h.OnError {
	case OnErrorSpool:
		if h.Spool == "" {
			bad("audit.http", "audit.http.spool is required when audit.path is stdout")
		}
	case OnErrorFailClosed:
		if a.OnError != OnErrorFailClosed {
			bad("audit.http.on_error", "audit.http.on_error: fail_closed refuses requests while the endpoint is down; it needs audit.on_error: fail_closed")
		}
	default:
		bad("audit.http.on_error", "audit.http.on_error must be spool or fail_closed, not %q", h.OnError)
	}
	if h.Batch < 0 {
		bad("audit.http.batch", "audit.http.batch must not be negative")
	}
}

// redacted returns a copy without the UI token and the values of the HTTP headers.
func (a Audit) redacted() Audit {
	if a.UI.Token != "" {
		a.UI.Token = "[redacted]"
	}
	if a.HTTP != nil {
		h := *a.HTTP
		h.Headers = make(map[string]string, len(a.HTTP.Headers))
		for k := range a.HTTP.Headers {
			h.Headers[k] = "[redacted]"
		}
		a.HTTP = &h
	}
	return a
}
