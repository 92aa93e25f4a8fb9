package gateway

import (
	"encoding/json"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/weirgw/weir/policies"
)

// streamChoice is the state of one choice of a stream: the text not yet released, the
// tool calls being assembled, and the choice record the audit reads.
type streamChoice struct {
	index    int
	c        *choice
	pending  string          // gated text not yet released
	hold     strings.Builder // gated text after a held sentence, released at the end
	released strings.Builder
	held     bool // a sentence needs the tool calls to be judged: hold until the end
	withheld bool // rewrite withheld the answer: further text is dropped
	finished bool
	calls    []*callBuilder
}

// callBuilder assembles one tool call from its deltas.
type callBuilder struct {
	index    int
	id, name string
	args     strings.Builder
}

// toolCallDelta is one fragment of choices[].delta.tool_calls.
type toolCallDelta struct {
	Index    *int   `json:"index"`
	ID       string `json:"id"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

func (s *streamer) choice(i int) *streamChoice {
	st, ok := s.choices[i]
	if !ok {
		st = &streamChoice{index: i, c: &choice{}}
		s.choices[i] = st
		s.order = append(s.order, i)
		sort.Ints(s.order)
	}
	return st
}

// chunk handles one upstream chunk: tool-call fragments are taken out and assembled,
// gated text is taken out and released by sentence, a finish_reason releases what the
// choice still holds, and what is left of the chunk is forwarded.
func (s *streamer) chunk(data []byte) error {
	if !chunkJSONOnly.Load() {
		if done, err := s.chunkFast(data); done {
			return err
		}
	}
	return s.chunkJSON(data)
}

// chunkJSONOnly turns chunkFast off, for the test that compares the two paths.
var chunkJSONOnly atomic.Bool

// chunkJSON is chunk with encoding/json, for every kind of chunk: the reference chunkFast
// agrees with.
func (s *streamer) chunkJSON(data []byte) error {
	var raw map[string]json.RawMessage
	if json.Unmarshal(data, &raw) != nil || raw == nil {
		return upstreamBroken("the upstream sent a malformed stream chunk", nil)
	}
	if e, ok := raw["error"]; ok && !isNull(e) {
		return upstreamBroken("the upstream reported an error mid-stream", nil)
	}
	if s.meta == nil {
		s.meta = map[string]json.RawMessage{}
		for _, k := range []string{"id", "object", "created", "model", "system_fingerprint", "service_tier"} {
			if v, ok := raw[k]; ok {
				s.meta[k] = v
			}
		}
	}
	var choices []map[string]json.RawMessage
	if c, ok := raw["choices"]; ok && !isNull(c) && json.Unmarshal(c, &choices) != nil {
		return upstreamBroken("the upstream sent a malformed stream chunk", nil)
	}
	modified := false
	kept := choices[:0]
	for _, ch := range choices {
		changed, err := s.choiceDelta(ch)
		if err != nil {
			return err
		}
		modified = modified || changed
		if !changed || len(ch["delta"]) > 2 || !isNull(ch["finish_reason"]) {
			kept = append(kept, ch)
		}
	}
	if !modified {
		return s.write(data)
	}
	if len(kept) == 0 && isNull(raw["usage"]) {
		return nil // nothing left to forward
	}
	raw["choices"], _ = json.Marshal(kept)
	out, _ := json.Marshal(raw)
	return s.write(out)
}

// choiceDelta handles one choice of a chunk and reports whether it changed it.
func (s *streamer) choiceDelta(ch map[string]json.RawMessage) (bool, error) {
	bad := upstreamBroken("the upstream sent a malformed stream chunk", nil)
	var index int
	if v, ok := ch["index"]; ok && json.Unmarshal(v, &index) != nil {
		return false, bad
	}
	st := s.choice(index)
	var delta map[string]json.RawMessage
	if v, ok := ch["delta"]; ok && !isNull(v) && json.Unmarshal(v, &delta) != nil {
		return false, bad
	}
	if v, ok := delta["function_call"]; ok && !isNull(v) {
		return false, upstreamBroken(errLegacyFunctionCall.Message, nil)
	}
	changed := false
	if v, ok := delta["tool_calls"]; ok {
		var frags []toolCallDelta
		if !isNull(v) && json.Unmarshal(v, &frags) != nil {
			return false, bad
		}
		st.addCalls(frags)
		delete(delta, "tool_calls")
		changed = true
	}
	finishing := !isNull(ch["finish_reason"])
	if v, ok := delta["content"]; ok && !isNull(v) {
		var text string
		if json.Unmarshal(v, &text) != nil {
			return false, bad
		}
		switch {
		case s.gated:
			delete(delta, "content")
			changed = true
			if err := s.addText(st, text); err != nil {
				return false, err
			}
		case finishing:
			// Released before the calls the finish releases, to keep the order.
			delete(delta, "content")
			changed = true
			if err := s.release(st, text); err != nil {
				return false, err
			}
		default:
			st.released.WriteString(text)
		}
	}
	if finishing {
		dropped, err := s.finishChoice(st)
		if err != nil {
			return false, err
		}
		if dropped && string(ch["finish_reason"]) == `"tool_calls"` {
			ch["finish_reason"] = json.RawMessage(`"stop"`)
		}
		changed = true
	}
	if changed {
		ch["delta"], _ = json.Marshal(delta)
		if delta == nil {
			ch["delta"] = json.RawMessage(`{}`)
		}
	}
	return changed, nil
}

// addCalls merges tool-call fragments; calls may be interleaved by index.
func (st *streamChoice) addCalls(frags []toolCallDelta) {
	for _, f := range frags {
		var b *callBuilder
		switch {
		case f.Index != nil:
			for _, c := range st.calls {
				if c.index == *f.Index {
					b = c
				}
			}
		case len(st.calls) > 0 && f.ID == "":
			b = st.calls[len(st.calls)-1] // no index: a continuation of the last call
		}
		if b == nil {
			b = &callBuilder{index: len(st.calls)}
			if f.Index != nil {
				b.index = *f.Index
			}
			st.calls = append(st.calls, b)
		}
		if f.ID != "" {
			b.id = f.ID
		}
		b.name += f.Function.Name
		b.args.WriteString(f.Function.Arguments)
	}
}

// callRefs names the calls assembled so far, for the response decision.
func (st *streamChoice) callRefs() []policies.ToolCall {
	out := make([]policies.ToolCall, len(st.calls))
	for i, c := range st.calls {
		out[i] = policies.ToolCall{ID: c.id, Name: c.name}
	}
	return out
}

// finishAll finishes every choice the upstream did not finish itself.
func (s *streamer) finishAll() error {
	for _, i := range s.order {
		if _, err := s.finishChoice(s.choices[i]); err != nil {
			return err
		}
	}
	return nil
}

// finishChoice judges the assembled tool calls, releases the held text and the allowed
// calls; dropped reports that every proposed call was removed.
func (s *streamer) finishChoice(st *streamChoice) (dropped bool, err error) {
	if st.finished {
		return false, nil
	}
	st.finished = true
	kept, notes, err := s.decideCalls(st)
	if err != nil {
		return false, err
	}
	if s.gated {
		text := st.pending + st.hold.String()
		st.pending = ""
		st.hold.Reset()
		if !st.withheld {
			if _, err := s.checkText(st, text, true); err != nil {
				return false, err
			}
		}
	} else if err := s.judgeReleased(st); err != nil {
		return false, err
	}
	if len(notes) > 0 {
		note := strings.Join(notes, "\n")
		if st.released.Len() > 0 {
			note = "\n\n" + note
		}
		if err := s.release(st, note); err != nil {
			return false, err
		}
	}
	for i, c := range kept {
		if err := s.emitCall(st.index, i, c); err != nil {
			return false, err
		}
	}
	return len(st.calls) > 0 && len(kept) == 0, nil
}
