package loadtest

import (
	"bufio"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// Spawn returns the command that runs ChildMain with args in a new process: `weir bench
// child ARGS...` for the weir binary, the test binary itself in tests.
type Spawn func(args ...string) *exec.Cmd

// startTimeout bounds how long a server may take to compile its config and listen.
const startTimeout = time.Minute

// server is a running child process (child.go) and the pipes of its protocol.
type server struct {
	role   string
	addr   string
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	stderr *tail
	done   chan error // the process's exit
}

// startServer starts a child for role with extra environment variables and waits until it
// serves.
func startServer(spawn Spawn, env []string, args ...string) (*server, error) {
	cmd := spawn(args...)
	cmd.Env = append(cmd.Environ(), env...)
	s := &server{role: args[0], cmd: cmd, stderr: &tail{max: 16 << 10}, done: make(chan error, 1)}
	cmd.Stderr = s.stderr
	var err error
	if s.in, err = cmd.StdinPipe(); err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	s.out = bufio.NewReader(stdout)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", s.role, err)
	}
	go func() { s.done <- cmd.Wait() }()
	ready := make(chan error, 1)
	go func() {
		line, err := s.readLine()
		if err == nil && !strings.HasPrefix(line, "ready ") {
			err = fmt.Errorf("unexpected first line %q", line)
		}
		s.addr = strings.TrimPrefix(line, "ready ")
		ready <- err
	}()
	select {
	case err = <-ready:
	case <-time.After(startTimeout):
		err = fmt.Errorf("not serving after %s", startTimeout)
	}
	if err != nil {
		s.kill()
		return nil, fmt.Errorf("%s did not start: %w%s", s.role, err, s.stderr.excerpt())
	}
	return s, nil
}

func (s *server) readLine() (string, error) {
	line, err := s.out.ReadString('\n')
	if err != nil {
		return "", err
	}
	return strings.TrimSuffix(line, "\n"), nil
}

// cpu returns the user+system CPU time the child has used so far.
func (s *server) cpu() (time.Duration, error) {
	if _, err := io.WriteString(s.in, "cpu\n"); err != nil {
		return 0, fmt.Errorf("%s: %w%s", s.role, err, s.stderr.excerpt())
	}
	line, err := s.readLine()
	if err != nil {
		return 0, fmt.Errorf("%s: %w%s", s.role, err, s.stderr.excerpt())
	}
	var user, sys int64
	if _, err := fmt.Sscanf(line, "cpu %d %d", &user, &sys); err != nil {
		return 0, fmt.Errorf("%s: %s", s.role, line)
	}
	return time.Duration(user + sys), nil
}

// stop closes the child's stdin, which shuts it down, and waits for it; a child that does
// not exit within ten seconds is killed.
func (s *server) stop() error {
	_ = s.in.Close()
	select {
	case err := <-s.done:
		if err != nil {
			return fmt.Errorf("%s: %w%s", s.role, err, s.stderr.excerpt())
		}
		return nil
	case <-time.After(10 * time.Second):
		s.kill()
		return fmt.Errorf("%s did not shut down within 10s; killed", s.role)
	}
}

func (s *server) kill() {
	_ = s.in.Close()
	if s.cmd.Process != nil {
		_ = s.cmd.Process.Kill()
	}
	<-s.done //nolint:errcheck // killed: its exit error says nothing
}

// tail keeps the last max bytes written to it: a child's stderr, shown when it fails.
type tail struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if over := len(t.b) - t.max; over > 0 {
		t.b = append(t.b[:0], t.b[over:]...)
	}
	return len(p), nil
}

// excerpt is the child's recent stderr, indented, for an error message.
func (t *tail) excerpt() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := strings.TrimSpace(string(t.b))
	if s == "" {
		return ""
	}
	return "\n  " + strings.ReplaceAll(s, "\n", "\n  ")
}
