package gateway

import (
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"
)

// children caches the children of one metric vector by their label values. Every request
// counts itself several times; WithLabelValues would each time build a label slice, hash
// it and take the vector's read lock, a cache line both cores write. Here a count is one
// lock-free read of a map that is never changed once published: a new label set copies
// it under mu. Label sets come from the config, the policies and HTTP statuses, so the
// map stays small; past maxChildren new sets go to the vector directly.
type children[K comparable, M any] struct {
	m      atomic.Pointer[map[K]M]
	mu     sync.Mutex
	create func(K) M
	limit  int // label sets cached at most
}

// maxChildren bounds a cache; the vector itself keeps every child either way.
const maxChildren = 4096

func newChildren[K comparable, M any](create func(K) M) *children[K, M] {
	return &children[K, M]{create: create, limit: maxChildren}
}

// get returns the child for k, creating it at first use.
func (c *children[K, M]) get(k K) M {
	if m := c.m.Load(); m != nil {
		if v, ok := (*m)[k]; ok {
			return v
		}
	}
	return c.add(k)
}

func (c *children[K, M]) add(k K) M {
	c.mu.Lock()
	defer c.mu.Unlock()
	old := c.m.Load()
	var n int
	if old != nil {
		if v, ok := (*old)[k]; ok {
			return v
		}
		n = len(*old)
	}
	v := c.create(k)
	if n >= c.limit {
		return v
	}
	next := make(map[K]M, n+1)
	if old != nil {
		for key, val := range *old {
			next[key] = val
		}
	}
	next[k] = v
	c.m.Store(&next)
	return v
}

// Label sets of the per-request counters.
type (
	requestLabels struct {
		route  string
		status int
	}
	decisionLabels struct{ route, intent, outcome string }
	violationLabel struct{ code, intent string }
)

// counters are the cached children of the request path's metric vectors.
type counters struct {
	requests   *children[requestLabels, prometheus.Counter]
	decisions  *children[decisionLabels, prometheus.Counter]
	violations *children[violationLabel, prometheus.Counter]
	classifier *children[string, prometheus.Counter]
	stage      *children[string, prometheus.Observer]
}

func newCounters(m *metrics) counters {
	return counters{
		requests: newChildren(func(k requestLabels) prometheus.Counter {
			return m.requests.WithLabelValues(k.route, strconv.Itoa(k.status))
		}),
		decisions: newChildren(func(k decisionLabels) prometheus.Counter {
			return m.decisions.WithLabelValues(k.route, k.intent, k.outcome)
		}),
		violations: newChildren(func(k violationLabel) prometheus.Counter {
			return m.violations.WithLabelValues(k.code, k.intent)
		}),
		classifier: newChildren(func(source string) prometheus.Counter {
			return m.classifier.WithLabelValues(source)
		}),
		stage: newChildren(func(stage string) prometheus.Observer {
			return m.stage.WithLabelValues(stage)
		}),
	}
}
