package fallback

import (
	"errors"
	"testing"
)

func TestParseAnswer(t *testing.T) {
	p := loadMini(t)
	tests := []struct {
		name, text string
		intent     string
		conf       float64
		reason     string // "" when the answer is valid
	}{
		{"valid", `{"intent": "simple", "confidence": 0.8}`, "simple", 0.8, ""},
		{"valid, keys swapped, whitespace", " \n{\"confidence\":1,\"intent\":\"hybrid\"}\n", "hybrid", 1, ""},
		{"valid zero", `{"intent":"complex","confidence":0}`, "complex", 0, ""},
		{"empty", "", "", 0, reasonEmpty},
		{"blank", "  \n ", "", 0, reasonEmpty},
		{"prose before", `Sure! {"intent":"simple","confidence":0.9}`, "", 0, reasonNotJSON},
		{"prose after", `{"intent":"simple","confidence":0.9} I hope this helps`, "", 0, reasonNotJSON},
		{"code fence", "```json\n{\"intent\":\"simple\",\"confidence\":0.9}\n```", "", 0, reasonNotJSON},
		{"two objects", `{"intent":"simple","confidence":0.9}{"intent":"complex","confidence":0.9}`, "", 0, reasonNotJSON},
		{"array", `[{"intent":"simple","confidence":0.9}]`, "", 0, reasonNotJSON},
		{"truncated", `{"intent":"simple","confidence":0.`, "", 0, reasonNotJSON},
		{"not json inside braces", `{intent: simple}`, "", 0, reasonNotJSON},
		{"unknown intent", `{"intent":"admin","confidence":0.99}`, "", 0, reasonUnknownIntent},
		{"intent case differs", `{"intent":"Simple","confidence":0.9}`, "", 0, reasonUnknownIntent},
		{"missing confidence", `{"intent":"simple"}`, "", 0, reasonMissingField},
		{"missing intent", `{"confidence":0.9}`, "", 0, reasonMissingField},
		{"extra key", `{"intent":"simple","confidence":0.9,"reason":"because"}`, "", 0, reasonExtraField},
		{"key case differs", `{"Intent":"simple","confidence":0.9}`, "", 0, reasonExtraField},
		{"duplicate intent", `{"intent":"simple","intent":"complex","confidence":0.9}`, "", 0, reasonInvalidField},
		{"confidence above 1", `{"intent":"simple","confidence":1.5}`, "", 0, reasonInvalidField},
		{"confidence negative", `{"intent":"simple","confidence":-0.1}`, "", 0, reasonInvalidField},
		{"confidence as string", `{"intent":"simple","confidence":"0.9"}`, "", 0, reasonInvalidField},
		{"confidence null", `{"intent":"simple","confidence":null}`, "", 0, reasonInvalidField},
		{"intent not a string", `{"intent":["simple"],"confidence":0.9}`, "", 0, reasonInvalidField},
		{"nested object", `{"intent":{"name":"simple"},"confidence":0.9}`, "", 0, reasonInvalidField},
		{"intent null", `{"intent":null,"confidence":0.9}`, "", 0, reasonInvalidField},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			intent, conf, err := parseAnswer(tc.text, p)
			if tc.reason == "" {
				if err != nil || intent != tc.intent || conf != tc.conf {
					t.Fatalf("got %q %v %v, want %q %v", intent, conf, err, tc.intent, tc.conf)
				}
				return
			}
			var e *Error
			if !errors.As(err, &e) || e.Reason != tc.reason {
				t.Fatalf("got %q %v err=%v, want reason %s", intent, conf, err, tc.reason)
			}
		})
	}
}
