package gateway

import (
	"bufio"
	"bytes"
	"encoding/json"
	"testing"
)

// TestContentChunkMatchesEmit: the content chunk written without maps is byte for byte
// the one emit encodes with encoding/json, whatever the upstream's metadata and the text.
func TestContentChunkMatchesEmit(t *testing.T) {
	metas := []map[string]json.RawMessage{
		nil,
		{"id": json.RawMessage(`"chatcmpl-1"`), "model": json.RawMessage(`"gpt-4o"`), "created": json.RawMessage(`1767225600`)},
		{"id": json.RawMessage(`"a<b>&c"`), "object": json.RawMessage(`"other.object"`), "system_fingerprint": json.RawMessage(`null`),
			"service_tier": json.RawMessage(` "default" `), "created": json.RawMessage(`{ "x" : [1, 2] }`)},
	}
	texts := []string{"", "Il fatturato è 21956.62 €. ", "<script>&\"quoted\"\n\ttab\u2028", "\x00\x1f\xff"}
	for mi, meta := range metas {
		for _, text := range texts {
			for _, index := range []int{0, 3} {
				s := &streamer{meta: meta}
				content, _ := json.Marshal(text)
				got := s.contentChunk(index, content)
				var want bytes.Buffer
				s.w = bufio.NewWriter(&want)
				if err := s.emit(index, map[string]json.RawMessage{"content": content}); err != nil {
					t.Fatal(err)
				}
				s.w.Flush()
				if w := bytes.TrimSuffix(bytes.TrimPrefix(want.Bytes(), []byte("data: ")), []byte("\n\n")); !bytes.Equal(got, w) {
					t.Errorf("meta %d, text %q, index %d:\n got %s\nwant %s", mi, text, index, got, w)
				}
			}
		}
	}
}
