package policies

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestEvalCancelled: an evaluation stops with an error, and the decision denies, when its
// context is cancelled or its deadline passes — before or during the evaluation.
func TestEvalCancelled(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"data.yaml": "intents:\n  a:\n    allowed_tools: [t]\n",
		// Nine million iterations on the slow route: seconds, unless cancelled.
		"slow.rego": `package weir.request

violation contains {"code": "slow", "message": "m"} if {
	input.route.name == "slow"
	some a in numbers.range(1, 3000)
	some b in numbers.range(1, 3000)
	a * b == -1
}
`,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b := loadT(t, dir)
	in := &Input{Route: Route{Name: "slow"}, Classification: Classification{Intent: "a"}}

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	d, err := b.Request(ctx, in)
	// The message is the context's error, or numbers.range's own when the deadline passes
	// while it generates.
	if Code(err) != CodeEvalError || d.Allow {
		t.Errorf("deadline: %+v %v", d, err)
	}

	ctx, cancel = context.WithCancel(context.Background())
	cancel()
	if d, err := b.Request(ctx, in); Code(err) != CodeEvalError || d.Allow || !strings.Contains(err.Error(), context.Canceled.Error()) {
		t.Errorf("cancelled before: %+v %v", d, err)
	}

	ctx, cancel = context.WithCancel(context.Background())
	time.AfterFunc(20*time.Millisecond, cancel)
	if d, err := b.Request(ctx, in); Code(err) != CodeEvalError || d.Allow {
		t.Errorf("cancelled during: %+v %v", d, err)
	}
	if b.memos.request.size() != 0 {
		t.Error("a cancelled evaluation was memoized")
	}
}

// TestCtxCancel: Cancel and a done context both cancel.
func TestCtxCancel(t *testing.T) {
	done := make(chan struct{})
	c := &ctxCancel{done: done}
	if c.Cancelled() {
		t.Fatal("cancelled at start")
	}
	c.Cancel()
	if !c.Cancelled() {
		t.Error("Cancel")
	}
	c = &ctxCancel{done: done}
	close(done)
	if !c.Cancelled() {
		t.Error("done")
	}
}
