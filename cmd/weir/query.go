package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/valyala/fasthttp"

	"github.com/weirgw/weir/gateway"
	"github.com/weirgw/weir/gateway/query"
)

func init() {
	registered["query"] = command{`answer one question through a query route (--config FILE "question")`, runQuery}
}

// runQuery answers one question with the same code as POST /v1/query on a running gateway
// and prints the response JSON. Exit 0 on an answer, 1 on an error response or a config
// that does not load, 2 on a usage error.
func runQuery(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("query", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfg := fs.String("config", "", "gateway config file with a query route (required)")
	routeName := fs.String("route", "", "the query route's name (default: the first query route)")
	mode := fs.String("mode", "", "auto, simple (data), complex (llm) or hybrid (data+llm)")
	maxResults := fs.Int("max-results", 0, "lower the route's row cap")
	keyEnv := fs.String("api-key-env", "WEIR_API_KEY", "the `NAME` of the variable holding the caller's API key or token, sent as Authorization: Bearer when set (for routes with auth: required or optional)")
	auditPath := fs.String("audit", "", "append the decision's audit record to this file (default: not kept)")
	explain := fs.Bool("explain", false, "first show how the question was read: the semantic query, the SQL of every read, and what it does not cover")
	page := fs.Int("page", 0, "the page of a listing to return (from 1)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *cfg == "" || fs.NArg() != 1 {
		fmt.Fprintln(stderr, `usage: weir query --config FILE [--route NAME] [--mode MODE] [--max-results N] [--page N] [--explain] "question"`)
		fs.PrintDefaults()
		return 2
	}
	opts := gateway.Options{ConfigPath: *cfg, Logger: slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn})), AuditSink: io.Discard}
	if *auditPath != "" {
		f, err := os.OpenFile(*auditPath, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
		if err != nil {
			fmt.Fprintf(stderr, "weir query: %v\n", err)
			return 1
		}
		defer f.Close()
		opts.AuditSink = f
	}
	ctx := context.Background()
	g, err := gateway.New(ctx, opts)
	if err != nil {
		fmt.Fprintf(stderr, "weir query: %v\n", err)
		return 1
	}
	defer func() { _ = g.Shutdown(ctx) }()
	path, err := g.QueryPath(*routeName)
	if err != nil {
		fmt.Fprintf(stderr, "weir query: %v\n", err)
		return 1
	}
	body, _ := json.Marshal(query.Request{Query: fs.Arg(0), Options: query.Options{Mode: *mode, MaxResults: *maxResults, Page: *page, Explain: *explain}})
	req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(resp)
	req.Header.SetMethod(fasthttp.MethodPost)
	req.SetRequestURI("http://weir" + path)
	req.Header.SetContentType("application/json")
	if key := os.Getenv(*keyEnv); key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	req.SetBody(body)
	g.Do(req, resp)
	if *explain {
		writeExplain(stdout, resp.Body())
	}
	var out bytes.Buffer
	if json.Indent(&out, resp.Body(), "", "  ") != nil {
		out.Reset()
		out.Write(resp.Body())
	}
	fmt.Fprintln(stdout, out.String())
	if resp.StatusCode() != fasthttp.StatusOK {
		return 1
	}
	return 0
}
