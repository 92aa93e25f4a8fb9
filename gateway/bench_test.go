package gateway

import (
	"bytes"
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/valyala/fasthttp"

	"github.com/weirgw/weir/gateway/chat"
	"github.com/weirgw/weir/gateway/config"
	"github.com/weirgw/weir/gateway/openai"
)

// BenchmarkChatToolCall runs the whole chat path in process (handler call, no client
// connection) for an analytics question whose answer proposes one allowed tool call; the
// scripted upstream is on loopback, so the number includes one local round trip.
func BenchmarkChatToolCall(b *testing.B) {
	e := startGateway(b, gwParams{})
	e.up.set(reply("", call{"execute_metric", `{"metric":"revenue"}`}))
	body := []byte(`{"model":"m","messages":[{"role":"user","content":"Qual è il fatturato totale?"}],` +
		`"tools":[{"type":"function","function":{"name":"execute_metric","parameters":{"type":"object"}}}]}`)
	var req fasthttp.Request
	req.Header.SetMethod("POST")
	req.SetRequestURI("/v1/chat/completions")
	req.SetBody(body)
	b.ReportAllocs()
	for b.Loop() {
		var rc fasthttp.RequestCtx
		rc.Init(&req, nil, nil)
		e.g.handle(&rc)
		if rc.Response.StatusCode() != 200 {
			b.Fatalf("status %d: %s", rc.Response.StatusCode(), rc.Response.Body())
		}
	}
}

// benchChatBody is the load harness's 1-tool-call request (cmd/weir/loadtest): a system
// prompt, a question and four tool definitions with their JSON Schemas.
var benchChatBody = []byte(`{"messages":[{"content":"Sei l'assistente di analisi di un ristorante. Rispondi in italiano, in modo conciso. Usa sempre gli strumenti per ottenere i numeri: non inventare mai valori. Gli strumenti disponibili calcolano metriche (fatturato, food cost, ordini, ticket medio, margine), aggregazioni per categoria, cameriere o mese, e confronti tra periodi.","role":"system"},{"content":"Qual è il fatturato totale del 2024?","role":"user"}],"model":"gpt-4o-mini","temperature":0,` +
	`"tools":[{"function":{"description":"Calcola una metrica sui dati degli ordini.","name":"execute_metric","parameters":{"properties":{"metric":{"enum":["revenue","food_cost","order_count","ticket_medio","gross_margin"],"type":"string"},"month":{"maximum":12,"minimum":1,"type":"integer"},"year":{"type":"integer"}},"type":"object"}},"type":"function"},` +
	`{"function":{"description":"Aggrega una metrica per una dimensione.","name":"aggregate_group","parameters":{"properties":{"group_by":{"enum":["category","waiter","month","payment_method"],"type":"string"},"limit":{"type":"integer"},"metric":{"type":"string"},"year":{"type":"integer"}},"type":"object"}},"type":"function"},` +
	`{"function":{"description":"Confronta una metrica tra due periodi.","name":"compare_periods","parameters":{"properties":{"from":{"type":"string"},"metric":{"type":"string"},"to":{"type":"string"}},"type":"object"}},"type":"function"},` +
	`{"function":{"description":"Restituisce righe grezze degli ordini.","name":"filter_data","parameters":{"properties":{"limit":{"maximum":100,"type":"integer"}},"type":"object"}},"type":"function"}]}`)

// BenchmarkChatRequest decodes the 1-tool-call request, narrows its tools to the analytics
// intent's and encodes what is forwarded.
func BenchmarkChatRequest(b *testing.B) {
	allowed := []string{"execute_metric", "aggregate_group", "compare_periods"}
	offer := func(name string) bool { return slices.Contains(allowed, name) }
	b.ReportAllocs()
	for b.Loop() {
		req, err := openai.DecodeRequest(benchChatBody)
		if err != nil {
			b.Fatal(err)
		}
		if len(req.Encode(offer)) == 0 {
			b.Fatal("empty request")
		}
	}
}

// benchCompletion is a 1-tool-call answer.
var benchCompletion = []byte(`{"choices":[{"finish_reason":"tool_calls","index":0,"message":{"content":null,"role":"assistant","tool_calls":[{"function":{"arguments":"{\"metric\":\"revenue\",\"year\":2024}","name":"execute_metric"},"id":"call_rev","type":"function"}]}}],"created":1767225600,"id":"chatcmpl-bench","model":"gpt-4o-mini","object":"chat.completion","usage":{"completion_tokens":60,"prompt_tokens":850,"total_tokens":910}}`)

// BenchmarkChatResponse decodes a 1-tool-call answer and encodes it again, as the gateway
// forwards it.
func BenchmarkChatResponse(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		c, err := openai.DecodeCompletion(benchCompletion)
		if err != nil {
			b.Fatal(err)
		}
		if len(openai.EncodeCompletion(c, c.Answer.Choices)) == 0 {
			b.Fatal("empty answer")
		}
	}
}

// benchExchange is an admitted analytics exchange on a rewrite route, with the tool
// result that grounds 21956.62, for the answer check's benchmarks.
func benchExchange(b *testing.B, g *Gateway) *exchange {
	rc := &fasthttp.RequestCtx{}
	rc.Request.Header.SetMethod("POST")
	rc.Request.SetRequestURI("/v1/chat/completions")
	rc.Request.SetBody(attackRequest(true))
	snap := g.Snapshot()
	r, sub := snap.match("/v1/chat/completions")
	rt := *r
	rt.cfg.OnViolation = config.OnViolationRewrite
	x := newExchange(g, rc, snap, &rt, sub, &openaiChat{})
	if err := x.run(g.base, stagesThrough("admit")); err != nil {
		b.Fatal(err)
	}
	return x
}

// BenchmarkRewriteLargeAnswer checks and rewrites answers of 100 KB and 1 MB, every
// sentence with an invented number: the cost must grow linearly with the size (it was
// quadratic in the count of numbers: 8.7 s for 720 KB).
func BenchmarkRewriteLargeAnswer(b *testing.B) {
	g := relayGateway(b)
	for _, size := range []int{100 << 10, 1 << 20} {
		b.Run(strconv.Itoa(size>>10)+"KB", func(b *testing.B) {
			x := benchExchange(b, g)
			var t chat.Texts
			t.Set(chat.Content, strings.Repeat("Il fatturato è 99.999 € e il totale 21.956,62 €. ", size/50))
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				x.violations = x.violations[:0]
				tv, err := x.checkTexts(context.Background(), t, x.textCheck(&part{cs: x.choice(0), final: true}))
				if err != nil || !strings.Contains(tv.out.Get(chat.Content), UnverifiedMarker) {
					b.Fatalf("not rewritten: %v", err)
				}
			}
		})
	}
}

// BenchmarkStreamLongSentence relays a stream whose one sentence of 100 KB or 1 MB arrives
// in 100-byte deltas without a terminator until the end: the gate must scan each byte
// once (it rescanned the whole pending sentence at every delta).
func BenchmarkStreamLongSentence(b *testing.B) {
	g := relayGateway(b)
	for _, size := range []int{100 << 10, 1 << 20} {
		b.Run(strconv.Itoa(size>>10)+"KB", func(b *testing.B) {
			var body strings.Builder
			body.WriteString(roleChunk())
			piece := strings.Repeat("parola ", 14)
			for n := 0; n < size; n += len(piece) {
				body.WriteString(textChunk(piece))
			}
			body.WriteString(textChunk("fine.") + finishChunk("stop") + sseDone)
			in := []byte(body.String())
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				relay(b, g, bytes.NewReader(in), 64<<10)
			}
		})
	}
}
