package audit

import (
	"slices"
	"unicode/utf8"
)

// obj appends the members of an object whose opening brace is written; n counts them,
// for the commas.
type obj struct {
	b []byte
	n int
}

func (o *obj) key(k string) {
	if o.n > 0 {
		o.b = append(o.b, ',')
	}
	o.n++
	o.b = append(append(append(o.b, '"'), k...), '"', ':')
}

// str appends a string member; omitempty leaves out "".
func (o *obj) str(k, v string, omitempty bool) {
	if omitempty && v == "" {
		return
	}
	o.key(k)
	o.b = appendString(o.b, v)
}

func (o *obj) int(k string, v int64) {
	o.key(k)
	o.b = appendInt(o.b, v)
}

func (o *obj) close() []byte { return append(o.b, '}') }

func appendStrings(b []byte, ss []string) []byte {
	if ss == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, s)
	}
	return append(b, ']')
}

// latency is one entry of Record.LatencyUS.
type latency struct {
	stage string
	us    int64
}

// sortedLatency appends m's entries to buf in JCS key order.
func sortedLatency(buf []latency, m map[string]int64) ([]latency, error) {
	buf = slices.Grow(buf, len(m))
	for k, v := range m {
		if !utf8.ValidString(k) {
			return buf, errLatencyKey
		}
		buf = append(buf, latency{k, v})
	}
	slices.SortFunc(buf, func(a, b latency) int { return compareKeys(a.stage, b.stage) })
	return buf, nil
}

// appendLatency appends the per-stage latencies (null for a nil map), sorted.
func appendLatency(b []byte, isNil bool, sorted []latency) []byte {
	if isNil {
		return append(b, "null"...)
	}
	o := obj{b: append(b, '{')}
	for _, l := range sorted {
		if o.n > 0 {
			o.b = append(o.b, ',')
		}
		o.n++
		o.b = append(appendString(o.b, l.stage), ':')
		o.b = appendInt(o.b, l.us)
	}
	return o.close()
}
