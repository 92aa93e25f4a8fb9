package fallback

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/weirgw/weir/rules"
)

// parseAnswer reads the model's answer strictly: exactly one JSON object with exactly the
// keys "intent" (a string naming one of the pack's intents) and "confidence" (a number in
// [0, 1]), surrounded by nothing but whitespace. Anything else is a failed answer: we would
// rather apply the pack default than guess what a chatty model meant.
func parseAnswer(text string, p *rules.Pack) (string, float64, error) {
	s := strings.TrimSpace(text)
	if s == "" {
		return "", 0, fail(reasonEmpty, "the model answered nothing")
	}
	if s[0] != '{' || s[len(s)-1] != '}' {
		return "", 0, fail(reasonNotJSON, "the answer is not a bare JSON object: %s", excerpt(s))
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	fields, err := readObject(dec)
	if err != nil {
		return "", 0, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return "", 0, fail(reasonNotJSON, "text after the JSON object: %s", excerpt(s))
	}
	intent, conf, err := checkFields(fields)
	if err != nil {
		return "", 0, err
	}
	if _, ok := p.Intent(intent); !ok {
		return "", 0, fail(reasonUnknownIntent, "the model answered intent %s, which pack %s does not define", excerpt(intent), p.Name())
	}
	return intent, conf, nil
}

// readObject reads one flat JSON object of string keys to raw values, rejecting duplicate
// keys (encoding/json would silently keep the last one).
func readObject(dec *json.Decoder) (map[string]json.RawMessage, error) {
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, fail(reasonNotJSON, "invalid JSON")
	}
	fields := map[string]json.RawMessage{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, fail(reasonNotJSON, "invalid JSON: %v", err)
		}
		key, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, fail(reasonNotJSON, "invalid JSON: %v", err)
		}
		if _, dup := fields[key]; dup {
			return nil, fail(reasonInvalidField, "key %s appears twice", excerpt(key))
		}
		fields[key] = v
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('}') {
		return nil, fail(reasonNotJSON, "invalid JSON")
	}
	return fields, nil
}

// checkFields checks that exactly the two expected keys are present, with the right types.
// Keys are compared exactly ("Intent" is an extra key, not the intent).
func checkFields(fields map[string]json.RawMessage) (string, float64, error) {
	for k := range fields {
		if k != "intent" && k != "confidence" {
			return "", 0, fail(reasonExtraField, "unexpected key %s", excerpt(k))
		}
	}
	rawIntent, ok := fields["intent"]
	if !ok {
		return "", 0, fail(reasonMissingField, `the answer has no "intent"`)
	}
	rawConf, ok := fields["confidence"]
	if !ok {
		return "", 0, fail(reasonMissingField, `the answer has no "confidence"`)
	}
	var intent string
	if string(rawIntent) == "null" || json.Unmarshal(rawIntent, &intent) != nil {
		return "", 0, fail(reasonInvalidField, `"intent" is not a string`)
	}
	var conf float64
	if bytes.HasPrefix(rawConf, []byte(`"`)) || string(rawConf) == "null" || json.Unmarshal(rawConf, &conf) != nil {
		return "", 0, fail(reasonInvalidField, `"confidence" is not a number`)
	}
	if math.IsNaN(conf) || conf < 0 || conf > 1 {
		return "", 0, fail(reasonInvalidField, `"confidence" %v is outside [0, 1]`, conf)
	}
	return intent, conf, nil
}

func fail(reason, format string, args ...any) error {
	return &Error{Reason: reason, Err: fmt.Errorf(format, args...)}
}

// excerpt keeps model text in errors short: errors end up in results and logs.
func excerpt(s string) string {
	const n = 80
	if len(s) <= n {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprintf("%q…", strings.ToValidUTF8(s[:n], ""))
}
