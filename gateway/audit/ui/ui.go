// Package ui is the reviewers' web view of the audit trail, served on the admin listener
// under /ui: a decisions list filterable by time range, outcome, intent, subject, route,
// tool and violation code; a page per decision with every field of its record; and a
// summary with charts. Pages are rendered on the server with html/template, charts as
// inline SVG, assets embedded: no JavaScript, no external resource.
//
// Every page but the login form needs the admin token: as "Authorization: Bearer <token>",
// or the session cookie the login form sets (an HMAC of the token, HttpOnly, SameSite
// Strict, scoped to /ui).
package ui

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"embed"
	"encoding/hex"
	"html/template"
	"io/fs"
	"net/http"
	"strings"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// Options configure the web view.
type Options struct {
	// Trail is the live trail file; its rotated files are read too. "" or "stdout": there
	// is no file to read, and the pages say so.
	Trail string
	// Token is the admin token; empty turns the web view off (404).
	Token string
	// Prefix is where the handler is mounted; default /ui.
	Prefix string
}

// Handler serves the web view.
type Handler struct {
	opts    Options
	session string
	pages   *template.Template
	mux     *http.ServeMux
}

// New returns the web view's handler.
func New(opts Options) *Handler {
	if opts.Prefix == "" {
		opts.Prefix = "/ui"
	}
	h := &Handler{opts: opts, session: sessionValue(opts.Token)}
	h.pages = template.Must(template.New("").Funcs(funcs(opts.Prefix)).ParseFS(templateFS, "templates/*.html"))
	static, _ := fs.Sub(staticFS, "static")
	p := opts.Prefix
	h.mux = http.NewServeMux()
	h.mux.Handle("GET "+p+"/static/", http.StripPrefix(p+"/static/", http.FileServerFS(static)))
	h.mux.HandleFunc("GET "+p+"/login", h.loginForm)
	h.mux.HandleFunc("POST "+p+"/login", h.login)
	h.mux.HandleFunc("POST "+p+"/logout", h.logout)
	h.mux.Handle("GET "+p+"/{$}", h.auth(h.list))
	h.mux.Handle("GET "+p+"/decision/{id}", h.auth(h.decision))
	h.mux.Handle("GET "+p+"/summary", h.auth(h.summary))
	return h
}

// ServeHTTP serves the pages, with headers that keep them out of caches and frames.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h.opts.Token == "" {
		http.Error(w, "the audit web view is off: set audit.ui.token in the config", http.StatusNotFound)
		return
	}
	hd := w.Header()
	hd.Set("Content-Security-Policy", "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'")
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "no-referrer")
	hd.Set("Cache-Control", "no-store")
	if r.URL.Path == h.opts.Prefix {
		http.Redirect(w, r, h.opts.Prefix+"/", http.StatusFound)
		return
	}
	h.mux.ServeHTTP(w, r)
}

const cookieName = "weir_ui"

// sessionValue is the cookie a logged-in browser carries: not the token itself.
func sessionValue(token string) string {
	m := hmac.New(sha256.New, []byte(token))
	m.Write([]byte("weir audit ui session"))
	return hex.EncodeToString(m.Sum(nil))
}

// auth lets a request through with the token or the session cookie; a browser without
// them is sent to the login form, anything else gets 401.
func (h *Handler) auth(next http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if bearer, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok && equal(bearer, h.opts.Token) {
			next(w, r)
			return
		}
		if c, err := r.Cookie(cookieName); err == nil && equal(c.Value, h.session) {
			next(w, r)
			return
		}
		if strings.Contains(r.Header.Get("Accept"), "text/html") {
			http.Redirect(w, r, h.opts.Prefix+"/login", http.StatusSeeOther)
			return
		}
		w.Header().Set("WWW-Authenticate", `Bearer realm="weir audit"`)
		http.Error(w, "the admin token is required", http.StatusUnauthorized)
	})
}

func equal(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }

func (h *Handler) loginForm(w http.ResponseWriter, r *http.Request) {
	h.render(w, http.StatusOK, "login.html", map[string]any{"Failed": false})
}

func (h *Handler) login(w http.ResponseWriter, r *http.Request) {
	if !equal(r.PostFormValue("token"), h.opts.Token) {
		h.render(w, http.StatusUnauthorized, "login.html", map[string]any{"Failed": true})
		return
	}
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: h.session, Path: h.opts.Prefix,
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil})
	http.Redirect(w, r, h.opts.Prefix+"/", http.StatusSeeOther)
}

func (h *Handler) logout(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: "", Path: h.opts.Prefix, MaxAge: -1, HttpOnly: true})
	http.Redirect(w, r, h.opts.Prefix+"/login", http.StatusSeeOther)
}

// render executes a page; a template error is a 500 with nothing of the page sent.
func (h *Handler) render(w http.ResponseWriter, status int, page string, data any) {
	var b strings.Builder
	if err := h.pages.ExecuteTemplate(&b, page, data); err != nil {
		http.Error(w, "page error: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(b.String()))
}
