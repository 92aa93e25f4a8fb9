package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestMockLLMCommand(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	var stderr strings.Builder
	done := make(chan int, 1)
	go func() {
		done <- serveMockLLM(ctx, []string{"--script", "../../examples/analytics/mock-llm.yaml", "--listen", "127.0.0.1:0"}, pw, &stderr)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatalf("no banner: %v (stderr %q)", err, stderr.String())
	}
	i := strings.Index(line, "http://")
	if i < 0 {
		t.Fatalf("banner %q", line)
	}
	base := strings.TrimSpace(line[i:])
	go func() { _, _ = io.Copy(io.Discard, pr) }()

	body := `{"model":"m","messages":[{"role":"system","content":"classify"},{"role":"user","content":"<question>grazie mille</question>"}]}`
	resp, err := http.Post(base+"/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	var out struct {
		Choices []struct {
			Message struct{ Content string } `json:"message"`
		} `json:"choices"`
	}
	err = json.NewDecoder(resp.Body).Decode(&out)
	resp.Body.Close()
	if err != nil || len(out.Choices) != 1 || out.Choices[0].Message.Content != `{"intent": "conversational", "confidence": 0.9}` {
		t.Fatalf("reply %+v %v", out, err)
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit %d, stderr %q", code, stderr.String())
		}
	case <-time.After(5 * time.Second):
		t.Fatal("did not stop")
	}
}

func TestMockLLMCommandErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no script", nil, 2, "usage: weir mock-llm"},
		{"missing file", []string{"--script", "testdata/does-not-exist.yaml"}, 1, "does-not-exist.yaml"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stderr strings.Builder
			code := serveMockLLM(context.Background(), tc.args, io.Discard, &stderr)
			if code != tc.code || !strings.Contains(stderr.String(), tc.want) {
				t.Fatalf("exit %d, stderr %q", code, stderr.String())
			}
		})
	}
}
