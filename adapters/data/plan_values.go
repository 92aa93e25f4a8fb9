package data

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// planValues types a filter's value for its field and operator: one scalar, a [low, high]
// pair for between, a non-empty list for in.
func planValues(op string, f *Filter, fld *Field, path string, ps *problems) []any {
	path += ".value"
	list, isList := f.Value.([]any)
	switch op {
	case OpBetween:
		if !isList || len(list) != 2 {
			ps.add(path, "between needs an array of two values [low, high], got %s", describe(f.Value))
			return nil
		}
		vs := typedList(list, fld, path, ps)
		if len(vs) == 2 && compare(vs[0], vs[1]) > 0 {
			ps.add(path, "between needs low <= high, got [%v, %v]", vs[0], vs[1])
		}
		return vs
	case OpIn:
		if !isList || len(list) == 0 || len(list) > MaxInValues {
			ps.add(path, "in needs an array of 1 to %d values, got %s", MaxInValues, describe(f.Value))
			return nil
		}
		return typedList(list, fld, path, ps)
	}
	if isList {
		hint := ""
		if op == OpEquals {
			hint = "; to match any of several values use operator in"
		}
		ps.add(path, "%s needs a single value, got an array%s", f.Operator, hint)
		return nil
	}
	v, err := typed(f.Value, fld)
	if err != nil {
		ps.add(path, "%v", err)
		return nil
	}
	if s, ok := v.(string); ok && s == "" && (op == OpContains || op == OpStartsWith) {
		ps.add(path, "%s needs a non-empty string", f.Operator)
		return nil
	}
	return []any{v}
}

func typedList(list []any, fld *Field, path string, ps *problems) []any {
	out := make([]any, 0, len(list))
	for i, raw := range list {
		v, err := typed(raw, fld)
		if err != nil {
			ps.add(fmt.Sprintf("%s[%d]", path, i), "%v", err)
			continue
		}
		out = append(out, v)
	}
	return out
}

// typed converts one JSON value to the field's Go type. Numbers sent as numeric strings and
// string fields sent numbers are accepted, because models quote inconsistently; anything
// else is an error that says what the field expects.
func typed(raw any, fld *Field) (any, error) {
	if n, ok := raw.(json.Number); ok {
		raw = string(n)
		if f, err := n.Float64(); err == nil && fld.Type != TypeString {
			raw = f
		}
	}
	switch fld.Type {
	case TypeString:
		switch v := raw.(type) {
		case string:
			if strings.ContainsRune(v, 0) || !utf8.ValidString(v) {
				return nil, fmt.Errorf("the value for string field %s contains a NUL character or invalid UTF-8", fld.Name)
			}
			return v, nil
		case float64:
			return strconv.FormatFloat(v, 'f', -1, 64), nil
		}
		return nil, fmt.Errorf("expected a string for string field %s, got %s", fld.Name, describe(raw))
	case TypeNumber, TypeInt:
		f, ok := raw.(float64)
		if s, isStr := raw.(string); isStr {
			var err error
			f, err = strconv.ParseFloat(strings.TrimSpace(s), 64)
			ok = err == nil
		}
		if !ok || math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("expected a number for %s field %s, got %s", fld.Type, fld.Name, describe(raw))
		}
		if fld.Type == TypeNumber {
			return f, nil
		}
		if f != math.Trunc(f) || math.Abs(f) > 1<<53 {
			return nil, fmt.Errorf("expected an integer for int field %s, got %v", fld.Name, f)
		}
		return int64(f), nil
	case TypeDate:
		s, ok := raw.(string)
		if ok {
			if _, err := time.Parse(time.DateOnly, s); err == nil {
				return s, nil
			}
		}
		return nil, fmt.Errorf("expected a date YYYY-MM-DD for date field %s, got %s", fld.Name, describe(raw))
	}
	return nil, fmt.Errorf("field %s has no type", fld.Name)
}

// describe renders a JSON value for an error message.
func describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "nothing"
	case string:
		return strconv.Quote(x)
	case []any:
		return fmt.Sprintf("an array of %d", len(x))
	case map[string]any:
		return "an object"
	case bool:
		return fmt.Sprintf("%t", x)
	}
	return fmt.Sprint(v)
}

// compare orders two typed values of the same field.
func compare(a, b any) int {
	switch x := a.(type) {
	case float64:
		return cmpOrdered(x, b.(float64))
	case int64:
		return cmpOrdered(x, b.(int64))
	case string:
		return strings.Compare(x, b.(string))
	}
	return 0
}

func cmpOrdered[T int64 | float64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
