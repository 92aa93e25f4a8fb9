package audit

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestSubjectDecodesBothForms(t *testing.T) {
	tests := []struct {
		name, in string
		want     Subject
	}{
		{"old string", `{"subject":"alice"}`, Subject{ID: "alice"}},
		{"absent", `{}`, Subject{}},
		{"null", `{"subject":null}`, Subject{}},
		{"object", `{"subject":{"id":"svc","roles":["analyst"],"tenant":"t1","auth_method":"jwt"}}`,
			Subject{ID: "svc", Roles: []string{"analyst"}, Tenant: "t1", AuthMethod: "jwt"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var r Record
			if err := json.Unmarshal([]byte(tc.in), &r); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(r.Subject, tc.want) {
				t.Fatalf("subject = %+v, want %+v", r.Subject, tc.want)
			}
		})
	}
	var r Record
	if err := json.Unmarshal([]byte(`{"subject":7}`), &r); err == nil {
		t.Fatal("a number was accepted as a subject")
	}
}

func TestSubjectOmittedWhenUnknown(t *testing.T) {
	b, err := json.Marshal(&Record{})
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	if _, ok := m["subject"]; ok {
		t.Fatalf("an unknown subject is written: %s", b)
	}
}
