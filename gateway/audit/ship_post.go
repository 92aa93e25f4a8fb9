package audit

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strconv"
)

// poster sends one batch.
type poster struct{ opts *ShipOptions }

func (p poster) send(body []byte) error {
	req, err := http.NewRequest(http.MethodPost, p.opts.URL, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-ndjson")
	if seq, ok := firstSeq(body); ok {
		req.Header.Set("X-Weir-Audit-First-Seq", strconv.FormatUint(seq, 10))
	}
	for k, v := range p.opts.Headers {
		req.Header.Set(k, v)
	}
	resp, err := p.opts.Client.Do(req)
	if err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s answered %s", p.opts.URL, resp.Status)
	}
	return nil
}

// firstSeq reads the seq a record line starts with: {"seq":N,
func firstSeq(line []byte) (uint64, bool) {
	rest, ok := bytes.CutPrefix(line, []byte(`{"seq":`))
	if !ok {
		return 0, false
	}
	end := bytes.IndexByte(rest, ',')
	if end < 0 {
		return 0, false
	}
	n, err := strconv.ParseUint(string(rest[:end]), 10, 64)
	return n, err == nil
}
