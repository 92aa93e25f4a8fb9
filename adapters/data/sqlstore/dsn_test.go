package sqlstore

import (
	"strings"
	"testing"
)

func TestParseDSN(t *testing.T) {
	cases := []struct {
		in      string
		want    DSN
		wantErr string
	}{
		{in: "sqlite:///abs/path/orders.db", want: DSN{Kind: SQLite, Path: "/abs/path/orders.db"}},
		{in: "sqlite:relative/path.db", want: DSN{Kind: SQLite, Path: "relative/path.db"}},
		{in: "sqlite:my%20data.db", want: DSN{Kind: SQLite, Path: "my data.db"}},
		{in: "postgres://u@localhost:5432/db?sslmode=disable", want: DSN{Kind: Postgres, URL: "postgres://u@localhost:5432/db?sslmode=disable"}},
		{in: "postgresql://u@h/db", want: DSN{Kind: Postgres, URL: "postgresql://u@h/db"}},
		{in: "sqlite://host/path.db", wantErr: "has a host"},
		{in: "sqlite:x.db?mode=rwc", wantErr: "takes no parameters"},
		{in: "sqlite:", wantErr: "needs a file path"},
		{in: "postgres:///db", wantErr: "needs a host"},
		{in: "mysql://h/db", wantErr: "unsupported DSN scheme"},
		{in: "/tmp/x.db", wantErr: "has no scheme"},
	}
	for _, tc := range cases {
		got, err := ParseDSN(tc.in)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%s: err = %v, want %q", tc.in, err, tc.wantErr)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s: %+v, %v", tc.in, got, err)
		}
	}
	if got := sqliteURI("/a b/c?.db", true); got != "file:/a%20b/c%3F.db?mode=ro&_pragma=query_only(1)&_pragma=busy_timeout(5000)" {
		t.Errorf("uri = %s", got)
	}
}
