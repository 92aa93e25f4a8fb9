package httpstore

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/weirgw/weir/adapters/data"
)

// decodeRows reads the rows array at the configured path and converts each object to a row
// in field order. Keys are matched by the field's column; missing keys are NULL; values of
// the wrong type are NULL too, so a malformed row cannot match a filter.
func (s *Store) decodeRows(body []byte, fields []data.Field) ([][]any, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("httpstore: response is not JSON: %w", err)
	}
	node := doc
	if s.cfg.Rows != "" {
		for _, key := range strings.Split(s.cfg.Rows, ".") {
			obj, ok := node.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("%w: %q is not an object at %s", errShape, key, s.cfg.Rows)
			}
			node = obj[key]
		}
	}
	items, ok := node.([]any)
	if !ok {
		return nil, fmt.Errorf("%w: no array at %q", errShape, s.cfg.Rows)
	}
	rows := make([][]any, 0, len(items))
	for _, it := range items {
		obj, ok := it.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%w: rows must be objects", errShape)
		}
		row := make([]any, len(fields))
		for i, f := range fields {
			row[i] = convert(obj[f.Column], f.Type)
		}
		rows = append(rows, row)
	}
	return rows, nil
}

func convert(v any, t data.FieldType) any {
	switch t {
	case data.TypeNumber, data.TypeInt:
		var f float64
		switch x := v.(type) {
		case json.Number:
			f, _ = x.Float64()
		case string:
			var err error
			if f, err = strconv.ParseFloat(x, 64); err != nil {
				return nil
			}
		default:
			return nil
		}
		if t == data.TypeInt {
			return int64(f)
		}
		return f
	case data.TypeDate:
		s, _ := v.(string)
		if ts, err := time.Parse(time.RFC3339, s); err == nil {
			return ts.Format(time.DateOnly)
		}
		if _, err := time.Parse(time.DateOnly, s); err == nil {
			return s
		}
		return nil
	}
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return x.String()
	case bool:
		return strconv.FormatBool(x)
	}
	return nil
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
