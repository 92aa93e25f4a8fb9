package gateway

import (
	"github.com/weirgw/weir/gateway/audit"
	"github.com/weirgw/weir/rules"
)

// recordClassification adds to rec why the classifier's tier decided and, when the LLM
// fallback was asked, its model, latency, tokens and error. record calls it for classified
// exchanges.
func recordClassification(rec *audit.Record, c *rules.Classification) {
	rec.Reason = c.Reason
	if f := c.Fallback; f != nil {
		rec.Fallback = &audit.Fallback{
			Model: f.Model, LatencyUS: f.Latency.Microseconds(), Tokens: f.Tokens,
			Cached: f.Cached, Intent: f.Intent, Error: f.Error,
		}
	}
}
