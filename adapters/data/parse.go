package data

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Keys each JSON object of a query may carry; anything else is an error, so a model learns
// that "op" is not "operator" instead of having its filter silently ignored.
var (
	queryKeys       = []string{"type", "filters", "aggregations", "orderBy", "limit", "offset", "confidence"}
	filterKeys      = []string{"field", "operator", "value", "matchStrategy", "fuzzyThreshold", "logicalOperator", "part"}
	aggregationKeys = []string{"field", "operation", "metric", "groupBy"}
)

// MaxQueryBytes caps the JSON text of one query.
const MaxQueryBytes = 64 << 10

// ParseQuery decodes a query strictly: unknown keys, wrong JSON types, trailing data and
// texts above MaxQueryBytes are *QueryError problems with the path of the offending key.
// It checks the shape only; Dataset.Plan checks the query against a schema.
func ParseQuery(b []byte) (*Query, error) {
	var ps problems
	if len(b) > MaxQueryBytes {
		ps.add("", "query is %d bytes; at most %d are accepted", len(b), MaxQueryBytes)
		return nil, ps.err()
	}
	var top map[string]json.RawMessage
	if err := decodeOne(b, &top); err != nil || top == nil {
		ps.add("", "a query must be one JSON object: %s", jsonReason(err))
		return nil, ps.err()
	}
	checkKeys(&ps, "", top, queryKeys)
	checkArray(&ps, "filters", top["filters"], filterKeys)
	checkArray(&ps, "aggregations", top["aggregations"], aggregationKeys)
	if len(ps) > 0 {
		return nil, ps.err()
	}
	var q Query
	if err := decodeOne(b, &q); err != nil {
		ps.add(jsonPath(err), "%s", jsonReason(err))
		return nil, ps.err()
	}
	return &q, nil
}

// checkArray checks that raw (if present) is an array of objects with only the given keys.
func checkArray(ps *problems, path string, raw json.RawMessage, allowed []string) {
	if len(raw) == 0 || string(raw) == "null" {
		return
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		ps.add(path, "must be an array of objects")
		return
	}
	for i, it := range items {
		p := fmt.Sprintf("%s[%d]", path, i)
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(it, &obj); err != nil || obj == nil {
			ps.add(p, "must be an object with keys %s", oneOf(allowed))
			continue
		}
		checkKeys(ps, p, obj, allowed)
	}
}

func checkKeys(ps *problems, path string, obj map[string]json.RawMessage, allowed []string) {
	for _, k := range sortedKeys(obj) {
		if !contains(allowed, k) {
			ps.add(join(path, k), "unknown key %q; allowed keys are %s", k, oneOf(allowed))
		}
	}
}

func decodeOne(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("unexpected data after the JSON object")
	}
	return nil
}

// jsonPath turns the field of a type error ("filters.fuzzyThreshold") into a query path.
func jsonPath(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return te.Field
	}
	return ""
}

func jsonReason(err error) string {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case err == nil:
		return "got null"
	case errors.As(err, &te):
		return fmt.Sprintf("expected %s, got %s", jsonTypeName(te.Type.String()), te.Value)
	case errors.As(err, &se):
		return fmt.Sprintf("invalid JSON at byte %d: %v", se.Offset, se)
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

func jsonTypeName(goType string) string {
	switch goType {
	case "string":
		return "a string"
	case "int", "*int":
		return "an integer"
	case "float64":
		return "a number"
	}
	if strings.HasPrefix(goType, "[]") {
		return "an array"
	}
	return "an object"
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}
