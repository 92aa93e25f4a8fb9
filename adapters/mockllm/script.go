// Package mockllm is a scripted, OpenAI-compatible model server for tests and demos: it
// answers /v1/chat/completions and /v1/models from a YAML script of cases (match on the
// last user message and on whether tools are offered; reply with text, tool calls or a
// stream; optionally delay or fail). `weir mock-llm` serves it; Go tests use Start.
// The script format is documented in README.md.
package mockllm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// Script is a list of cases, tried in order; the first that matches answers.
type Script struct {
	// Model is the model name reported in replies and by /v1/models (default "weir-mock").
	Model string `yaml:"model"`
	Cases []Case `yaml:"cases"`
}

// Case is one scripted exchange.
type Case struct {
	// Name identifies the case in logs and in Server.Requests.
	Name  string `yaml:"name"`
	Match Match  `yaml:"match"`
	Reply Reply  `yaml:"reply"`
}

// Match selects requests; every condition given must hold, and a case without conditions
// matches everything (a catch-all).
type Match struct {
	// Contains is a substring of the last user message.
	Contains string `yaml:"contains"`
	// Regex is a Go regular expression matched against the last user message.
	Regex string `yaml:"regex"`
	// Tools, when set, requires the request to offer tools (true) or not (false).
	Tools *bool `yaml:"tools"`
	// ToolResult, when set, requires the conversation's last message to be a tool result
	// (true) or not (false): how an agent loop's second turn is told from its first.
	ToolResult *bool `yaml:"tool_result"`

	re *regexp.Regexp
}

// Reply is what a case answers.
type Reply struct {
	// Text is the assistant message's content.
	Text string `yaml:"text"`
	// ToolCalls are the tool calls the assistant proposes.
	ToolCalls []ToolCall `yaml:"tool_calls"`
	// Usage is reported as the token usage; zero values are estimated from the text.
	Usage Usage `yaml:"usage"`
	// Delay is waited before answering (e.g. "1500ms"), to exercise time limits.
	Delay time.Duration `yaml:"delay"`
	// Stream shapes the SSE reply when the request asks for a stream.
	Stream StreamShape `yaml:"stream"`
	// Fail injects a failure instead of (or in the middle of) the reply.
	Fail Fail `yaml:"fail"`
}

// ToolCall is one proposed call. Arguments may be written as a YAML mapping or as a JSON
// string; either way the model sends a JSON string, as OpenAI does.
type ToolCall struct {
	ID        string `yaml:"id"`
	Name      string `yaml:"name"`
	Arguments any    `yaml:"arguments"`

	args string
}

// Usage is the token usage a reply reports.
type Usage struct {
	PromptTokens     int `yaml:"prompt_tokens"`
	CompletionTokens int `yaml:"completion_tokens"`
}

// StreamShape controls how a reply is cut into SSE chunks.
type StreamShape struct {
	// Chunk is the number of bytes of text or arguments per delta (default 8).
	Chunk int `yaml:"chunk"`
	// Interleave sends the argument deltas of parallel tool calls round-robin (call 0,
	// call 1, call 0, ...), distinguished only by their index, as real servers may.
	Interleave bool `yaml:"interleave"`
}

// Fail injects a failure.
type Fail struct {
	// Status answers with this HTTP status and an OpenAI-format error.
	Status int `yaml:"status"`
	// Message is the error message (default: the status text).
	Message string `yaml:"message"`
	// Malformed answers 200 with a body that is not valid JSON.
	Malformed bool `yaml:"malformed"`
	// Close drops the connection: before any reply, or half-way through a stream.
	Close bool `yaml:"close"`
}

// LoadScript reads and checks a script file.
func LoadScript(path string) (*Script, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("mockllm: %w", err)
	}
	s, err := ParseScript(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// ParseScript decodes a script strictly (unknown keys are errors) and checks it.
func ParseScript(data []byte) (*Script, error) {
	var s Script
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("mockllm: script: %w", err)
	}
	if err := s.compile(); err != nil {
		return nil, err
	}
	return &s, nil
}

// compile checks the script and prepares regexes and argument strings. Scripts built in
// Go are compiled by Start.
func (s *Script) compile() error {
	if s.Model == "" {
		s.Model = "weir-mock"
	}
	for i := range s.Cases {
		c := &s.Cases[i]
		if c.Name == "" {
			c.Name = fmt.Sprintf("case %d", i+1)
		}
		if c.Match.Regex != "" {
			re, err := regexp.Compile(c.Match.Regex)
			if err != nil {
				return fmt.Errorf("mockllm: %s: regex: %w", c.Name, err)
			}
			c.Match.re = re
		}
		for j := range c.Reply.ToolCalls {
			tc := &c.Reply.ToolCalls[j]
			if tc.Name == "" {
				return fmt.Errorf("mockllm: %s: tool call %d has no name", c.Name, j+1)
			}
			if tc.ID == "" {
				tc.ID = fmt.Sprintf("call_%d_%d", i+1, j+1)
			}
			args, err := argString(tc.Arguments)
			if err != nil {
				return fmt.Errorf("mockllm: %s: tool call %s: %w", c.Name, tc.Name, err)
			}
			tc.args = args
		}
		if f := c.Reply.Fail; f.Status != 0 && (f.Status < 400 || f.Status > 599) {
			return fmt.Errorf("mockllm: %s: fail.status %d is not an error status", c.Name, f.Status)
		}
	}
	return nil
}

func argString(v any) (string, error) {
	switch a := v.(type) {
	case nil:
		return "{}", nil
	case string:
		if !json.Valid([]byte(a)) {
			return "", fmt.Errorf("arguments %q are not JSON", a)
		}
		return a, nil
	default:
		b, err := json.Marshal(a)
		return string(b), err
	}
}

// find returns the first case matching the last user message, the tools flag and
// whether the last message is a tool result.
func (s *Script) find(lastUser string, hasTools, afterTool bool) *Case {
	for i := range s.Cases {
		m := &s.Cases[i].Match
		if m.Contains != "" && !strings.Contains(lastUser, m.Contains) {
			continue
		}
		if m.re != nil && !m.re.MatchString(lastUser) {
			continue
		}
		if m.Tools != nil && *m.Tools != hasTools {
			continue
		}
		if m.ToolResult != nil && *m.ToolResult != afterTool {
			continue
		}
		return &s.Cases[i]
	}
	return nil
}
