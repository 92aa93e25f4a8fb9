package gateway

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/weirgw/weir/gateway/auth"
)

// limitedGateway serves one API key with the limits lines given (indented under limits:).
func limitedGateway(t *testing.T, key string, limitLines string) *testEnv {
	t.Helper()
	return startGateway(t, gwParams{routeAuth: "required", limitLines: limitLines,
		extra: fmt.Sprintf("auth:\n  api_keys: [{id: svc, sha256: %s, tenant: acme}]\n", auth.Digest(key))})
}

func keyed(key string) [][2]string { return [][2]string{{"Authorization", "Bearer " + key}} }

// TestRateLimits: a spent budget answers 429 with Retry-After in OpenAI's format, counted
// and recorded; requests and tokens, subject and tenant.
func TestRateLimits(t *testing.T) {
	key, _, _ := auth.NewKey()
	ask := []byte(chatBody("Ciao, grazie!", ""))
	tests := []struct {
		name      string
		limits    string
		allowed   int
		wantType  string
		wantScope string
	}{
		{"subject requests", "  per_subject: {requests_per_minute: 2}\n", 2, "requests", "subject"},
		{"tenant requests", "  per_tenant: {requests_per_minute: 3}\n", 3, "requests", "tenant"},
		// The scripted upstream reports 2 tokens per answer: 3 per minute allow two answers
		// (the second overspends), then the budget is spent.
		{"subject tokens", "  per_subject: {tokens_per_minute: 3}\n", 2, "tokens", "subject"},
		{"tenant tokens", "  per_tenant: {tokens_per_minute: 1}\n", 1, "tokens", "tenant"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := limitedGateway(t, key, tc.limits)
			for i := range tc.allowed {
				if status, body, _ := postWith(t, e, "/v1/chat/completions", ask, keyed(key)); status != 200 {
					t.Fatalf("request %d: %d %s", i, status, body)
				}
			}
			status, body, h := postWith(t, e, "/v1/chat/completions", ask, keyed(key))
			var eb errorBody
			if status != 429 || json.Unmarshal(body, &eb) != nil || eb.Error.Type != tc.wantType || eb.Error.Code != "rate_limit_exceeded" || !strings.Contains(eb.Error.Message, tc.wantScope) {
				t.Fatalf("over the budget: %d %s", status, body)
			}
			if s, err := strconv.Atoi(string(h.Peek("Retry-After"))); err != nil || s < 1 || s > 60 {
				t.Errorf("Retry-After %q", h.Peek("Retry-After"))
			}
			rec := e.lastRecord(t)
			if rec.Status != 429 || rec.Outcome != "blocked" || rec.Error != "rate_limit_exceeded" || rec.DecisionID != eb.Error.DecisionID || rec.Intent != "" {
				t.Errorf("record %+v", rec)
			}
			if m := adminGet(t, e.g.AdminAddr(), "/metrics"); !strings.Contains(m, fmt.Sprintf(`weir_rate_limited_total{kind=%q,scope=%q} 1`, tc.wantType, tc.wantScope)) {
				t.Errorf("metrics lack the 429")
			}
		})
	}
	t.Run("a reload keeps the budgets spent", func(t *testing.T) {
		e := limitedGateway(t, key, "  per_subject: {requests_per_minute: 1}\n")
		postWith(t, e, "/v1/chat/completions", ask, keyed(key))
		if err := e.g.Reload(context.Background()); err != nil {
			t.Fatal(err)
		}
		if status, _, _ := postWith(t, e, "/v1/chat/completions", ask, keyed(key)); status != 429 {
			t.Errorf("after a reload: %d, want 429 (the store is kept)", status)
		}
	})
	t.Run("an API key's own limits replace per_subject", func(t *testing.T) {
		e := startGateway(t, gwParams{routeAuth: "required", limitLines: "  per_subject: {requests_per_minute: 100}\n",
			extra: fmt.Sprintf("auth:\n  api_keys: [{id: svc, sha256: %s, limits: {requests_per_minute: 1}}]\n", auth.Digest(key))})
		postWith(t, e, "/v1/chat/completions", ask, keyed(key))
		if status, _, _ := postWith(t, e, "/v1/chat/completions", ask, keyed(key)); status != 429 {
			t.Errorf("second request: %d", status)
		}
	})
}

// TestStreamTokens: a token budget makes a stream ask its upstream for usage, charges it,
// and does not hand the client a usage chunk it did not ask for.
func TestStreamTokens(t *testing.T) {
	key, _, _ := auth.NewKey()
	e := limitedGateway(t, key, "  per_subject: {tokens_per_minute: 20}\n")
	usage := `data: {"id":"chatcmpl-s","object":"chat.completion.chunk","created":1,"model":"scripted-model","choices":[],"usage":{"prompt_tokens":4,"completion_tokens":8,"total_tokens":12}}` + "\n\n"
	e.up.set(streamReply(roleChunk(), textChunk("Ciao!"), finishChunk("stop"), usage, sseDone))
	for _, tc := range []struct {
		extra      string
		wantStatus int
		wantUsage  bool
	}{
		{`,"stream":true`, 200, false},
		{`,"stream":true,"stream_options":{"include_usage":true}`, 200, true},
		{`,"stream":true`, 429, false}, // 24 tokens of 20 spent
	} {
		status, body, _ := postWith(t, e, "/v1/chat/completions", []byte(chatBody("Ciao, grazie!", tc.extra)), keyed(key))
		if status != tc.wantStatus {
			t.Fatalf("%s: status %d %s", tc.extra, status, body)
		}
		if strings.Contains(string(body), `"usage"`) != tc.wantUsage {
			t.Errorf("%s: usage chunk forwarded = %v:\n%s", tc.extra, !tc.wantUsage, body)
		}
		if status == 200 {
			last, _, _ := e.up.last()
			if so, _ := last["stream_options"].(map[string]any); so["include_usage"] != true {
				t.Errorf("the upstream was not asked for usage: %v", last)
			}
		}
	}
}

// TestQueryOwnRateLimit: the query surface answers 429 in seed 000's format.
func TestQueryOwnRateLimit(t *testing.T) {
	e := startQueryGateway(t, queryParams{example: "analytics", extra: "limits:\n  per_subject: {requests_per_minute: 1}\n"})
	if status, _, _, _ := e.ask(t, `{"query":"Qual è il fatturato totale?"}`); status != 200 {
		t.Fatalf("first: %d", status)
	}
	status, b, h := rawPost(t, e.g.Addr(), "/v1/query", []byte(`{"query":"Qual è il fatturato totale?"}`))
	if status != 429 || !strings.Contains(string(b), `"RATE_LIMIT_ERROR"`) || len(h.Peek("Retry-After")) == 0 {
		t.Errorf("second: %d %s Retry-After %q", status, b, h.Peek("Retry-After"))
	}
}

func randomPrefix() string {
	b := make([]byte, 6)
	rand.Read(b)
	return "weir-test:" + hex.EncodeToString(b) + ":"
}

func redisAnswers(addr string) bool {
	c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

// TestSharedRedisLimit: two gateways, each with its own listener, sharing the Redis on
// 127.0.0.1:6379, hold one budget under concurrent load.
func TestSharedRedisLimit(t *testing.T) {
	if !redisAnswers("127.0.0.1:6379") {
		t.Skip("no Redis answers on 127.0.0.1:6379; the shared-limit test needs one (skipped)")
	}
	key, _, _ := auth.NewKey()
	const budget = 20
	lines := fmt.Sprintf("  redis: redis://127.0.0.1:6379/0\n  redis_prefix: %q\n  per_subject: {requests_per_minute: %d}\n", randomPrefix(), budget)
	replicas := []*testEnv{limitedGateway(t, key, lines), limitedGateway(t, key, lines)}
	counts := load(t, replicas, key, 8, 10)
	ok := counts[200][0] + counts[200][1]
	refilled := counts[-1][0]/3 + 1 // one request every 3s refills while the load runs
	if ok < budget || ok > budget+refilled || counts[429][0]+counts[429][1] != 80-ok {
		t.Errorf("statuses %v: want %d (+%d refilled) allowed in all, the rest 429", counts, budget, refilled)
	}
	if counts[200][0] == 0 || counts[200][1] == 0 || counts[429][0] == 0 || counts[429][1] == 0 {
		t.Errorf("statuses %v: both replicas should have served and refused", counts)
	}
}

// load sends workers×each requests with key, alternating replicas, and counts statuses per
// replica; counts[-1][0] is the seconds the load took.
func load(t *testing.T, replicas []*testEnv, key string, workers, each int) map[int][]int {
	t.Helper()
	var mu sync.Mutex
	counts := map[int][]int{200: {0, 0}, 429: {0, 0}, 503: {0, 0}}
	start := time.Now()
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				r := (w + i) % len(replicas)
				status := sendKeyed(t, replicas[r].g.Addr(), key)
				mu.Lock()
				if counts[status] == nil {
					counts[status] = []int{0, 0}
				}
				counts[status][r]++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	counts[-1] = []int{int(time.Since(start).Seconds())}
	return counts
}

var sendClient = &fasthttp.Client{MaxConnsPerHost: 64}

func sendKeyed(t *testing.T, addr, key string) int {
	req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(resp)
	req.SetRequestURI("http://" + addr + "/v1/chat/completions")
	req.Header.SetMethod("POST")
	req.Header.SetContentType("application/json")
	req.Header.Set("Authorization", "Bearer "+key)
	req.SetBodyString(chatBody("Ciao, grazie!", ""))
	if err := sendClient.DoTimeout(req, resp, 10*time.Second); err != nil {
		t.Errorf("request: %v", err)
		return 0
	}
	return resp.StatusCode()
}

// TestRedisKilledMidLoad starts its own redis-server, kills it while two gateways are under
// load, and checks each follows its on_store_error: deny answers 503 limits_unavailable,
// allow serves; both count the failures.
func TestRedisKilledMidLoad(t *testing.T) {
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Skip("redis-server is not on PATH; the store-failure test needs it (skipped)")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	srv := exec.Command(bin, "--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no")
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	killed := false
	t.Cleanup(func() {
		if !killed {
			srv.Process.Kill()
		}
		srv.Wait()
	})
	addr := "127.0.0.1:" + strconv.Itoa(port)
	for i := 0; !redisAnswers(addr); i++ {
		if i == 100 {
			t.Fatal("the test's redis-server did not start")
		}
		time.Sleep(50 * time.Millisecond)
	}
	key, _, _ := auth.NewKey()
	lines := func(action string) string {
		return fmt.Sprintf("  redis: redis://%s/0\n  on_store_error: %s\n  per_subject: {requests_per_minute: 100000}\n", addr, action)
	}
	deny, allow := limitedGateway(t, key, lines("deny")), limitedGateway(t, key, lines("allow"))
	before := load(t, []*testEnv{deny, allow}, key, 4, 5)
	if before[200][0] != 10 || before[200][1] != 10 {
		t.Fatalf("with Redis up: %v", before)
	}
	// Kill it while requests are in flight, then load again.
	var wg sync.WaitGroup
	wg.Go(func() { load(t, []*testEnv{deny, allow}, key, 4, 5) })
	srv.Process.Kill()
	killed = true
	wg.Wait()
	after := load(t, []*testEnv{deny, allow}, key, 4, 5)
	if after[503][0] != 10 || after[200][1] != 10 {
		t.Errorf("with Redis down: %v; want deny 503 and allow 200 for every request", after)
	}
	status, body, h := postWith(t, deny, "/v1/chat/completions", []byte(chatBody("Ciao, grazie!", "")), keyed(key))
	var eb errorBody
	if status != 503 || json.Unmarshal(body, &eb) != nil || eb.Error.Code != "limits_unavailable" || len(h.Peek("Retry-After")) == 0 {
		t.Errorf("deny: %d %s", status, body)
	}
	for name, e := range map[string]*testEnv{"deny": deny, "allow": allow} {
		if m := adminGet(t, e.g.AdminAddr(), "/metrics"); !strings.Contains(m, `weir_limit_store_errors_total{action="`+name+`"}`) {
			t.Errorf("%s: the store errors are not counted", name)
		}
		if !strings.Contains(e.logs.String(), "rate-limit store unreachable") {
			t.Errorf("%s: the store errors are not logged", name)
		}
	}
}
