package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weirgw/weir/gateway/audit"
	"github.com/weirgw/weir/gateway/query"
)

// clinicalDocs is the clinical example's document source, with its absolute paths.
func clinicalDocs() string {
	root, _ := filepath.Abs("../examples/clinical")
	return fmt.Sprintf("documents:\n  - {name: pdf, paths: ['%[1]s/docs/*.pdf', '%[1]s/docs/*.md'], tool: search_protocol}\n", root)
}

const dropoutQuestion = "What dropout rate was assumed in the sample size calculation?"

// TestQueryDocumentsWithoutModel: the clinical pdf route, with no model, answers a protocol
// question by quoting the passages it found, cited with file and page; the audit record
// lists the search as a read of origin weir, its rows the passages, and the source pdf.
func TestQueryDocumentsWithoutModel(t *testing.T) {
	e := startQueryGateway(t, queryParams{example: "clinical", documents: clinicalDocs()})
	for _, w := range e.g.Snapshot().Warnings {
		if strings.Contains(w, `"pdf"`) {
			t.Errorf("the document source is warned about as unknown: %s", w)
		}
	}
	status, resp, _, raw := e.ask(t, q(dropoutQuestion))
	if status != 200 || resp.Metadata.Intent != "pdf" || !strings.Contains(resp.Answer, `From protocol.pdf p. 7: "…Assuming a dropout rate of 15%`) {
		t.Fatalf("%d %s", status, raw)
	}
	md := resp.Metadata
	if len(md.Sources) != 1 || md.Sources[0].Name != "pdf" || md.Sources[0].Rows != len(resp.Passages) || len(md.Sources[0].Passages) != len(resp.Passages) {
		t.Fatalf("sources %+v", md.Sources)
	}
	rec := recordByID(t, filepath.Join(e.dir, "audit.jsonl"), md.DecisionID)
	checkQueryRecord(t, dropoutQuestion, status, resp, md, rec, raw)
	c := rec.ToolCalls[0]
	var args struct {
		Query string
		Limit int
	}
	if c.Name != "search_protocol" || c.Origin != audit.OriginWeir || c.Action != audit.ActionRan || c.Rows == nil || *c.Rows != len(resp.Passages) ||
		json.Unmarshal(c.Arguments, &args) != nil || args.Query != dropoutQuestion || args.Limit != 5 {
		t.Fatalf("record call %+v", c)
	}
	if s := rec.Sources[0]; s.Name != "pdf" || s.Tool != "search_protocol" || s.Rows != len(resp.Passages) || !s.Used {
		t.Fatalf("record source %+v", s)
	}
}

// TestQueryDocumentsDenied: a search the tools policy refuses is not run, is recorded as
// denied, and the answer says the documents were not read.
func TestQueryDocumentsDenied(t *testing.T) {
	root, _ := filepath.Abs("../examples/clinical/policies")
	dir := t.TempDir()
	for _, f := range []string{"data.yaml", "run_sql.rego"} {
		b, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		if f == "data.yaml" {
			b = []byte(strings.Replace(string(b), "allowed_tools: [search_protocol, lookup_known_answers]", "allowed_tools: [lookup_known_answers]", 1))
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	e := startQueryGateway(t, queryParams{example: "clinical", documents: clinicalDocs(), policies: dir})
	status, resp, _, raw := e.ask(t, q(dropoutQuestion))
	if status != 200 || len(resp.Passages) != 0 || !strings.Contains(resp.Answer, "does not allow search_protocol for intent pdf") {
		t.Fatalf("%d %s", status, raw)
	}
	rec := recordByID(t, filepath.Join(e.dir, "audit.jsonl"), resp.Metadata.DecisionID)
	checkQueryRecord(t, dropoutQuestion, status, resp, resp.Metadata, rec, raw)
	if c := rec.ToolCalls[0]; c.Name != "search_protocol" || c.Allowed || c.Action != audit.ActionDenied || c.Rows != nil {
		t.Fatalf("record call %+v", c)
	}
	if s := rec.Sources[0]; s.Used || s.Error != "denied by policy" {
		t.Fatalf("record source %+v", s)
	}
}

// TestQueryDocumentsWithModel: with the scripted model, the pdf route gives the model the
// passages with their citations; a protocol number the answer quotes (15%) grounds in them,
// an invented one (17%, in none of them) is caught and the answer refused (the clinical policy: pdf answers
// carry only numbers of the retrieved text).
func TestQueryDocumentsWithModel(t *testing.T) {
	e := startQueryGateway(t, queryParams{example: "clinical", documents: clinicalDocs(), model: true})
	e.model.set(reply("The sample size assumes a dropout rate of 15% (protocol.pdf p. 7)."))
	status, resp, _, raw := e.ask(t, q(dropoutQuestion))
	if status != 200 || resp.Answer != "The sample size assumes a dropout rate of 15% (protocol.pdf p. 7)." || len(resp.Passages) == 0 {
		t.Fatalf("%d %s", status, raw)
	}
	req, _, _ := e.model.last()
	sys := req["messages"].([]any)[0].(map[string]any)["content"].(string)
	if !strings.Contains(sys, "protocol.pdf p. 7 (10 Statistical considerations > 10.1 Sample size)\n") || !strings.Contains(sys, "Assuming a dropout rate of 15%") {
		t.Fatalf("the model did not get the passages: %s", sys)
	}
	e.model.set(reply("The sample size assumes a dropout rate of 17% (protocol.pdf p. 7)."))
	status, _, eb, raw := e.ask(t, q(dropoutQuestion))
	if status != 422 || eb.Error.Code != query.CodeAnswerRejected || strings.Contains(raw, "17%") {
		t.Fatalf("an invented number passed, or the refusal repeats it: %d %s", status, raw)
	}
}

// TestQueryDocumentsReload: a reload keeps an unchanged document index (no reindexing); a
// changed file gets a new one, and the replaced index is closed once the old snapshot is
// retired, while the kept one stays open.
func TestQueryDocumentsReload(t *testing.T) {
	dir := t.TempDir()
	doc := filepath.Join(dir, "protocol.md")
	if err := os.WriteFile(doc, []byte("# Sample size\n\nAssuming a dropout rate of 15%.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	e := startQueryGateway(t, queryParams{example: "clinical", documents: fmt.Sprintf("documents:\n  - {name: pdf, paths: ['%s'], tool: search_protocol}\n", doc)})
	ctx := context.Background()
	first := e.g.Snapshot()
	if err := e.g.Reload(ctx); err != nil {
		t.Fatal(err)
	}
	second := e.g.Snapshot()
	if second.docs["pdf"].Index() != first.docs["pdf"].Index() || len(query.RetiredDocs(first.docs, second.docs)) != 0 {
		t.Fatal("a reload rebuilt an unchanged index")
	}
	if err := os.WriteFile(doc, []byte("# Sample size\n\nAssuming a dropout rate of 20%.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	third, err := compile(ctx, filepath.Join(e.dir, "weir.yaml"), Overrides{}, second)
	if err != nil {
		t.Fatal(err)
	}
	defer third.closeSources(nil, 0)
	if third.docs["pdf"].Index() == second.docs["pdf"].Index() {
		t.Fatal("a changed file kept the old index")
	}
	second.closeSources(third, 0)
	if _, err := second.docs["pdf"].Search(ctx, "dropout", 1); err == nil {
		t.Fatal("the replaced index is still open")
	}
	if ps, err := third.docs["pdf"].Search(ctx, "dropout", 1); err != nil || !strings.Contains(ps[0].Text, "20%") {
		t.Fatalf("the new index: %+v %v", ps, err)
	}
}
