package limits

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// Redis keeps the buckets in Redis, shared by every replica that names the same server and
// prefix. Each operation is one Lua script, so checking and spending several buckets is
// atomic on the server (no read-modify-write race between replicas), and time is the
// server's (TIME), so replicas with skewed clocks agree. Keys expire when their budget is
// full again.
type Redis struct {
	client *redis.Client
	prefix string
}

// NewRedis connects to a redis:// or rediss:// URL; timeout bounds every exchange.
func NewRedis(url, prefix string, timeout time.Duration) (*Redis, error) {
	opt, err := redis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("limits.redis: the URL does not parse (value withheld)")
	}
	opt.DialTimeout, opt.ReadTimeout, opt.WriteTimeout = timeout, timeout, timeout
	opt.MaxRetries = -1 // a retry would double the wait; on_store_error decides instead
	opt.DisableIdentity = true
	return &Redis{client: redis.NewClient(opt), prefix: prefix}, nil
}

// takeScript is Take in Lua: KEYS are the buckets, ARGV holds per bucket its interval (µs
// per unit, a float) and its cost. The arithmetic is take's (limits.go), in µs.
var takeScript = redis.NewScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local window = 60000000
local wait, which = 0, -1
local next = {}
for i, key in ipairs(KEYS) do
  local tat = tonumber(redis.call('GET', key) or '0')
  if tat < now then tat = now end
  next[i] = tat + tonumber(ARGV[2*i]) * tonumber(ARGV[2*i-1])
  local over = next[i] - now - window
  if over > wait then wait, which = over, i - 1 end
end
if wait > 0 then return {math.ceil(wait), which} end
for i, key in ipairs(KEYS) do
  if tonumber(ARGV[2*i]) > 0 then
    redis.call('SET', key, string.format('%.0f', next[i]), 'PX', math.ceil((next[i] - now) / 1000) + 1000)
  end
end
return {0, -1}
`)

// chargeScript is Charge in Lua: ARGV holds per bucket the µs to add.
var chargeScript = redis.NewScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
for i, key in ipairs(KEYS) do
  local tat = tonumber(redis.call('GET', key) or '0')
  if tat < now then tat = now end
  tat = tat + tonumber(ARGV[i])
  redis.call('SET', key, string.format('%.0f', tat), 'PX', math.ceil((tat - now) / 1000) + 1000)
end
return 0
`)

func (r *Redis) keys(bs []Bucket) []string {
	keys := make([]string, len(bs))
	for i, b := range bs {
		keys[i] = r.prefix + b.Key
	}
	return keys
}

// usPerUnit is a bucket's interval in µs, as the scripts read it.
func usPerUnit(b Bucket) string {
	return strconv.FormatFloat(b.interval()/float64(time.Microsecond), 'f', -1, 64)
}

// Take implements Store.
func (r *Redis) Take(ctx context.Context, bs []Bucket) (time.Duration, int, error) {
	args := make([]any, 0, 2*len(bs))
	for _, b := range bs {
		args = append(args, usPerUnit(b), b.Cost)
	}
	res, err := takeScript.Run(ctx, r.client, r.keys(bs), args...).Int64Slice()
	if err != nil {
		return 0, -1, err
	}
	if len(res) != 2 {
		return 0, -1, fmt.Errorf("limits: unexpected script answer")
	}
	return time.Duration(res[0]) * time.Microsecond, int(res[1]), nil
}

// Charge implements Store.
func (r *Redis) Charge(ctx context.Context, bs []Bucket, n int64) error {
	args := make([]any, len(bs))
	for i, b := range bs {
		args[i] = strconv.FormatFloat(float64(n)*b.interval()/float64(time.Microsecond), 'f', 0, 64)
	}
	return chargeScript.Run(ctx, r.client, r.keys(bs), args...).Err()
}

// Close implements Store.
func (r *Redis) Close() error { return r.client.Close() }
