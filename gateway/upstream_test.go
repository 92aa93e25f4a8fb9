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

// TestStripHopFastPath checks that the one-pass check of stripRequestHop and
// stripResponseHop leaves every header block as stripHop alone does.
func TestStripHopFastPath(t *testing.T) {
	for _, tc := range hopCases {
		t.Run(tc.name, func(t *testing.T) {
			raw := "POST /v1/chat/completions HTTP/1.1\r\nHost: weir\r\nContent-Length: 2\r\n" + tc.headers + "\r\n{}"
			var fast, simple fasthttp.Request
			for _, r := range []*fasthttp.Request{&fast, &simple} {
				if err := r.Read(bufio.NewReader(strings.NewReader(raw))); err != nil {
					t.Fatal(err)
				}
			}
			stripRequestHop(&fast.Header)
			stripHop(&simple.Header)
			if got, want := fast.Header.String(), simple.Header.String(); got != want {
				t.Errorf("request:\n%s\nwant\n%s", got, want)
			}

			raw = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n" + strings.ReplaceAll(tc.headers, "Cookie:", "Set-Cookie:") + "\r\n{}"
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
// the upstream's key, X-Forwarded-For appended, hop-by-hop and Weir headers removed.
func TestPrepare(t *testing.T) {
	for _, tc := range []struct {
		name, key, xff, wantAuth, wantXFF string
		ip                                net.IP
	}{
		{"key, no prior", "k1", "", "Bearer k1", "10.0.0.7", net.IPv4(10, 0, 0, 7)},
		{"no key, prior", "", "192.0.2.1", "", "192.0.2.1, 10.0.0.7", net.IPv4(10, 0, 0, 7)},
		{"ipv6", "k2", "192.0.2.1, 192.0.2.2", "Bearer k2", "192.0.2.1, 192.0.2.2, 2001:db8::1", net.ParseIP("2001:db8::1")},
		{"no client ip", "k3", "192.0.2.1", "Bearer k3", "192.0.2.1", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			up, err := newUpstream(config.Upstream{Name: "u", BaseURL: "http://127.0.0.1:9/base/v1/", APIKey: tc.key})
			if err != nil {
				t.Fatal(err)
			}
			var in, out fasthttp.Request
			in.Header.SetMethod("POST")
			in.SetRequestURI("/v1/chat/completions?x=1")
			in.Header.Set("Authorization", "Bearer client")
			in.Header.Set("Connection", "keep-alive, X-Secret")
			in.Header.Set("X-Secret", "s")
			in.Header.Set("X-Weir-Intent", "forged")
			in.Header.Set("X-Keep", "1")
			if tc.xff != "" {
				in.Header.Set("X-Forwarded-For", tc.xff)
			}
			up.prepare(&in, &out, "/chat/completions", tc.ip)
			if got := string(out.URI().FullURI()); got != "http://127.0.0.1:9/base/v1/chat/completions?x=1" {
				t.Errorf("URI = %s", got)
			}
			checks := map[string]string{
				"Authorization": tc.wantAuth, "X-Forwarded-For": tc.wantXFF, "X-Keep": "1",
				"X-Secret": "", "X-Weir-Intent": "", "Keep-Alive": "",
			}
			for h, want := range checks {
				if got := string(out.Header.Peek(h)); got != want {
					t.Errorf("%s = %q, want %q", h, got, want)
				}
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
		up.prepare(&in, out, "/chat/completions", ip)
		fasthttp.ReleaseRequest(out)
	}
}
