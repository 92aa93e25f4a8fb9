package gateway

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/valyala/fasthttp"
)

// relayAnswer is streamed like the load harness's stream scenario: three sentences whose
// numbers are all in relayRequest's tool results, cut into deltas of about two tokens.
const relayAnswer = "Nel 2024 il fatturato è stato di 21956.62 € su 941 ordini, con un ticket medio di 23.33 €. " +
	"Il food cost è stato di 7689.61 €, cioè il 35.02% del fatturato, per un margine lordo di 14267.01 €. " +
	"I primi piatti sono la categoria più forte, con 12345.67 € di fatturato."

var relayRequest = []byte(`{"model":"m","stream":true,"messages":[{"role":"user","content":"Qual è il fatturato totale?"},` +
	`{"role":"assistant","content":null,"tool_calls":[{"id":"c0","type":"function","function":{"name":"execute_metric","arguments":"{}"}},` +
	`{"id":"c1","type":"function","function":{"name":"execute_metric","arguments":"{}"}}]},` +
	`{"role":"tool","tool_call_id":"c0","content":"{\"value\":21956.62,\"order_count\":941,\"ticket_medio\":23.33,\"food_cost\":7689.61,\"food_cost_percent\":35.02,\"gross_margin\":14267.01}"},` +
	`{"role":"tool","tool_call_id":"c1","content":"{\"rows\":[{\"category\":\"primi\",\"revenue\":12345.67}]}"}],"tools":[` +
	`{"type":"function","function":{"name":"execute_metric"}}]}`)

// relayEvents is relayAnswer as an upstream event stream, one string per event.
func relayEvents() []string {
	evs := []string{roleChunk()}
	runes := []rune(relayAnswer)
	for i := 0; i < len(runes); i += 8 {
		evs = append(evs, textChunk(string(runes[i:min(i+8, len(runes))])))
	}
	usage := `data: {"id":"chatcmpl-s","object":"chat.completion.chunk","created":1,"model":"scripted-model","choices":[],"usage":{"prompt_tokens":850,"completion_tokens":60,"total_tokens":910}}` + "\n\n"
	return append(evs, finishChunk("stop"), usage, sseDone)
}

// relayGateway is a gateway that is never started, whose exchanges a test relays.
func relayGateway(tb testing.TB) *Gateway {
	tb.Helper()
	g, err := New(context.Background(), Options{ConfigPath: writeConfig(tb, gwParams{upstreamURL: "http://127.0.0.1:1/v1"}), Logger: discardLogger(), AuditSink: io.Discard})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { g.Shutdown(context.Background()) })
	return g
}

// relayExchange runs the stages before the upstream for relayRequest and gives it body
// as the upstream's stream.
func relayExchange(tb testing.TB, g *Gateway, body io.Reader) *exchange {
	rc := &fasthttp.RequestCtx{}
	rc.Request.Header.SetMethod("POST")
	rc.Request.SetRequestURI("/v1/chat/completions")
	rc.Request.SetBody(relayRequest)
	snap := g.Snapshot()
	r, sub := snap.match("/v1/chat/completions")
	x := newExchange(g, rc, snap, r, sub, &openaiChat{})
	if err := x.run(g.base, stagesThrough("admit")); err != nil { // decode … admit
		tb.Fatal(err)
	}
	x.rc = nil
	x.stream = fasthttp.AcquireResponse()
	x.stream.SetBodyStream(body, -1)
	return x
}

// countingWriter counts the writes that reach it: one per flush of the relay's writer.
type countingWriter struct {
	bytes.Buffer
	writes int
}

func (w *countingWriter) Write(p []byte) (int, error) {
	w.writes++
	return w.Buffer.Write(p)
}

// relay runs a whole stream relay and returns what the client got.
func relay(tb testing.TB, g *Gateway, body io.Reader, size int) *countingWriter {
	x := relayExchange(tb, g, body)
	var out countingWriter
	w := bufio.NewWriterSize(&out, size)
	g.streams.Add(1)
	startRelay(g, x).relay(w)
	return &out
}

// TestStreamCoalescesEventsOfOneRead: the events that arrive in one read leave in one
// write, not one per event; the record comes before [DONE], so at most two.
func TestStreamCoalescesEventsOfOneRead(t *testing.T) {
	g := relayGateway(t)
	out := relay(t, g, strings.NewReader(strings.Join(relayEvents(), "")), 64<<10)
	evs, err := parseAll(t, out.Bytes())
	if err != nil || len(evs) < 5 || string(evs[len(evs)-1].data) != "[DONE]" {
		t.Fatalf("bad stream (%v): %q", err, out.Bytes())
	}
	if got := deltaText(t, out.Bytes()); got != relayAnswer {
		t.Fatalf("the client got %q, want the whole answer", got)
	}
	if out.writes > 2 {
		t.Errorf("%d events in one read left in %d writes, want at most 2", len(evs), out.writes)
	}
}

// stepReader returns one part per Read and records, before each, what the client had.
type stepReader struct {
	parts []string
	out   *countingWriter
	seen  []string
}

func (r *stepReader) Read(p []byte) (int, error) {
	r.seen = append(r.seen, r.out.String())
	if len(r.parts) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.parts[0])
	r.parts = r.parts[1:]
	return n, nil
}

// TestStreamFlushesBeforeNextRead: what one read released reaches the client before the
// relay waits for the next read.
func TestStreamFlushesBeforeNextRead(t *testing.T) {
	g := relayGateway(t)
	out := &countingWriter{}
	first := roleChunk() + textChunk("Il fatturato è 21956.62 €. ") + textChunk("Poi")
	r := &stepReader{parts: []string{first, textChunk(" altro.") + finishChunk("stop") + sseDone}, out: out}
	x := relayExchange(t, g, r)
	w := bufio.NewWriterSize(out, 64<<10)
	g.streams.Add(1)
	startRelay(g, x).relay(w)
	if len(r.seen) < 2 {
		t.Fatalf("only %d reads", len(r.seen))
	}
	if got := deltaText(t, []byte(r.seen[1])); got != "Il fatturato è 21956.62 €. " {
		t.Errorf("before the second read the client had %q, want the first sentence", got)
	}
}

// deltaText joins the text deltas of a client's stream.
func deltaText(t *testing.T, stream []byte) string {
	t.Helper()
	evs, err := parseAll(t, stream)
	if err != nil {
		t.Fatal(err)
	}
	var got strings.Builder
	for _, ev := range evs {
		var c struct {
			Choices []struct {
				Delta struct{ Content string } `json:"delta"`
			} `json:"choices"`
		}
		if json.Unmarshal(ev.data, &c) == nil && len(c.Choices) > 0 {
			got.WriteString(c.Choices[0].Delta.Content)
		}
	}
	return got.String()
}

// TestStreamLaterChunkMetadata: the chunks after the first are read as strictly as the
// first, their metadata too — a duplicate or a case twin of a metadata key ends the stream
// — and the client gets the first chunk's metadata on every chunk, never a later one's.
func TestStreamLaterChunkMetadata(t *testing.T) {
	g := relayGateway(t)
	later := func(meta string) string {
		return `data: {` + meta + `,"choices":[{"index":0,"delta":{"content":"Ciao!"},"finish_reason":null}]}` + "\n\n"
	}
	for _, meta := range []string{`"id":"a","id":"b"`, `"id":"chatcmpl-s","ID":"chatcmpl-s"`, `"Model":"x"`, `"system-fingerprint":"x"`} {
		out := relay(t, g, strings.NewReader(roleChunk()+later(meta)+finishChunk("stop")+sseDone), 4096)
		evs, err := parseAll(t, out.Bytes())
		if err != nil || len(evs) < 2 || !bytes.Contains(evs[len(evs)-2].data, []byte("upstream_")) || strings.Contains(out.String(), "Ciao") {
			t.Errorf("a later chunk with %s: the client got %q (%v), want an upstream error and no text", meta, out.Bytes(), err)
		}
	}
	out := relay(t, g, strings.NewReader(roleChunk()+later(`"id":"other","created":2,"model":"other-model","system_fingerprint":"fp"`)+finishChunk("stop")+sseDone), 4096)
	if got := deltaText(t, out.Bytes()); got != "Ciao!" {
		t.Fatalf("the client got %q, want the text", got)
	}
	for _, leaked := range []string{"other", "fp", `"created":2`} {
		if strings.Contains(out.String(), leaked) {
			t.Errorf("a later chunk's metadata %s reached the client: %q", leaked, out.Bytes())
		}
	}
}

// BenchmarkStreamRelay relays a whole gated stream in process (grounding each sentence),
// as the load harness's stream scenario does, from the stages after the upstream's answer
// to [DONE].
func BenchmarkStreamRelay(b *testing.B) {
	g := relayGateway(b)
	body := []byte(strings.Join(relayEvents(), ""))
	b.ReportAllocs()
	for b.Loop() {
		relay(b, g, bytes.NewReader(body), 4096)
	}
}

// startRelay gives x's surface a relay, as serveStream does, without a client connection.
func startRelay(g *Gateway, x *exchange) *streamer {
	s := x.surface.(*openaiChat)
	s.relay = &streamer{ctx: g.base, x: x}
	return s.relay
}
