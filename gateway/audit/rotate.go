package audit

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Rotate bounds the live trail file: when writing a record would take it past MaxBytes,
// or its first record is older than MaxAge, the file is renamed to
// <name>-<first seq, 12 digits>-<UTC time>.<ext> beside it and a new file is started.
// The chain continues across files; `weir audit verify` takes them in name order. Zero
// values turn either bound off.
type Rotate struct {
	MaxBytes int64
	MaxAge   time.Duration
}

// rotFile is the live trail file, rotated as Rotate says.
type rotFile struct {
	path    string
	f       *os.File
	size    int64
	first   uint64    // the seq of the file's first record; 0 while it is empty
	opened  time.Time // the time of the file's first record
	rot     Rotate
	now     func() time.Time
	nextSeq uint64 // the seq of the next line written
}

// openRotating opens the live file and returns the chain's last seq and hash, read from
// the file or, when it is empty, from the newest rotated file.
func openRotating(path string, rot Rotate, now func() time.Time) (*rotFile, uint64, string, error) {
	rf := &rotFile{path: path, rot: rot, now: now}
	if err := rf.open(); err != nil {
		return nil, 0, "", err
	}
	seq, prev, first, err := resume(rf.f, path)
	if err != nil {
		rf.f.Close()
		return nil, 0, "", err
	}
	rf.first, rf.opened = first.seq, first.time
	if rf.size == 0 {
		if seq, prev, err = resumeRotated(path); err != nil {
			rf.f.Close()
			return nil, 0, "", err
		}
	}
	rf.nextSeq = seq + 1
	return rf, seq, prev, nil
}

func (rf *rotFile) open() error {
	f, err := os.OpenFile(rf.path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return err
	}
	rf.f, rf.size, rf.first = f, st.Size(), 0
	return nil
}

// Write appends one record line, rotating first when the line would pass a bound.
func (rf *rotFile) Write(line []byte) (int, error) {
	if rf.due(int64(len(line))) {
		if err := rf.rotate(); err != nil {
			return 0, fmt.Errorf("rotate %s: %w", rf.path, err)
		}
	}
	n, err := rf.f.Write(line)
	rf.size += int64(n)
	if err == nil && rf.first == 0 {
		rf.first, rf.opened = rf.nextSeq, rf.now()
	}
	if err == nil {
		rf.nextSeq++
	}
	return n, err
}

func (rf *rotFile) due(n int64) bool {
	if rf.size == 0 {
		return false
	}
	if rf.rot.MaxBytes > 0 && rf.size+n > rf.rot.MaxBytes {
		return true
	}
	return rf.rot.MaxAge > 0 && !rf.opened.IsZero() && rf.now().Sub(rf.opened) >= rf.rot.MaxAge
}

// rotate closes the live file, renames it after its first record and opens a new one.
// When the rename fails, the old file is reopened and written on.
func (rf *rotFile) rotate() error {
	_ = rf.f.Sync()
	if err := rf.f.Close(); err != nil {
		return err
	}
	renameErr := os.Rename(rf.path, rotatedName(rf.path, rf.first, rf.now()))
	if err := rf.open(); err != nil {
		return err
	}
	if renameErr != nil {
		seq, _, first, _ := resume(rf.f, rf.path)
		rf.first, rf.opened, rf.nextSeq = first.seq, first.time, seq+1
		return renameErr
	}
	return nil
}

// Close flushes the live file to disk and closes it.
func (rf *rotFile) Close() error {
	_ = rf.f.Sync()
	return rf.f.Close()
}

func rotatedName(path string, first uint64, at time.Time) string {
	ext := filepath.Ext(path)
	return fmt.Sprintf("%s-%012d-%s%s", strings.TrimSuffix(path, ext), first, at.UTC().Format("20060102T150405Z"), ext)
}

// rotatedPattern matches the rotated files of path.
func rotatedPattern(path string) string {
	ext := filepath.Ext(path)
	return strings.TrimSuffix(path, ext) + "-[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]-*" + ext
}

// trailFiles returns the rotated files of path in chain order, then path when it exists.
func trailFiles(path string) ([]string, error) {
	files, err := filepath.Glob(rotatedPattern(path))
	if err != nil {
		return nil, err
	}
	slices.Sort(files)
	if _, err := os.Stat(path); err == nil {
		files = append(files, path)
	}
	return files, nil
}

// resumeRotated returns the last seq and hash of the newest rotated file of path.
func resumeRotated(path string) (uint64, string, error) {
	files, err := filepath.Glob(rotatedPattern(path))
	if err != nil || len(files) == 0 {
		return 0, "", err
	}
	slices.Sort(files)
	last := files[len(files)-1]
	f, err := os.Open(last)
	if err != nil {
		return 0, "", err
	}
	defer f.Close()
	seq, prev, _, err := resume(f, last)
	return seq, prev, err
}
