package clientview

import (
	"encoding/json"
	"fmt"
)

// ReadCompletion reads a chat completion body with both readers. err reports a body
// either reader refuses (not JSON, or a type encoding/json cannot put in the Fold
// reader's structs): a client would fail on it.
func ReadCompletion(body []byte) (exact, fold View, err error) {
	m, err := decodeExact(body)
	if err != nil {
		return View{}, View{}, fmt.Errorf("exact reader: %w", err)
	}
	var f foldChunk
	if err := json.Unmarshal(body, &f); err != nil {
		return View{}, View{}, fmt.Errorf("fold reader: %w", err)
	}
	var ea, fa assembler
	ea.add(exactChunk(m, "message"), false)
	fa.add(f.chunk("message"), false)
	return ea.finish(), fa.finish(), nil
}
