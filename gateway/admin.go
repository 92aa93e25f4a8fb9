package gateway

import (
	"encoding/json"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/valyala/fasthttp"
	"github.com/valyala/fasthttp/fasthttpadaptor"
)

// Status is the JSON document of /admin/status.
type Status struct {
	Config          string    `json:"config"`
	PackName        string    `json:"pack"`
	PackRevision    string    `json:"pack_revision"`
	PolicyRevision  string    `json:"policy_revision"`
	LoadedAt        time.Time `json:"loaded_at"`
	Reloads         int       `json:"reloads"`
	ReloadFailures  int       `json:"reload_failures"`
	LastReloadAt    time.Time `json:"last_reload_at,omitzero"`
	LastReloadError string    `json:"last_reload_error,omitempty"` // with file:line; cleared by the next good reload
	Warnings        []string  `json:"warnings,omitempty"`          // rule pack / policy bundle mismatches
}

// Status reports the running snapshot and the reload history.
func (g *Gateway) Status() Status {
	s := g.snap.Load()
	g.status.mu.Lock()
	defer g.status.mu.Unlock()
	return Status{
		Config: s.Config.File, PackName: s.Pack.Name(), PackRevision: s.Pack.Revision(),
		PolicyRevision: s.Bundle.Revision(), LoadedAt: s.LoadedAt.UTC(),
		Reloads: g.status.reloads, ReloadFailures: g.status.failures,
		LastReloadAt: g.status.lastAt.UTC(), LastReloadError: g.status.lastError,
		Warnings: s.Warnings,
	}
}

func (g *Gateway) adminHandler() fasthttp.RequestHandler {
	metrics := fasthttpadaptor.NewFastHTTPHandler(promhttp.HandlerFor(g.metrics.reg, promhttp.HandlerOpts{}))
	webView := g.uiHandler()
	return func(rc *fasthttp.RequestCtx) {
		switch string(rc.Path()) {
		case "/metrics":
			metrics(rc)
		case "/healthz":
			rc.SetContentType("text/plain; charset=utf-8")
			rc.SetBodyString("ok\n")
		case "/readyz":
			rc.SetContentType("text/plain; charset=utf-8")
			if g.snap.Load() == nil {
				rc.SetStatusCode(fasthttp.StatusServiceUnavailable)
				rc.SetBodyString("no snapshot\n")
				return
			}
			rc.SetBodyString("ready\n")
		case "/admin/status":
			b, _ := json.MarshalIndent(g.Status(), "", "  ")
			rc.SetContentType("application/json")
			rc.SetBody(append(b, '\n'))
		default:
			if isUI(rc.Path()) {
				webView(rc)
				return
			}
			rc.SetStatusCode(fasthttp.StatusNotFound)
			rc.SetBodyString("not found\n")
		}
	}
}
