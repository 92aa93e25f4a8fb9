package clientview

import (
	"encoding/json"
	"fmt"
	"strings"
)

// ReadStream reads a chat completion stream (an SSE body) with both readers, each
// assembling the events the way the SDKs' accumulators do. Reading stops at the first
// data starting with "[DONE]" (later events get a note) or at an event carrying an
// error, which each reader records in View.Error. An event with another name than
// "error" gets a note and is skipped. err reports data a reader cannot decode: a client
// would fail on it.
func ReadStream(body []byte) (exact, fold View, err error) {
	events, notes := splitSSE(body)
	var ea, fa assembler
	ea.view.Notes = append(ea.view.Notes, notes...)
	fa.view.Notes = append(fa.view.Notes, notes...)
	for i, ev := range events {
		if strings.HasPrefix(ev.data, "[DONE]") {
			if i < len(events)-1 {
				ea.note("%d events after [DONE], ignored", len(events)-1-i)
				fa.note("%d events after [DONE], ignored", len(events)-1-i)
			}
			break
		}
		if err := readEvent(&ea, &fa, i, ev); err != nil {
			return View{}, View{}, err
		}
	}
	return ea.finish(), fa.finish(), nil
}

// readEvent decodes one event with both readers and adds it to their assemblies.
func readEvent(ea, fa *assembler, i int, ev event) error {
	if ev.name != "" && ev.name != "error" {
		ea.note("event %d named %q, skipped", i, ev.name)
		fa.note("event %d named %q, skipped", i, ev.name)
		return nil
	}
	m, err := decodeExact([]byte(ev.data))
	if err != nil {
		return fmt.Errorf("exact reader: event %d: %w", i, err)
	}
	var f foldChunk
	if err := json.Unmarshal([]byte(ev.data), &f); err != nil {
		return fmt.Errorf("fold reader: event %d: %w", i, err)
	}
	ea.add(exactChunk(m, "delta"), true)
	fa.add(f.chunk("delta"), true)
	return nil
}
