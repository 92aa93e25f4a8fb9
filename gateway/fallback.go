package gateway

import (
	"fmt"
	"reflect"

	"github.com/weirgw/weir/gateway/config"
	"github.com/weirgw/weir/rules"
	"github.com/weirgw/weir/rules/fallback"
)

// buildFallback returns the LLM tier the config's fallback section describes: prev's when
// the section is unchanged (the cache, the breaker's state and the counters carry over; a
// changed rule pack needs no rebuild because the cache is keyed by pack revision), a new
// one when it changed, nil without a section. A changed API key in the environment is read
// when the section changes or at restart.
func buildFallback(cfg *config.Config, prev *Snapshot) (*fallback.Classifier, error) {
	if cfg.Fallback == nil {
		return nil, nil
	}
	if prev != nil && prev.Fallback != nil && reflect.DeepEqual(prev.Config.Fallback, cfg.Fallback) {
		return prev.Fallback, nil
	}
	fb, err := fallback.FromConfig(cfg.Fallback.LLM, cfg.Fallback.Options)
	if err != nil {
		return nil, fmt.Errorf("%s: fallback: %w", cfg.File, err)
	}
	return fb, nil
}

// newClassifier is the pack's classifier, with the LLM tier when there is one. (A nil
// *fallback.Classifier must not become a non-nil rules.Fallback.)
func newClassifier(pack *rules.Pack, fb *fallback.Classifier) *rules.Classifier {
	if fb == nil {
		return rules.NewClassifier(pack)
	}
	return rules.NewClassifier(pack, rules.WithFallback(fb))
}
