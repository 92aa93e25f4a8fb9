package audit

import (
	"bytes"
	"crypto/ed25519"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func testKey(t *testing.T) (ed25519.PrivateKey, ed25519.PublicKey) {
	t.Helper()
	privPEM, pubPEM, err := GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "k"), privPEM, 0o600)
	os.WriteFile(filepath.Join(dir, "k.pub"), pubPEM, 0o600)
	priv, err := LoadPrivateKey(filepath.Join(dir, "k"))
	if err != nil {
		t.Fatal(err)
	}
	pub, err := LoadPublicKey(filepath.Join(dir, "k.pub"))
	if err != nil {
		t.Fatal(err)
	}
	return priv, pub
}

// checkpointed writes n records with a checkpoint every 5 and returns the trail's lines
// and the checkpoint file.
func checkpointed(t *testing.T, priv ed25519.PrivateKey, n int) ([]string, []byte) {
	t.Helper()
	var trail, cps bytes.Buffer
	w, err := New(Options{Out: &trail, Checkpoint: &CheckpointOptions{Out: &cps, Every: 5, Key: priv}})
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= n; i++ {
		if err := w.Write(record(i)); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	return strings.SplitAfter(strings.TrimSuffix(trail.String(), "\n"), "\n"), cps.Bytes()
}

func TestCheckpointsDetect(t *testing.T) {
	priv, pub := testKey(t)
	tests := []struct {
		name    string
		edit    func(ls []string) []string
		wantSeq uint64
		reason  string
	}{
		{"intact", func(ls []string) []string { return ls }, 0, ""},
		{"last record removed", func(ls []string) []string { return ls[:11] }, 12, "records 12..12 were removed"},
		{"last seven removed", func(ls []string) []string { return ls[:5] }, 6, "records 6..12 were removed"},
		{"chain rewritten from seq 5", func(ls []string) []string {
			var b bytes.Buffer
			w := NewWriter(&b)
			for i := 1; i <= 12; i++ {
				r := record(i)
				if i >= 5 {
					r.Outcome = OutcomeBlocked
				}
				w.Write(r)
			}
			return strings.SplitAfter(strings.TrimSuffix(b.String(), "\n"), "\n")
		}, 5, "differs from the signed checkpoint of seq 5"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			lines, cpFile := checkpointed(t, priv, 12)
			cps, err := ReadCheckpoints("cp.jsonl", bytes.NewReader(cpFile), pub)
			if err != nil || len(cps) != 3 || cps[2].Seq != 12 {
				t.Fatalf("checkpoints %+v, %v; want seq 5, 10 and 12 (at close)", cps, err)
			}
			v := NewVerifier()
			v.UseCheckpoints(cps)
			brk, err := v.Read("a.jsonl", strings.NewReader(strings.Join(tc.edit(lines), "")))
			if err != nil {
				t.Fatal(err)
			}
			if brk == nil {
				brk = v.Finish()
			}
			switch {
			case tc.reason == "" && brk != nil:
				t.Fatalf("intact trail: %v", brk)
			case tc.reason != "" && (brk == nil || brk.Seq != tc.wantSeq || !strings.Contains(brk.Reason, tc.reason)):
				t.Fatalf("break %v; want seq %d %q", brk, tc.wantSeq, tc.reason)
			}
		})
	}
}

func TestCheckpointFileErrors(t *testing.T) {
	priv, pub := testKey(t)
	_, otherPub := testKey(t)
	_, cpFile := checkpointed(t, priv, 12)
	ls := strings.SplitAfter(string(cpFile), "\n")
	tests := []struct {
		name string
		file string
		pub  ed25519.PublicKey
		want string
	}{
		{"wrong key", string(cpFile), otherPub, "cp.jsonl:1 (seq 5): signed with key"},
		{"altered hash", ls[0] + strings.Replace(ls[1], `"hash":"`, `"hash":"0`, 1), pub, "cp.jsonl:2 (seq 10): the signature does not verify"},
		{"altered seq", strings.Replace(ls[0], `"seq":5`, `"seq":4`, 1), pub, "cp.jsonl:1 (seq 4): the signature does not verify"},
		{"not json", "hello\n", pub, "cp.jsonl:1: not a checkpoint"},
		{"out of order", ls[1] + ls[0], pub, "cp.jsonl:2 (seq 5): checkpoints out of order"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadCheckpoints("cp.jsonl", strings.NewReader(tc.file), tc.pub)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

func TestCheckpointInterval(t *testing.T) {
	priv, pub := testKey(t)
	var trail, cps syncBuffer
	w, err := New(Options{Out: &trail, Checkpoint: &CheckpointOptions{Out: &cps, Interval: 10 * time.Millisecond, Key: priv}})
	if err != nil {
		t.Fatal(err)
	}
	w.Write(record(1))
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(cps.String(), `"seq":1`) && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	w.Close()
	got, err := ReadCheckpoints("cp", strings.NewReader(cps.String()), pub)
	if err != nil || len(got) != 1 || got[0].Seq != 1 {
		t.Fatalf("checkpoints %+v %v: want one for seq 1 (nothing new at close)", got, err)
	}
}

func TestKeyFileErrors(t *testing.T) {
	dir := t.TempDir()
	priv, pub, _ := GenerateKey()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, b, 0o600)
		return p
	}
	tests := []struct {
		name, path string
		load       func(string) error
		want       string
	}{
		{"public as private", write("pub.pem", pub), func(p string) error { _, err := LoadPrivateKey(p); return err }, `want "PRIVATE KEY"`},
		{"private as public", write("priv.pem", priv), func(p string) error { _, err := LoadPublicKey(p); return err }, `want "PUBLIC KEY"`},
		{"not pem", write("x", []byte("hello")), func(p string) error { _, err := LoadPrivateKey(p); return err }, "not a PEM file"},
		{"missing", filepath.Join(dir, "none"), func(p string) error { _, err := LoadPublicKey(p); return err }, "no such file"},
		{"rsa", write("rsa.pem", []byte(rsaPKCS8)), func(p string) error { _, err := LoadPrivateKey(p); return err }, "not an Ed25519 key"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.load(tc.path)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), filepath.Base(tc.path)) {
				t.Fatalf("err = %v, want the file and %q", err, tc.want)
			}
		})
	}
}
