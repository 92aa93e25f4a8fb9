package gateway

import (
	"bytes"
	"strings"

	"github.com/valyala/fasthttp"
)

// forwardedRequestHeaders are the only client headers that go upstream (with an upstream's
// forward_headers). Everything else stays with Weir: credentials of every form — all copies
// of Authorization, api-key, x-api-key, Proxy-Authorization, cookies —, the client's account
// headers (OpenAI-Organization, OpenAI-Project), X-Weir-* headers (set only by Weir),
// X-Forwarded-For (a claim: Weir sets the address it saw) and hop-by-hop headers. The
// upstream gets the route's own key.
var forwardedRequestHeaders = []string{"User-Agent", "Accept-Language", "X-Request-Id"}

// forwardedRequestPrefixes are header name prefixes forwarded too: the OpenAI SDKs'
// telemetry (X-Stainless-Lang, …), which describes the client library only.
var forwardedRequestPrefixes = []string{"X-Stainless-"}

// forwardedResponseHeaders are the only upstream response headers the client sees besides
// Weir's own (Content-Type, X-Weir-Decision-Id, X-Weir-Intent): the upstream's request id,
// its timing and its rate-limit state, which clients read to back off.
var forwardedResponseHeaders = []string{"X-Request-Id", "Openai-Processing-Ms", "Openai-Version", "Retry-After", "Retry-After-Ms"}

var forwardedResponsePrefixes = []string{"X-Ratelimit-"}

// dataResponseHeaders are the response headers of a data API the client sees: the body's
// description and caching.
var dataResponseHeaders = []string{"Content-Type", "Content-Language", "Cache-Control", "Expires", "Etag", "Last-Modified", "Vary", "Retry-After"}

// header is one response header kept for the client.
type header struct{ key, value string }

// allowedHeader reports whether key is one of names or starts with one of prefixes, in any
// case.
func allowedHeader(key []byte, names, prefixes []string) bool {
	for _, n := range names {
		if len(n) == len(key) && strings.EqualFold(n, string(key)) {
			return true
		}
	}
	for _, p := range prefixes {
		if len(key) > len(p) && bytes.EqualFold(key[:len(p)], []byte(p)) {
			return true
		}
	}
	return false
}

// copyRequestHeaders copies the client's forwardable headers into out.
func copyRequestHeaders(in *fasthttp.RequestHeader, out *fasthttp.RequestHeader, extra []string) {
	for k, v := range in.All() {
		if allowedHeader(k, forwardedRequestHeaders, forwardedRequestPrefixes) || allowedHeader(k, extra, nil) {
			out.AddBytesKV(k, v)
		}
	}
}

// keptResponseHeaders returns the upstream's response headers the client may see.
func keptResponseHeaders(h *fasthttp.ResponseHeader, names, prefixes []string) []header {
	var out []header
	for k, v := range h.All() {
		if allowedHeader(k, names, prefixes) && !bytes.HasPrefix(bytes.ToLower(k), []byte("x-weir-")) {
			out = append(out, header{string(k), string(v)})
		}
	}
	return out
}

// setWeirHeaders sets Weir's own response headers, once each.
func setWeirHeaders(h *fasthttp.ResponseHeader, decisionID, intent string) {
	if decisionID != "" {
		h.Set("X-Weir-Decision-Id", decisionID)
	}
	if intent != "" {
		h.Set("X-Weir-Intent", intent)
	}
}

// chatQuery keeps the query parameters of an OpenAI-compatible call: only Azure OpenAI's
// api-version; a chat completion takes everything else in its body, and a client's key in
// the query string (?api-key=…) must not go upstream.
func chatQuery(key []byte) bool { return string(key) == "api-version" }

// dataQuery keeps a data API's query parameters but those that carry credentials: the
// data API gets the route's key, never the client's.
func dataQuery(key []byte) bool {
	switch strings.ToLower(string(key)) {
	case "api-key", "api_key", "apikey", "key", "access_token", "accesstoken", "token", "id_token",
		"auth", "authorization", "password", "passwd", "secret", "client_secret", "sig", "signature":
		return false
	}
	return true
}

// copyQuery copies the query parameters keep allows, every copy, in order.
func copyQuery(in, out *fasthttp.Args, keep func(key []byte) bool) {
	for k, v := range in.All() {
		if keep(k) {
			out.AddBytesKV(k, v)
		}
	}
}
