package ui

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// chromium finds a Chromium binary: $WEIR_CHROMIUM, or one on PATH.
func chromium() string {
	if p := os.Getenv("WEIR_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// browser starts headless Chromium with a fresh profile and nothing that reaches out to
// the network.
func browser(t *testing.T) context.Context {
	path := chromium()
	if path == "" {
		t.Skip("no Chromium found (chromium, chromium-browser, google-chrome or $WEIR_CHROMIUM): the browser test is skipped; apt-get install chromium runs it")
	}
	opts := []chromedp.ExecAllocatorOption{chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck, chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 1000),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true)}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	t.Cleanup(cancel)
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(acancel)
	bctx, bcancel := chromedp.NewContext(actx)
	t.Cleanup(bcancel)
	return bctx
}

// TestBrowser drives the web view in a real browser: log in, filter the list, open a
// decision, read the summary. With $WEIR_UI_SCREENSHOTS set it saves a screenshot of each
// page there (docs/ holds the ones of the README).
func TestBrowser(t *testing.T) {
	ctx := browser(t)
	srv := server(t, Options{Trail: testTrail(t), Token: token})
	shots := map[string][]byte{}
	do(t, ctx,
		chromedp.Navigate(srv.URL+"/ui/"), // no session: the login form
		chromedp.WaitVisible(chromedp.CSS(`input[name=token]`)),
		chromedp.SendKeys(chromedp.CSS(`input[name=token]`), token),
		chromedp.Submit(chromedp.CSS(`input[name=token]`)),
		chromedp.WaitVisible(chromedp.CSS(`#count`)),
		chromedp.SetValue(chromedp.CSS(`select[name=outcome]`), "blocked"),
		chromedp.SetValue(chromedp.CSS(`select[name=tool]`), "filter_data"),
		chromedp.Click(chromedp.CSS(`form.filter button[type=submit]`)))
	waitURL(t, ctx, "outcome=blocked")
	do(t, ctx, chromedp.WaitVisible(chromedp.CSS(`#count`)))
	count := run(t, ctx, chromedp.Text(chromedp.CSS(`#count`)))
	rows := run(t, ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("table.decisions tbody tr")].map(r => r.className)`))
	shots["ui-list.png"] = run(t, ctx, chromedp.FullScreenshot(100))
	if !strings.HasPrefix(count, "40 decisions") || len(rows) != 40 {
		t.Errorf("filtered list: %q, %d rows", count, len(rows))
	}
	for _, o := range rows {
		if o != "blocked" {
			t.Fatalf("a row the filter excludes is shown: %v", rows)
		}
	}

	do(t, ctx, chromedp.Click(chromedp.CSS(`table.decisions tbody tr:nth-child(5) a.decision`)), chromedp.WaitVisible(chromedp.CSS(`#decision-id`)))
	id := run(t, ctx, chromedp.Text(chromedp.CSS(`#decision-id`)))
	outcome := run(t, ctx, chromedp.Text(chromedp.CSS(`#outcome`)))
	violations := run(t, ctx, chromedp.Text(chromedp.CSS(`table.violations`)))
	shots["ui-decision.png"] = run(t, ctx, chromedp.FullScreenshot(100))
	if id != "D0105" || outcome != "blocked" || !strings.Contains(violations, "tool_not_allowed") {
		t.Errorf("decision page: %q %q %q", id, outcome, violations)
	}

	do(t, ctx, chromedp.Navigate(srv.URL+"/ui/decision/D0007"), chromedp.WaitVisible(chromedp.CSS(`#prompt`)))
	if prompt := run(t, ctx, chromedp.Text(chromedp.CSS(`#prompt`))); prompt != "Qual è il fatturato <b>totale</b>?" {
		t.Errorf("prompt %q", prompt)
	}

	do(t, ctx, chromedp.Navigate(srv.URL+"/ui/summary"), chromedp.WaitVisible(chromedp.CSS(`section.chart svg`)))
	rects := run(t, ctx, chromedp.Evaluate[int](`document.querySelectorAll("section.chart svg rect").length`))
	shots["ui-summary.png"] = run(t, ctx, chromedp.FullScreenshot(100))
	if rects < 10 {
		t.Errorf("%d chart rectangles", rects)
	}
	saveShots(t, shots)
}

// waitURL waits until the page's URL has part: a submitted form has loaded its answer.
func waitURL(t *testing.T, ctx context.Context, part string) {
	t.Helper()
	for range 200 {
		if u, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.href`)); err == nil && strings.Contains(u, part) {
			if state, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.readyState`)); err == nil && state == "complete" {
				return
			}
		}
		time.Sleep(25 * time.Millisecond)
	}
	t.Fatalf("the browser never reached a URL with %q", part)
}

func do(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatal(err)
	}
}

func run[T any](t *testing.T, ctx context.Context, a chromedp.Action[T]) T {
	t.Helper()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func saveShots(t *testing.T, shots map[string][]byte) {
	dir := os.Getenv("WEIR_UI_SCREENSHOTS")
	if dir == "" {
		return
	}
	for name, b := range shots {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
