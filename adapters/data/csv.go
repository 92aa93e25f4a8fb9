package data

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
)

// CSV is a parsed CSV file: its header and its records with their line numbers.
type CSV struct {
	Header  []string
	Records []CSVRecord
}

// CSVRecord is one data record and the line it starts on.
type CSVRecord struct {
	Line   int
	Values []string
}

// BadRow is a CSV record that could not be converted, with the reason.
type BadRow struct {
	Line    int
	Message string
}

// String formats the problem as "line N: message".
func (b BadRow) String() string { return fmt.Sprintf("line %d: %s", b.Line, b.Message) }

// ReadCSV reads a CSV file with a header line. Records with the wrong number of values are
// kept (and reported by ConvertCSV), so one bad line does not hide the others.
func ReadCSV(r io.Reader) (*CSV, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	header, err := cr.Read()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("csv: the file is empty; a header line is required")
		}
		return nil, fmt.Errorf("csv: %w", err)
	}
	for i, h := range header {
		header[i] = strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))
		if !ValidIdent(header[i]) {
			return nil, fmt.Errorf("csv: line 1: column %d %q must be a plain identifier (letters, digits, _)", i+1, h)
		}
	}
	out := &CSV{Header: header}
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("csv: %w", err)
		}
		line, _ := cr.FieldPos(0)
		out.Records = append(out.Records, CSVRecord{Line: line, Values: rec})
	}
}

// InferFields guesses the field types of a CSV from its values: int when every non-empty
// value is an integer, number when every one is a number, date when every one is
// YYYY-MM-DD, string otherwise.
func InferFields(c *CSV) []Field {
	fields := make([]Field, len(c.Header))
	for i, h := range c.Header {
		fields[i] = Field{Name: h, Column: h, Type: inferType(c, i)}
	}
	return fields
}

func inferType(c *CSV, col int) FieldType {
	isInt, isNum, isDate, any := true, true, true, false
	for _, r := range c.Records {
		if col >= len(r.Values) {
			continue
		}
		v := strings.TrimSpace(r.Values[col])
		if v == "" {
			continue
		}
		any = true
		if _, err := strconv.ParseInt(v, 10, 64); err != nil {
			isInt = false
		}
		if _, err := strconv.ParseFloat(v, 64); err != nil {
			isNum = false
		}
		if _, err := time.Parse(time.DateOnly, v); err != nil {
			isDate = false
		}
	}
	switch {
	case !any:
		return TypeString
	case isInt:
		return TypeInt
	case isNum:
		return TypeNumber
	case isDate:
		return TypeDate
	}
	return TypeString
}

// ConvertCSV converts the records to typed rows in the order of fields, matching CSV columns
// to fields by name (or column). It returns the good rows and every bad row with its line.
// A CSV that lacks a field's column, or has a column no field declares, is an error.
func ConvertCSV(c *CSV, fields []Field) ([][]any, []BadRow, error) {
	idx := make([]int, len(fields))
	used := map[int]bool{}
	for i, f := range fields {
		idx[i] = indexOf(c.Header, f.Name)
		if idx[i] < 0 && f.Column != "" {
			idx[i] = indexOf(c.Header, f.Column)
		}
		if idx[i] < 0 {
			return nil, nil, fmt.Errorf("csv: no column for field %s; the header has %s", f.Name, strings.Join(c.Header, ", "))
		}
		used[idx[i]] = true
	}
	for i, h := range c.Header {
		if !used[i] {
			return nil, nil, fmt.Errorf("csv: column %s is not a field of the schema", h)
		}
	}
	var rows [][]any
	var bad []BadRow
	for _, r := range c.Records {
		if len(r.Values) != len(c.Header) {
			bad = append(bad, BadRow{r.Line, fmt.Sprintf("%d values, the header has %d", len(r.Values), len(c.Header))})
			continue
		}
		row, err := convertRecord(r.Values, fields, idx)
		if err != nil {
			bad = append(bad, BadRow{r.Line, err.Error()})
			continue
		}
		rows = append(rows, row)
	}
	return rows, bad, nil
}

func convertRecord(vals []string, fields []Field, idx []int) ([]any, error) {
	row := make([]any, len(fields))
	for i, f := range fields {
		raw := strings.TrimSpace(vals[idx[i]])
		if raw == "" && f.Type != TypeString {
			continue // NULL
		}
		if f.Type == TypeString {
			row[i] = vals[idx[i]]
			continue
		}
		v, err := typed(raw, &f)
		if err != nil {
			return nil, fmt.Errorf("%s: %q is not a valid %s", f.Name, raw, f.Type)
		}
		row[i] = v
	}
	return row, nil
}

// ReadCSVFile reads the CSV file at path and converts its rows to fields (see ConvertCSV).
func ReadCSVFile(path string, fields []Field) ([][]any, []BadRow, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	c, err := ReadCSV(f)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	rows, bad, err := ConvertCSV(c, fields)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return rows, bad, nil
}
