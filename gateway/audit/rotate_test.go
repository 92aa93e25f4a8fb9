package audit

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// verifyFiles verifies the trail at path over all its files and returns the verifier.
func verifyFiles(t *testing.T, path string) (*Verifier, []string) {
	t.Helper()
	files, err := Files(path)
	if err != nil {
		t.Fatal(err)
	}
	v := NewVerifier()
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		brk, err := v.Read(name, f)
		f.Close()
		if brk != nil || err != nil {
			t.Fatalf("%v %v", brk, err)
		}
	}
	return v, files
}

func TestRotateBySizeContinuesChain(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	w, err := New(Options{Path: path, Rotate: Rotate{MaxBytes: 2000}})
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 30; i++ {
		if err := w.Write(record(i)); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	v, files := verifyFiles(t, path)
	if v.Records != 30 || len(files) < 3 {
		t.Fatalf("%d records over %d files, want 30 over several", v.Records, len(files))
	}
	for _, f := range files {
		if st, _ := os.Stat(f); st.Size() > 2000 {
			t.Errorf("%s has %d bytes, more than max_bytes", f, st.Size())
		}
	}
	// A restart continues the chain, also when the live file was just rotated away.
	os.Rename(path, rotatedName(path, 9999, time.Now()))
	w, err = New(Options{Path: path, Rotate: Rotate{MaxBytes: 2000}})
	if err != nil {
		t.Fatal(err)
	}
	r := record(31)
	if err := w.Write(r); err != nil || r.Seq != 31 {
		t.Fatalf("after restart: seq %d, %v", r.Seq, err)
	}
	w.Close()
	if v, _ := verifyFiles(t, path); v.Records != 31 {
		t.Fatalf("%d records after the restart", v.Records)
	}
}

func TestRotateByAge(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	w, err := New(Options{Path: path, Rotate: Rotate{MaxAge: time.Hour}, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 4; i++ {
		if err := w.Write(record(i)); err != nil {
			t.Fatal(err)
		}
		now = now.Add(40 * time.Minute)
	}
	w.Close()
	v, files := verifyFiles(t, path)
	if v.Records != 4 || len(files) != 2 {
		t.Fatalf("%d records over %v, want 4 over 2 files (rotated after 1h)", v.Records, files)
	}
}

func TestFilesOrder(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "audit.jsonl")
	for _, n := range []string{"audit-000000000100-20260101T000000Z.jsonl", "audit-000000000002-20270101T000000Z.jsonl", "audit-x.jsonl", "other.jsonl", "audit.jsonl"} {
		os.WriteFile(filepath.Join(dir, n), nil, 0o600)
	}
	files, _ := Files(path)
	want := []string{"audit-000000000002-20270101T000000Z.jsonl", "audit-000000000100-20260101T000000Z.jsonl", "audit.jsonl"}
	if len(files) != len(want) {
		t.Fatalf("files %v", files)
	}
	for i := range want {
		if filepath.Base(files[i]) != want[i] {
			t.Fatalf("files %v, want %v", files, want)
		}
	}
}
