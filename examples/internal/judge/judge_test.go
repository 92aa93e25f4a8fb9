package judge

import (
	"encoding/json"
	"testing"
)

func question(kind, expected, unit string) Question {
	return Question{Query: "q", Kind: kind, Expected: json.RawMessage(expected), Unit: unit}
}

// TestJudge: the classes an answer falls into, read from the values it presents.
func TestJudge(t *testing.T) {
	cases := []struct {
		name   string
		q      Question
		status int
		body   string
		want   string
	}{
		{"scalar exact at two decimals", question("scalar", "23.33", "EUR"), 200, `{"answer":"x","result":{"shape":"scalar","value":23.3333}}`, Exact},
		{"scalar wrong", question("scalar", "941", "orders"), 200, `{"answer":"x","result":{"shape":"scalar","value":940}}`, Wrong},
		{"a value on the rounding boundary", question("scalar", "1.03", "USD"), 200, `{"answer":"x","result":{"shape":"scalar","value":1.025}}`, Exact},
		{"a value a cent off", question("scalar", "1.03", "USD"), 200, `{"answer":"x","result":{"shape":"scalar","value":1.019}}`, Wrong},
		{"a percentage the set wrote with one decimal", question("scalar", "42.9", "%"), 200, `{"answer":"x","result":{"shape":"scalar","value":42.86}}`, Exact},
		{"a percentage a tenth off", question("scalar", "42.9", "%"), 200, `{"answer":"x","result":{"shape":"scalar","value":42.84}}`, Wrong},
		{"a percentage the set wrote with two decimals", question("scalar", "42.90", "%"), 200, `{"answer":"x","result":{"shape":"scalar","value":42.86}}`, Wrong},
		{"money with one decimal keeps the cent", question("scalar", "4408.0", "EUR"), 200, `{"answer":"x","result":{"shape":"scalar","value":4408.04}}`, Wrong},
		{"percentages by group at one decimal", question("groups", `{"A":83.3,"B":91.7}`, "%"), 200, `{"answer":"x","result":{"shape":"groups","groups":[["A",83.33],["B",91.67]]}}`, Exact},
		{"a listing's size is a count", question("scalar", "12", "findings"), 200, `{"answer":"x","rows":[{"id":"a"}],"result":{"shape":"rows","count":12}}`, Exact},
		{"rows where a sum is asked present no value", question("scalar", "100.5", "EUR"), 200, `{"answer":"x","rows":[{"id":"a"}],"result":{"shape":"rows","count":3}}`, Other},
		{"a refusal", question("scalar", "1", "orders"), 200, `{"answer":"cannot answer from the data: x","result":{"shape":"none"}}`, Refused},
		{"a refusal where one is right", question("refuse", "null", ""), 200, `{"answer":"cannot answer from the data: x"}`, Exact},
		{"an error status is a refusal", question("refuse", "null", ""), 403, `{}`, Exact},
		{"a number where a refusal is right", question("refuse", "null", ""), 200, `{"answer":"x","result":{"shape":"scalar","value":3}}`, Wrong},
		{"groups", question("groups", `{"A":1,"B":2}`, "x"), 200, `{"answer":"x","result":{"shape":"groups","groups":[["a",1],["b",2]]}}`, Exact},
		{"a half-year written either way", question("compare", `{"H1 2024":31,"H2 2024":27}`, "x"), 200, `{"answer":"x","result":{"shape":"groups","groups":[["2024-H1",31],["2024-H2",27]]}}`, Exact},
		{"quarters of the year the question names", question("groups", `{"Q1":4,"Q2":5}`, "x"), 200, `{"answer":"x","result":{"shape":"groups","groups":[["2024-Q1",4],["2024-Q2",5]]}}`, Exact},
		{"quarters of two years are not the year's", question("groups", `{"Q1":4,"Q2":5}`, "x"), 200, `{"answer":"x","result":{"shape":"groups","groups":[["2023-Q1",4],["2024-Q2",5]]}}`, Wrong},
		{"the data's one-letter codes", question("compare", `{"Female":19,"Male":17}`, "patients"), 200, `{"answer":"x","result":{"shape":"groups","groups":[["M",17],["F",19]]}}`, Exact},
		{"the data's codes with a wrong value", question("compare", `{"Female":19,"Male":17}`, "patients"), 200, `{"answer":"x","result":{"shape":"groups","groups":[["M",19],["F",17]]}}`, Wrong},
		{"months named in the expected labels", question("compare", `{"January":4408,"February":4397}`, "EUR"), 200, `{"answer":"x","result":{"shape":"groups","groups":[["2025-01",4408],["2025-02",4397]]}}`, Exact},
		{"the top row of a ranking of one", question("ranking", `[["DEC-1",11722300.0]]`, "USD"), 200, `{"answer":"x","rows":[{"declarationNumber":"DEC-1","totalValueUSD":11722300}],"result":{"shape":"rows","count":1}}`, Exact},
		{"another row than the top one", question("ranking", `[["DEC-1",11722300.0]]`, "USD"), 200, `{"answer":"x","rows":[{"declarationNumber":"DEC-2","totalValueUSD":11722300}],"result":{"shape":"rows","count":1}}`, Wrong},
		{"a group with no rows is not presented", question("groups", `{"2022":2,"2023":0,"2024":1}`, "findings"), 200, `{"answer":"x","result":{"shape":"groups","groups":[["2022",2],["2024",1]]}}`, Exact},
		{"a missing group with rows", question("groups", `{"2022":2,"2023":1}`, "findings"), 200, `{"answer":"x","result":{"shape":"groups","groups":[["2022",2]]}}`, Other},
		{"another group in place of one with no rows", question("groups", `{"2022":2,"2023":0}`, "findings"), 200, `{"answer":"x","result":{"shape":"groups","groups":[["2022",2],["2024",1]]}}`, Other},
		{"weekdays named in Italian", question("groups", `{"lunedì":132,"domenica":117}`, "orders"), 200, `{"answer":"x","result":{"shape":"groups","groups":[["Sunday",117],["Monday",132]]}}`, Exact},
		{"a ranked quarter of the year asked", question("ranking", `[["Q3",6]]`, "findings"), 200, `{"answer":"x","result":{"shape":"groups","groups":[["2022-Q3",6]]}}`, Exact},
		{"a ranked quarter of another", question("ranking", `[["Q3",6]]`, "findings"), 200, `{"answer":"x","result":{"shape":"groups","groups":[["2022-Q2",6]]}}`, Wrong},
		{"groups with a wrong value", question("groups", `{"A":1,"B":2}`, "x"), 200, `{"answer":"x","result":{"shape":"groups","groups":[["A",1],["B",3]]}}`, Wrong},
		{"ranking out of order", question("ranking", `[["A",2],["B",1]]`, "x"), 200, `{"answer":"x","result":{"shape":"groups","groups":[["B",1],["A",2]]}}`, Wrong},
		{"ranking with the tie at the cut", question("ranking", `[["A",2]]`, "x"), 200, `{"answer":"x","result":{"shape":"groups","groups":[["A",2],["B",2]]}}`, Exact},
		{"rows by a composite key", question("rows", `["S1/1","S1/2"]`, "events"), 200, `{"answer":"x","rows":[{"USUBJID":"S1","AESEQ":1},{"USUBJID":"S1","AESEQ":2}],"result":{"shape":"rows","count":2}}`, Exact},
		{"rows ranked by a value", question("rows", `["P3","P1"]`, "patients"), 200, `{"answer":"x","result":{"shape":"groups","groups":[["P1",164],["P3",161]]}}`, Exact},
		{"ranked rows that are not the rows asked", question("rows", `["P3","P1"]`, "patients"), 200, `{"answer":"x","result":{"shape":"groups","groups":[["P1",164],["P2",161]]}}`, Wrong},
		{"passages of the documents are no value", question("refuse", "null", ""), 200, `{"answer":"From the study documents: \"fewer than 7 hours\"","passages":[{"file":"docs/protocol.pdf","page":4}]}`, Other},
		{"passages where a value is asked", question("scalar", "7", "events"), 200, `{"answer":"From the study documents: \"7 events\"","passages":[{"file":"docs/protocol.pdf","page":4}]}`, Other},
		{"a number in a text answer", question("scalar", "57", "events"), 200, `{"answer":"57 adverse events are recorded in ADAE."}`, Exact},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Judge(c.q, c.status, []byte(c.body)); got.Class != c.want {
				t.Fatalf("%s (%s), want %s", got.Class, got.Detail, c.want)
			}
		})
	}
}
