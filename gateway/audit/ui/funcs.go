package ui

import (
	"bytes"
	"encoding/json"
	"html/template"
	"time"
)

func funcs(prefix string) template.FuncMap {
	return template.FuncMap{
		"prefix": func() string { return prefix },
		"when":   func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05") },
		"whenNs": func(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) },
		"pretty": prettyJSON,
		"deref":  func(p *int) int { return *p },
		"px":     func(f float64) string { return formatFloat(f) },
	}
}

// prettyJSON indents recorded JSON (tool arguments) for reading; as recorded when it is
// not JSON.
func prettyJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Indent(&b, raw, "", "  ") != nil {
		return string(raw)
	}
	return b.String()
}

func formatFloat(f float64) string {
	b, _ := json.Marshal(float64(int(f*10)) / 10)
	return string(b)
}
