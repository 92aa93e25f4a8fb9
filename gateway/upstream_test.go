package gateway

import (
	"bufio"
	"net"
	"strings"
	"testing"

	"github.com/valyala/fasthttp"

	"github.com/weirgw/weir/gateway/config"
)

// hopCases are header blocks with and without hop-by-hop headers, in the cases clients
// and upstreams write them.
var hopCases = []struct{ name, headers string }{
	{"none", "Content-Type: application/json\r\nX-Request-Id: r1\r\n"},
	{"connection close", "Connection: close\r\nX-Keep: 1\r\n"},
	{"connection names a header", "Connection: keep-alive, X-Secret\r\nX-Secret: s\r\nKeep-Alive: timeout=5\r\nX-Keep: 1\r\n"},
	{"lower case", "te: trailers\r\nupgrade: websocket\r\nx-keep: 1\r\n"},
	{"proxy headers", "Proxy-Authorization: Basic abc\r\nProxy-Connection: keep-alive\r\nProxy-Authenticate: Basic\r\n"},
	{"trailer", "Trailer: X-Checksum\r\nX-Keep: 1\r\n"},
	{"cookies", "Cookie: a=1; b=2\r\nX-Keep: 1\r\n"},
}

// TestStripHopFastPath checks that the one-pass check of stripResponseHop leaves every
// header block as stripHop alone does.
func TestStripHopFastPath(t *testing.T) {
	for _, tc := range hopCases {
		t.Run(tc.name, func(t *testing.T) {
			raw := "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n" + strings.ReplaceAll(tc.headers, "Cookie:", "Set-Cookie:") + "\r\n{}"
			var fastResp, simpleResp fasthttp.Response
			for _, r := range []*fasthttp.Response{&fastResp, &simpleResp} {
				if err := r.Read(bufio.NewReader(strings.NewReader(raw))); err != nil {
					t.Fatal(err)
				}
			}
			stripResponseHop(&fastResp.Header)
			stripHop(&simpleResp.Header)
			if got, want := fastResp.Header.String(), simpleResp.Header.String(); got != want {
				t.Errorf("response:\n%s\nwant\n%s", got, want)
			}
		})
	}
}

// TestPrepare checks the upstream request prepare builds: path under the base URL, query,
// the upstream's key and nothing of the client's credentials in any form or copy,
// X-Forwarded-For set to the address Weir saw, only allowlisted headers (and the upstream's
// forward_headers) passed on.
func TestPrepare(t *testing.T) {
	for _, tc := range []struct {
		name, key, wantAuth, wantXFF string
		forward                      []string
		ip                           net.IP
		wantKeep                     string
	}{
		{"key", "k1", "Bearer k1", "10.0.0.7", nil, net.IPv4(10, 0, 0, 7), ""},
		{"no key", "", "", "10.0.0.7", nil, net.IPv4(10, 0, 0, 7), ""},
		{"ipv6, forward_headers", "k2", "Bearer k2", "2001:db8::1", []string{"X-Keep"}, net.ParseIP("2001:db8::1"), "1"},
		{"no client ip", "k3", "Bearer k3", "", nil, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			up, err := newUpstream(config.Upstream{Name: "u", BaseURL: "http://127.0.0.1:9/base/v1/", APIKey: tc.key, ForwardHeaders: tc.forward})
			if err != nil {
				t.Fatal(err)
			}
			var in, out fasthttp.Request
			in.Header.SetMethod("POST")
			in.SetRequestURI("/v1/chat/completions?x=1&api-key=client-secret&api-version=2024-10-21")
			for _, h := range [][2]string{
				{"Authorization", "Bearer client"}, {"Authorization", "Bearer second-copy"},
				{"Api-Key", "azure-style"}, {"X-Api-Key", "anthropic-style"}, {"Proxy-Authorization", "Basic abc"},
				{"Cookie", "session=s"}, {"OpenAI-Organization", "org-client"}, {"OpenAI-Project", "proj"},
				{"Connection", "keep-alive, X-Secret"}, {"X-Secret", "s"}, {"X-Weir-Intent", "forged"},
				{"X-Weir-Decision-Id", "forged"}, {"X-Forwarded-For", "192.0.2.1"}, {"X-Keep", "1"},
				{"User-Agent", "OpenAI/Go"}, {"X-Stainless-Lang", "go"}, {"X-Request-Id", "r1"},
			} {
				in.Header.Add(h[0], h[1])
			}
			up.prepare(&in, &out, "/chat/completions", tc.ip, chatQuery)
			if got := string(out.URI().FullURI()); got != "http://127.0.0.1:9/base/v1/chat/completions?api-version=2024-10-21" {
				t.Errorf("URI = %s", got)
			}
			checks := map[string]string{
				"Authorization": tc.wantAuth, "X-Forwarded-For": tc.wantXFF, "X-Keep": tc.wantKeep,
				"Api-Key": "", "X-Api-Key": "", "Proxy-Authorization": "", "Cookie": "",
				"OpenAI-Organization": "", "OpenAI-Project": "",
				"X-Secret": "", "X-Weir-Intent": "", "X-Weir-Decision-Id": "", "Keep-Alive": "",
				"User-Agent": "OpenAI/Go", "X-Stainless-Lang": "go", "X-Request-Id": "r1",
			}
			for h, want := range checks {
				if got := string(out.Header.Peek(h)); got != want {
					t.Errorf("%s = %q, want %q", h, got, want)
				}
			}
			n := 0
			for k := range out.Header.All() {
				if strings.EqualFold(string(k), "Authorization") {
					n++
				}
			}
			if want := map[bool]int{true: 1, false: 0}[tc.key != ""]; n != want {
				t.Errorf("%d Authorization headers upstream, want %d", n, want)
			}
		})
	}
}

// BenchmarkPrepare builds the upstream request of a chat completion from a client request
// with the headers an OpenAI SDK sends.
func BenchmarkPrepare(b *testing.B) {
	up, err := newUpstream(config.Upstream{Name: "u", BaseURL: "http://127.0.0.1:9/v1", APIKey: "k"})
	if err != nil {
		b.Fatal(err)
	}
	var in fasthttp.Request
	in.Header.SetMethod("POST")
	in.SetRequestURI("/v1/chat/completions")
	for _, h := range [][2]string{{"Authorization", "Bearer client"}, {"Content-Type", "application/json"},
		{"User-Agent", "OpenAI/Python 1.0"}, {"X-Stainless-Lang", "python"}, {"X-Request-Id", "r1"}, {"Accept", "application/json"}} {
		in.Header.Set(h[0], h[1])
	}
	ip := net.IPv4(10, 0, 0, 7)
	b.ReportAllocs()
	for b.Loop() {
		out := fasthttp.AcquireRequest()
		up.prepare(&in, out, "/chat/completions", ip, chatQuery)
		fasthttp.ReleaseRequest(out)
	}
}

// TestQueryCredentialsStay: a client's key in the query string stays with Weir on every
// surface; a data API gets its other parameters.
func TestQueryCredentialsStay(t *testing.T) {
	for _, tc := range []struct {
		keep func([]byte) bool
		in   string
		want string
	}{
		{chatQuery, "?api-key=s&key=s&access_token=s&x=1", ""},
		{chatQuery, "?api-version=2024-10-21", "api-version=2024-10-21"},
		{dataQuery, "?q=fatturato&api-key=s&Access_Token=s&key=s&token=s&limit=5&limit=6", "q=fatturato&limit=5&limit=6"},
	} {
		var in, out fasthttp.Request
		in.SetRequestURI("/x" + tc.in)
		copyQuery(in.URI().QueryArgs(), out.URI().QueryArgs(), tc.keep)
		if got := out.URI().QueryArgs().String(); got != tc.want {
			t.Errorf("%s: forwarded %q, want %q", tc.in, got, tc.want)
		}
	}
}
