package loadtest

import (
	"bytes"
	"fmt"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/weirgw/weir/gateway"
)

// probeAll sends a scenario's request once to each of its targets and checks the answer
// before any load: a proxy that refuses, blocks or rewrites the request, or that reaches an
// upstream other than the canned one, would be measured doing something else.
func (h *harness) probeAll(sc *Scenario) error {
	for _, t := range h.targetsFor(sc, 0) {
		if err := probe(t, sc); err != nil {
			return err
		}
	}
	return nil
}

func probe(t *target, sc *Scenario) error {
	w := newWorker(t.client, sc)
	if err := t.client.DoTimeout(&w.req, &w.resp, 30*time.Second); err != nil {
		return fmt.Errorf("%s, %s: %w", t.name, sc.Label, err)
	}
	status, body := w.resp.StatusCode(), w.resp.Body()
	switch {
	case status == fasthttp.StatusNotFound && sc.Optional:
		return fmt.Errorf("not available: %s answers 404 for POST %s", t.name, sc.Path)
	case status != fasthttp.StatusOK:
		return fmt.Errorf("%s, %s: status %d: %.300s", t.name, sc.Label, status, body)
	case sc.Answer != "" && string(w.resp.Header.Peek(UpstreamHeader)) != UpstreamMark:
		return fmt.Errorf("%s, %s: the answer did not come from the canned upstream: the config's upstream base_url must be ${WEIR_LLM_URL}", t.name, sc.Label)
	}
	for _, want := range sc.expect {
		if !bytes.Contains(body, []byte(want)) {
			return fmt.Errorf("%s, %s: the answer lacks %q (blocked or rewritten?): %.300s", t.name, sc.Label, want, body)
		}
	}
	if bytes.Contains(body, []byte(gateway.UnverifiedMarker)) || bytes.Contains(body, []byte(`"error"`)) {
		return fmt.Errorf("%s, %s: the answer was rewritten or ended in an error: %.300s", t.name, sc.Label, body)
	}
	return nil
}
