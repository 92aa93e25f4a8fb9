package data

import (
	"strings"
	"testing"
)

func TestCSVInferAndBadRows(t *testing.T) {
	in := "id,price,qty,day,name\n1,2.5,3,2025-01-01,a\n2,x,4,2025-01-02,b\n3,1,2.5,2025-01-03,c\n4,1,2\n5,,1,2025-13-01,e\n"
	c, err := ReadCSV(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	fields := InferFields(c)
	var types []string
	for _, f := range fields {
		types = append(types, string(f.Type))
	}
	if got := strings.Join(types, ","); got != "int,string,number,string,string" {
		t.Errorf("inferred %s", got)
	}
	fields[1].Type, fields[2].Type, fields[3].Type = TypeNumber, TypeInt, TypeDate
	rows, bad, err := ConvertCSV(c, fields)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range bad {
		got = append(got, b.String())
	}
	want := `line 3: price: "x" is not a valid number|line 4: qty: "2.5" is not a valid int|line 5: 3 values, the header has 5|line 6: day: "2025-13-01" is not a valid date`
	if strings.Join(got, "|") != want || len(rows) != 1 {
		t.Errorf("bad rows:\n%s\nwant\n%s\n(%d good)", strings.Join(got, "|"), want, len(rows))
	}
}
