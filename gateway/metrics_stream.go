package gateway

import (
	"sync"

	"github.com/prometheus/client_golang/prometheus"
)

// streamEndCounters holds weir_stream_ends_total per metrics registry. It lives beside
// metrics rather than in it so streaming stays in its own files; it is registered on the
// gateway's registry at first use.
var streamEndCounters sync.Map // *metrics → *prometheus.CounterVec

// streamEnds returns the counter of streams by route and how they ended: done, blocked,
// upstream_error, client_closed, error.
func (m *metrics) streamEnds(route, end string) prometheus.Counter {
	v, ok := streamEndCounters.Load(m)
	if !ok {
		cv := prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "weir_stream_ends_total", Help: "Streamed chat completions by route and how they ended (done, blocked, upstream_error, client_closed, error).",
		}, []string{"route", "end"})
		var loaded bool
		if v, loaded = streamEndCounters.LoadOrStore(m, cv); !loaded {
			m.reg.MustRegister(cv)
		}
	}
	return v.(*prometheus.CounterVec).WithLabelValues(route, end)
}
