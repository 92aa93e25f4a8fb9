package gateway

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/weirgw/weir/gateway/audit"
	"github.com/weirgw/weir/gateway/internal/clientview"
)

// The differential harness: every chat answer Weir forwards in the tests (through the
// OpenAI Go client of startGateway, rawPost and the raw stream helpers) and in the fuzz
// targets is read the way the two client families read JSON (clientview: exact keys, last
// duplicate wins — openai-python and openai-node; case-insensitive decoding into structs —
// Go clients on encoding/json). Both must see the same texts and calls, and exactly the
// ones Weir judged: the texts the audit record holds as forwarded and the calls it records
// as forwarded or monitored.

// forwardedDiff returns what differs between the two client families' reading of an
// answer and between them and what Weir judged (rec, recorded with include_content); ""
// when they agree.
func forwardedDiff(body []byte, stream bool, rec audit.Record) string {
	read := clientview.ReadCompletion
	if stream {
		read = clientview.ReadStream
	}
	exact, fold, err := read(body)
	if err != nil {
		return "the answer does not read: " + err.Error()
	}
	if len(exact.Notes) > 0 {
		return "the answer holds constructs clients read differently: " + strings.Join(exact.Notes, "; ")
	}
	if d := clientview.Diff(exact, fold); d != "" {
		return "the client families disagree:\n" + d
	}
	if rec.Content == nil {
		return "" // recorded without content: only the agreement of the readers is checked
	}
	if d := clientview.Diff(clientSide(exact), judgedView(rec)); d != "" {
		return "the client sees other than what Weir judged:\n" + d
	}
	return ""
}

// clientSide keeps of a client's view what the record holds: texts and calls per choice.
func clientSide(v clientview.View) clientview.View {
	out := clientview.View{}
	for _, c := range v.Choices {
		cc := clientview.Choice{Index: c.Index, Content: c.Content, Refusal: c.Refusal, Reasoning: c.Reasoning}
		for _, call := range c.Calls {
			call.Arguments = canonicalJSON(call.Arguments)
			cc.Calls = append(cc.Calls, call)
		}
		out.Choices = append(out.Choices, cc)
	}
	return out
}

// judgedView is what Weir judged and let through, from its audit record.
func judgedView(rec audit.Record) clientview.View {
	var v clientview.View
	for _, c := range rec.Content.Choices {
		v.Choices = append(v.Choices, clientview.Choice{Index: c.Index, Content: c.Content, Refusal: c.Refusal, Reasoning: c.Reasoning})
	}
	for _, tc := range rec.ToolCalls {
		if tc.Origin != audit.OriginModel || (tc.Action != audit.ActionForwarded && tc.Action != audit.ActionMonitored) {
			continue
		}
		call := clientview.Call{ID: tc.ID, Type: tc.Type, Name: tc.Name}
		if tc.Type == "custom" {
			var in struct{ Input string }
			_ = json.Unmarshal(tc.Arguments, &in)
			call.Input = in.Input
		} else {
			call.Arguments = recordedText(tc.Arguments)
		}
		for i := range v.Choices {
			if v.Choices[i].Index == tc.Choice {
				v.Choices[i].Calls = append(v.Choices[i].Calls, call)
			}
		}
	}
	return v
}

// recordedText is the text of recorded arguments: a JSON string holds arguments that were
// not a JSON object (record.go's recordedArguments), an object is compared canonically.
func recordedText(raw json.RawMessage) string {
	var s string
	if len(raw) > 0 && raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
		return canonicalJSON(s)
	}
	return canonicalJSON(string(raw))
}

// canonicalJSON re-encodes a JSON text with sorted keys, so that arguments compare by
// value; text that is not JSON is kept.
func canonicalJSON(s string) string {
	var v any
	if json.Unmarshal([]byte(s), &v) != nil {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// recordOf finds the audit record of a decision in the env's trail.
func (e *testEnv) recordOf(decisionID string) (audit.Record, bool) {
	b, err := os.ReadFile(e.g.Snapshot().Config.Audit.Path)
	if err != nil {
		return audit.Record{}, false
	}
	for _, line := range bytes.Split(b, []byte("\n")) {
		if !bytes.Contains(line, []byte(decisionID)) {
			continue
		}
		var r audit.Record
		if json.Unmarshal(line, &r) == nil && r.DecisionID == decisionID {
			return r, true
		}
	}
	return audit.Record{}, false
}

// checkForwarded runs the differential check on one forwarded chat answer. A gateway
// whose trail is not the config's file (a test's failing sink) is checked for the readers'
// agreement only.
func (e *testEnv) checkForwarded(t testing.TB, body []byte, stream bool, decisionID string) {
	t.Helper()
	rec, ok := e.recordOf(decisionID)
	switch {
	case !ok && e.g.opts.AuditSink != nil:
	case !ok:
		t.Errorf("differential check: no audit record of decision %q", decisionID)
		return
	}
	if !ok {
		rec = audit.Record{}
	}
	if d := forwardedDiff(body, stream, rec); d != "" {
		t.Errorf("differential check of decision %s: %s\nbody: %.600s", decisionID, d, body)
	}
}

// diffTransport is the test clients' transport: it runs the differential check on every
// successful chat answer before handing it to the client.
type diffTransport struct {
	t testing.TB
	e *testEnv
}

func (d diffTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil || resp.StatusCode != http.StatusOK || !strings.HasSuffix(req.URL.Path, "/chat/completions") {
		return resp, err
	}
	stream := strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream")
	id := resp.Header.Get("X-Weir-Decision-Id")
	resp.Body = &checkedBody{ReadCloser: resp.Body, check: func(body []byte) { d.e.checkForwarded(d.t, body, stream, id) }}
	return resp, nil
}

// checkedBody keeps what the client reads and runs the check when it has read it all; a
// client that stops early (a stream it abandons) is not checked.
type checkedBody struct {
	io.ReadCloser
	buf   bytes.Buffer
	check func([]byte)
	done  bool
}

func (b *checkedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.buf.Write(p[:n])
	if err == io.EOF && !b.done {
		b.done = true
		b.check(b.buf.Bytes())
	}
	return n, err
}
