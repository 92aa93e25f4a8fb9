package gateway

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
)

// copyDir copies a directory tree (rule packs and bundles are small).
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// reloadEnv is a gateway over copies of the analytics pack and bundle that the test edits.
func reloadEnv(t *testing.T) (*testEnv, string, string) {
	dir := t.TempDir()
	rulesDir, polDir := filepath.Join(dir, "rules"), filepath.Join(dir, "policies")
	copyDir(t, "../examples/analytics/rules", rulesDir)
	copyDir(t, "../examples/analytics/policies", polDir)
	e := startGateway(t, gwParams{dir: dir, rules: "rules", policies: "policies"})
	e.up.set(reply("Ciao!"))
	return e, rulesDir, polDir
}

const brokenRule = "rules:\n  - id: broken\n    intent: analytics\n    pattern: '(unclosed'\n"

func TestReloadUnderLoad(t *testing.T) {
	e, rulesDir, polDir := reloadEnv(t)
	extra := filepath.Join(rulesDir, "extra.yaml")
	dataFile := filepath.Join(polDir, "data.yaml")
	goodData, _ := os.ReadFile(dataFile)

	stop := make(chan struct{})
	var ok, failed atomic.Int64
	var wg sync.WaitGroup
	var firstErr atomic.Value
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				_, err := e.client.Chat.Completions.New(ctx, params(openai.UserMessage("Ciao, grazie!")))
				if err != nil {
					failed.Add(1)
					firstErr.CompareAndSwap(nil, err.Error())
					continue
				}
				ok.Add(1)
			}
		}()
	}
	revisions := map[string]bool{}
	for i := 0; i < 12; i++ {
		switch i % 4 {
		case 0: // a valid new rule
			os.WriteFile(extra, []byte("rules:\n  - id: extra.r"+string(rune('a'+i))+"\n    intent: analytics\n    pattern: 'zzz"+string(rune('a'+i))+"'\n"), 0o644)
		case 1: // a broken rule
			os.WriteFile(extra, []byte(brokenRule), 0o644)
		case 2: // broken policy data
			os.WriteFile(dataFile, []byte("intents: [\n"), 0o644)
		case 3: // repair both
			os.Remove(extra)
			os.WriteFile(dataFile, goodData, 0o644)
		}
		err := e.g.Reload(ctx)
		if (i%4 == 1 || i%4 == 2) != (err != nil) {
			t.Errorf("step %d: reload error = %v", i, err)
		}
		revisions[e.g.Snapshot().Pack.Revision()] = true
		time.Sleep(20 * time.Millisecond)
	}
	close(stop)
	wg.Wait()
	if failed.Load() > 0 {
		t.Fatalf("%d of %d requests failed during reloads; first: %v", failed.Load(), failed.Load()+ok.Load(), firstErr.Load())
	}
	if ok.Load() == 0 || len(revisions) < 3 {
		t.Fatalf("requests %d, distinct pack revisions %d", ok.Load(), len(revisions))
	}
	st := e.g.Status()
	if st.ReloadFailures != 6 || st.Reloads != 6 || st.LastReloadError != "" {
		t.Errorf("status = %+v", st)
	}
	e.records(t) // the trail written under load verifies
}

func TestWatchReloadsAndKeepsSnapshotOnError(t *testing.T) {
	e, rulesDir, _ := reloadEnv(t)
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go e.g.Watch(wctx)
	time.Sleep(100 * time.Millisecond) // let the watcher add its directories
	before := e.g.Snapshot()

	os.WriteFile(filepath.Join(rulesDir, "extra.yaml"), []byte(brokenRule), 0o644)
	waitFor(t, func() bool { return e.g.Status().ReloadFailures >= 1 })
	st := e.g.Status()
	if e.g.Snapshot() != before {
		t.Fatal("a broken file replaced the running snapshot")
	}
	if !strings.Contains(st.LastReloadError, "extra.yaml:4") {
		t.Errorf("last reload error lacks file:line: %q", st.LastReloadError)
	}
	status := adminGet(t, e.g.AdminAddr(), "/admin/status")
	if !strings.Contains(status, "extra.yaml:4") || !strings.Contains(status, `"pack_revision"`) {
		t.Errorf("/admin/status = %s", status)
	}
	if _, err := e.client.Chat.Completions.New(ctx, params(openai.UserMessage("Ciao, grazie!"))); err != nil {
		t.Fatalf("requests must keep working on the old snapshot: %v", err)
	}

	// Editors replace files by rename: write a temp file and move it over.
	tmp := filepath.Join(rulesDir, ".extra.yaml.swp")
	os.WriteFile(tmp, []byte("rules:\n  - id: extra.ok\n    intent: analytics\n    pattern: 'zzz'\n"), 0o644)
	os.Rename(tmp, filepath.Join(rulesDir, "extra.yaml"))
	waitFor(t, func() bool { return e.g.Snapshot() != before })
	if e.g.Status().LastReloadError != "" {
		t.Errorf("a good reload must clear the error")
	}
	if e.g.Snapshot().Pack.Revision() == before.Pack.Revision() {
		t.Errorf("pack revision did not change")
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("timed out waiting")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func adminGet(t *testing.T, addr, path string) string {
	t.Helper()
	resp, err := http.Get("http://" + addr + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("%s: %d %s", path, resp.StatusCode, b)
	}
	return string(b)
}

func TestAdminEndpoints(t *testing.T) {
	e := startGateway(t, gwParams{})
	if _, err := e.client.Chat.Completions.New(ctx, params(openai.UserMessage("Ciao, grazie!"))); err != nil {
		t.Fatal(err)
	}
	if got := adminGet(t, e.g.AdminAddr(), "/healthz"); got != "ok\n" {
		t.Errorf("/healthz = %q", got)
	}
	if got := adminGet(t, e.g.AdminAddr(), "/readyz"); got != "ready\n" {
		t.Errorf("/readyz = %q", got)
	}
	m := adminGet(t, e.g.AdminAddr(), "/metrics")
	for _, want := range []string{
		`weir_requests_total{route="chat",status="200"} 1`,
		`weir_decisions_total{intent="conversational",outcome="allowed",route="chat"} 1`,
		`weir_classifications_total{source="rules"} 1`,
		`weir_stage_duration_seconds_bucket{stage="classify"`,
		`weir_reloads_total 0`,
		`weir_reload_failures_total 0`,
	} {
		if !strings.Contains(m, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	var st Status
	if err := json.Unmarshal([]byte(adminGet(t, e.g.AdminAddr(), "/admin/status")), &st); err != nil {
		t.Fatal(err)
	}
	if st.Config != e.config || st.PackName != "analytics" || st.PolicyRevision == "" || st.LoadedAt.IsZero() {
		t.Errorf("status = %+v", st)
	}
}
