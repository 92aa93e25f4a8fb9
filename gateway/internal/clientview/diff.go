package clientview

import (
	"fmt"
	"reflect"
	"strings"
)

// diff compares two values of the same view type field by field and returns a line per
// difference, named by its path.
func diff(a, b any) string {
	var lines []string
	diffValue(&lines, "", reflect.ValueOf(a), reflect.ValueOf(b))
	return strings.Join(lines, "\n")
}

func diffValue(lines *[]string, path string, a, b reflect.Value) {
	switch a.Kind() {
	case reflect.Struct:
		for i := range a.NumField() {
			name := a.Type().Field(i).Name
			diffValue(lines, join(path, name), a.Field(i), b.Field(i))
		}
	case reflect.Slice:
		if a.Len() != b.Len() {
			*lines = append(*lines, fmt.Sprintf("%s: %d entries != %d", orTop(path), a.Len(), b.Len()))
		}
		for i := range min(a.Len(), b.Len()) {
			diffValue(lines, fmt.Sprintf("%s[%d]", path, i), a.Index(i), b.Index(i))
		}
	default:
		if !a.Equal(b) {
			*lines = append(*lines, fmt.Sprintf("%s: %#v != %#v", orTop(path), a.Interface(), b.Interface()))
		}
	}
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func orTop(path string) string {
	if path == "" {
		return "(value)"
	}
	return path
}
