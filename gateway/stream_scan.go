package gateway

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// deltaView is what the fast path reads of one choice of a stream chunk.
type deltaView struct {
	index   int
	text    string
	hasText bool // delta.content is present and not null
	others  bool // delta has members besides content
}

// metaKeys are the chunk fields Weir's own chunks copy from the upstream's (emit).
var metaKeys = []string{"id", "object", "created", "model", "system_fingerprint", "service_tier"}

// chunkFast handles the chunks most of a stream is made of, text deltas and usage, in one
// pass and without re-encoding: a chunk the relay forwards as it came, or drops whole
// because all it carried was gated text. It reports false, having done nothing, for any
// other chunk (tool calls, a finish_reason, a delta that keeps other members once its text
// is taken out, anything it does not decode exactly like the encoding/json path), which
// chunkJSON then handles.
func (s *streamer) chunkFast(data []byte) (bool, error) {
	var buf [4]deltaView
	views, ok := s.scanChunk(data, buf[:0])
	if !ok {
		return false, nil
	}
	modified := false
	for _, v := range views {
		st := s.choice(v.index)
		switch {
		case !v.hasText:
		case s.gated:
			modified = true
			if err := s.addText(st, v.text); err != nil {
				return true, err
			}
		default:
			st.released.WriteString(v.text)
		}
	}
	if !modified {
		return true, s.write(data)
	}
	return true, nil // every choice was gated text: nothing left to forward
}

// scanChunk reads a chunk for chunkFast, and the stream's metadata from its first chunk.
func (s *streamer) scanChunk(data []byte, views []deltaView) ([]deltaView, bool) {
	sc := newScan(data)
	var meta [6][2]int
	var seen uint
	usage := false
	if !sc.enter('{') {
		return nil, false
	}
	for n := 0; sc.more(n, '}'); n++ {
		key := sc.key()
		k := topChunkKey(key)
		if !sc.ok || k >= 0 && seen&(1<<k) != 0 {
			return nil, false
		}
		if k >= 0 {
			seen |= 1 << k
		}
		switch {
		case k < len(metaKeys):
			start, end := sc.skip()
			if k >= 0 {
				meta[k] = [2]int{start, end}
			}
		case k == chunkChoices:
			if views = sc.choiceViews(views, s.gated); !sc.ok {
				return nil, false
			}
		case k == chunkError || k == chunkUsage:
			if !sc.null() {
				sc.skip()
				if k == chunkError {
					return nil, false // the encoding/json path reports it
				}
				usage = true
			}
		}
	}
	if !sc.end() {
		return nil, false
	}
	texts := 0
	for _, v := range views {
		if v.hasText {
			texts++
		}
	}
	if s.gated && texts > 0 && (usage || texts < len(views)) {
		// The gated text is taken out and what is left forwarded: re-encoded.
		return nil, false
	}
	if s.meta == nil {
		s.meta = map[string]json.RawMessage{}
		for i, k := range metaKeys {
			if seen&(1<<i) != 0 {
				s.meta[k] = bytes.Clone(data[meta[i][0]:meta[i][1]])
			}
		}
	}
	return views, true
}

// Top-level chunk keys chunkFast tells apart: metaKeys' six first, then these.
const (
	chunkChoices = 6 + iota
	chunkError
	chunkUsage
)

// topChunkKey returns the index of a top-level key among metaKeys and the chunk* keys,
// -1 for any other.
func topChunkKey(key []byte) int {
	for i, k := range metaKeys {
		if string(key) == k {
			return i
		}
	}
	switch string(key) {
	case "choices":
		return chunkChoices
	case "error":
		return chunkError
	case "usage":
		return chunkUsage
	}
	return -1
}

// choiceViews reads a chunk's choices: objects with an integer index and a delta without
// tool calls or a finish_reason; a gated text delta must have no other members.
func (sc *jscan) choiceViews(views []deltaView, gated bool) []deltaView {
	if sc.null() {
		return views
	}
	sc.enter('[')
	for n := 0; sc.more(n, ']'); n++ {
		var v deltaView
		var seen uint
		sc.enter('{')
		for k := 0; sc.more(k, '}'); k++ {
			key := sc.key()
			f := -1
			switch string(key) {
			case "index":
				f = 0
			case "delta":
				f = 1
			case "finish_reason":
				f = 2
			}
			if !sc.ok || f >= 0 && seen&(1<<f) != 0 {
				sc.fail()
				return views
			}
			if f >= 0 {
				seen |= 1 << f
			}
			switch f {
			case 0:
				v.index = sc.index()
			case 1:
				sc.delta(&v)
			case 2:
				if !sc.null() {
					sc.fail() // a finish re-encodes the chunk
				}
			default:
				sc.skip()
			}
		}
		if gated && v.hasText && v.others {
			sc.fail() // the delta is forwarded without its text: re-encoded
		}
		views = append(views, v)
	}
	return views
}

// index reads a choice index as json.Unmarshal into an int does (null leaves 0).
func (sc *jscan) index() int {
	if sc.null() {
		return 0
	}
	start, end := sc.skip()
	i, err := strconv.Atoi(string(sc.b[start:end]))
	if err != nil {
		sc.fail() // a fraction, an exponent, an overflow: the encoding/json path decides
	}
	return i
}

// delta reads a choice's delta: its text, and whether it has other members. Tool calls and
// the legacy function_call go the encoding/json path.
func (sc *jscan) delta(v *deltaView) {
	if sc.null() || !sc.enter('{') {
		return
	}
	hasContent := false
	for n := 0; sc.more(n, '}'); n++ {
		key := sc.key()
		switch {
		case !sc.ok:
			return
		case string(key) == "tool_calls" || string(key) == "function_call":
			sc.fail()
			return
		case string(key) == "content" && hasContent:
			sc.fail()
			return
		case string(key) == "content":
			hasContent = true
			if !sc.null() {
				v.hasText = true
				v.text, _ = sc.stringValue()
			}
		default:
			v.others = true
			sc.skip()
		}
	}
}
