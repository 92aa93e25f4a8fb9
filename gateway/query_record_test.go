package gateway

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weirgw/weir/gateway/audit"
	"github.com/weirgw/weir/gateway/query"
)

// TestQueryRecordMatchesAnswer: on the query surface, in every mode, the audit record says
// what the client received — the status, the answer, the route kind and requested mode,
// every call (Weir's own reads and the model's) with its verdict, and the sources read.
func TestQueryRecordMatchesAnswer(t *testing.T) {
	questions := []string{
		q("Qual è il fatturato totale?"),
		`{"query":"Grazie!","options":{"mode":"simple"}}`,
		`{"query":"Mostrami le prime 10 righe"}`,
		`{"query":"fatturato per categoria","options":{"mode":"auto"}}`,
	}
	for _, mode := range []struct{ mode, onViolation string }{{"enforce", "error"}, {"enforce", "rewrite"}, {"monitor", "error"}} {
		t.Run(mode.mode+"/"+mode.onViolation, func(t *testing.T) {
			e := startQueryGateway(t, queryParams{example: "analytics", mode: mode.mode, onViolation: mode.onViolation})
			for _, body := range questions {
				status, resp, eb, raw := e.ask(t, body)
				id := eb.Error.DecisionID
				md := eb.Metadata
				if status == 200 {
					id, md = resp.Metadata.DecisionID, resp.Metadata
				}
				rec := recordByID(t, filepath.Join(e.dir, "audit.jsonl"), id)
				checkQueryRecord(t, body, status, resp, md, rec, raw)
			}
		})
	}
}

func recordByID(t *testing.T, path, id string) audit.Record {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var r audit.Record
		if json.Unmarshal([]byte(line), &r) == nil && r.DecisionID == id {
			return r
		}
	}
	t.Fatalf("no record of decision %q", id)
	return audit.Record{}
}

func checkQueryRecord(t *testing.T, body string, status int, resp answer, md *query.Metadata, rec audit.Record, raw string) {
	t.Helper()
	if rec.Status != status {
		t.Errorf("%s: record status %d, client got %d", body, rec.Status, status)
	}
	if status == 200 && (rec.Content == nil || rec.Content.Answer != resp.Answer) {
		t.Errorf("%s: record answer %+v, client got %q", body, rec.Content, resp.Answer)
	}
	if md == nil {
		return
	}
	if rec.RouteKind != md.Route || rec.RequestedMode != md.RequestedMode {
		t.Errorf("%s: record route %q mode %q, metadata %q %q", body, rec.RouteKind, rec.RequestedMode, md.Route, md.RequestedMode)
	}
	if len(rec.ToolCalls) != len(md.ToolCalls) {
		t.Fatalf("%s: record has %d calls, the answer %d: %s", body, len(rec.ToolCalls), len(md.ToolCalls), raw)
	}
	for i, c := range md.ToolCalls {
		rc := rec.ToolCalls[i]
		if rc.ID != c.ID || rc.Name != c.Name || rc.Origin != c.Origin || rc.Allowed != c.Allow ||
			(rc.Action == audit.ActionRan) != (c.Outcome != "denied" && c.Allow) {
			t.Errorf("%s: call %d: record %+v, answer %+v", body, i, rc, c)
		}
	}
	if len(rec.Sources) != len(md.Sources) {
		t.Fatalf("%s: record has %d sources, the answer %d", body, len(rec.Sources), len(md.Sources))
	}
	for i, s := range md.Sources {
		if r := rec.Sources[i]; r.Name != s.Name || r.Rows != s.Rows || r.Used != s.Used {
			t.Errorf("%s: source %d: record %+v, answer %+v", body, i, r, s)
		}
	}
	if len(resp.Rows) > 0 {
		read := 0
		for _, c := range rec.ToolCalls {
			if c.Action == audit.ActionRan && c.Rows != nil {
				read += *c.Rows
			}
		}
		if read == 0 {
			t.Errorf("%s: the client got %d rows, the record shows no read that returned any", body, len(resp.Rows))
		}
	}
}
