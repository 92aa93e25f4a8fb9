package gateway

import (
	"encoding/json"
	"strconv"
)

// contentChunk is emit(choiceIndex, {"content": content}) without encoding maps per
// release: json.Marshal writes a map's keys sorted, and "choices" sorts before every
// other key of Weir's chunks (object and metaKeys), so the chunk is {"choices":[…]},
// then the rest of the chunk, which is the same for the whole stream and encoded once.
// content is a JSON string as json.Marshal writes it.
func (s *streamer) contentChunk(choiceIndex int, content []byte) []byte {
	if s.chunkTail == nil {
		rest := map[string]json.RawMessage{"object": json.RawMessage(`"chat.completion.chunk"`)}
		for k, v := range s.meta {
			rest[k] = v
		}
		b, _ := json.Marshal(rest)
		s.chunkTail = b[1:] // without its "{"
	}
	b := make([]byte, 0, len(`{"choices":[{"delta":{"content":},"finish_reason":null,"index":},`)+len(content)+20+len(s.chunkTail))
	b = append(b, `{"choices":[{"delta":{"content":`...)
	b = append(b, content...)
	b = append(b, `},"finish_reason":null,"index":`...)
	b = strconv.AppendInt(b, int64(choiceIndex), 10)
	b = append(b, "}],"...)
	return append(b, s.chunkTail...)
}
