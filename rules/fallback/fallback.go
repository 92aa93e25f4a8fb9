// Package fallback is the LLM tier of the classifier: it implements rules.Fallback by asking
// a model to pick one of the pack's intents when the rules are not confident.
//
// The model is reached through the small Completer interface (adapters/llm implements it;
// see FromModel), so this package never sees a provider SDK. Around each call it adds what
// a gateway needs: a prompt built from the pack alone, a strict parser for the answer, a
// time limit, a circuit breaker, an LRU cache keyed by pack revision and normalized
// question, and single-flight so that a burst of one question makes one call.
//
// The question is untrusted input. It is delimited, delimiter-like text inside it is
// neutralised, the model is told to treat it as data, and whatever the model answers is
// only ever one of the pack's intents with source "llm" — policies decide what an intent
// chosen by the LLM alone may do.
package fallback

import (
	"context"
	"errors"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/weirgw/weir/rules"
)

// Completer is the one thing the fallback needs from a model: a single non-streaming
// completion of a system and a user message.
type Completer interface {
	Complete(ctx context.Context, p Prompt) (Completion, error)
}

// Prompt is one request to the model.
type Prompt struct {
	System      string
	User        string
	MaxTokens   int
	Temperature float64
	JSON        bool // ask for JSON output where the provider supports it
}

// Completion is the model's raw answer.
type Completion struct {
	Text             string
	Model            string
	PromptTokens     int
	CompletionTokens int
}

// Options tune the classifier; the zero value of each field selects its default. The
// YAML tags let a gateway config embed Options directly.
type Options struct {
	// Timeout is the time limit of one model call (default 2s).
	Timeout time.Duration `yaml:"timeout"`
	// MaxTokens is the model's output budget (default 64; the answer is one small object).
	MaxTokens int `yaml:"max_tokens"`
	// CacheSize is the number of answers kept (default 1024; negative disables the cache).
	CacheSize int `yaml:"cache_size"`
	// BreakerFailures is how many consecutive model failures open the breaker (default 5).
	BreakerFailures int `yaml:"breaker_failures"`
	// BreakerCooldown is how long the breaker stays open before one probe (default 30s).
	BreakerCooldown time.Duration `yaml:"breaker_cooldown"`
	// ExamplesPerIntent is how many of the pack's test questions per intent the prompt shows
	// (default 2; negative shows none).
	ExamplesPerIntent int `yaml:"examples_per_intent"`
	// MaxQuestionBytes caps the question in the prompt (default 2048).
	MaxQuestionBytes int `yaml:"max_question_bytes"`

	now func() time.Time // tests pin the breaker's clock
}

// WithDefaults returns o with every zero field set to its default, as New applies them; a
// gateway config fills its fallback section with it so the effective values are shown.
func (o Options) WithDefaults() Options { return o.withDefaults() }

func (o Options) withDefaults() Options {
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	def(&o.MaxTokens, 64)
	def(&o.CacheSize, 1024)
	def(&o.BreakerFailures, 5)
	def(&o.ExamplesPerIntent, 2)
	def(&o.MaxQuestionBytes, 2048)
	if o.Timeout <= 0 {
		o.Timeout = 2 * time.Second
	}
	if o.BreakerCooldown <= 0 {
		o.BreakerCooldown = 30 * time.Second
	}
	return o
}

// Classifier implements rules.Fallback with a model. It is safe for concurrent use.
type Classifier struct {
	model   Completer
	opts    Options
	prompts promptCache
	cache   *lru
	breaker *breaker
	group   singleflight.Group
	stats   counters
}

var _ rules.Fallback = (*Classifier)(nil)

// New returns a fallback classifier that asks model.
func New(model Completer, opts Options) *Classifier {
	o := opts.withDefaults()
	if o.now == nil {
		o.now = time.Now
	}
	c := &Classifier{model: model, opts: o, breaker: newBreaker(o.BreakerFailures, o.BreakerCooldown, o.now)}
	if o.CacheSize > 0 {
		c.cache = newLRU(o.CacheSize)
	}
	return c
}

// result is what one model call produces, shared by every waiter of a single flight.
type result struct {
	ans rules.FallbackAnswer
	err error
}

// Classify asks the model for q's intent: from the cache when it knows the answer, else
// through one shared call per question. A failed answer is an error; the rules classifier
// then applies the pack default and records the error as the reason.
func (c *Classifier) Classify(ctx context.Context, q rules.FallbackQuery) (rules.FallbackAnswer, error) {
	start := time.Now()
	key := q.Pack.Revision() + "\x00" + q.Normalized
	if c.cache != nil {
		if ans, ok := c.cache.get(key); ok {
			c.stats.cacheHits.Add(1)
			ans.Cached, ans.Latency = true, time.Since(start)
			return ans, nil
		}
	}
	leader := false // set by the call's goroutine; read after the channel delivers
	ch := c.group.DoChan(key, func() (any, error) {
		leader = true
		r := c.call(q)
		if r.err == nil && c.cache != nil {
			c.cache.add(key, r.ans)
		}
		return r, nil
	})
	select {
	case v := <-ch:
		r := v.Val.(result)
		if v.Shared && !leader {
			c.stats.shared.Add(1)
		}
		r.ans.Latency = time.Since(start)
		return r.ans, r.err
	case <-ctx.Done():
		// The shared call goes on for the other waiters and fills the cache.
		c.stats.fail(reasonCanceled)
		return rules.FallbackAnswer{Latency: time.Since(start)}, &Error{Reason: reasonCanceled, Err: ctx.Err()}
	}
}

// call makes one model call under the breaker and the time limit. It runs detached from
// the caller's context so that one client going away does not fail the others waiting on
// the same question.
func (c *Classifier) call(q rules.FallbackQuery) result {
	if !c.breaker.allow() {
		c.stats.fail(reasonBreakerOpen)
		return result{err: &Error{Reason: reasonBreakerOpen, Err: errBreakerOpen}}
	}
	p := c.prompts.get(q.Pack, c.opts)
	ctx, cancel := context.WithTimeout(context.Background(), c.opts.Timeout)
	defer cancel()
	c.stats.calls.Add(1)
	comp, err := c.model.Complete(ctx, Prompt{
		System: p.system, User: userMessage(q.Text, c.opts.MaxQuestionBytes),
		MaxTokens: c.opts.MaxTokens, Temperature: 0, JSON: true,
	})
	ans := rules.FallbackAnswer{Model: comp.Model, Tokens: comp.PromptTokens + comp.CompletionTokens}
	c.stats.tokens.Add(uint64(max(ans.Tokens, 0)))
	if err != nil {
		reason := reasonUpstream
		if errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil {
			reason = reasonTimeout
		}
		c.breaker.record(false)
		c.stats.fail(reason)
		return result{ans: ans, err: &Error{Reason: reason, Err: err}}
	}
	// The model answered: availability is fine whatever it said. Malformed answers do not
	// trip the breaker because a question can provoke them, and one client must not be
	// able to switch the LLM tier off for everyone.
	c.breaker.record(true)
	intent, conf, err := parseAnswer(comp.Text, q.Pack)
	if err != nil {
		var e *Error
		if errors.As(err, &e) {
			c.stats.fail(e.Reason)
		}
		return result{ans: ans, err: err}
	}
	ans.Intent, ans.Confidence = intent, conf
	return result{ans: ans}
}
