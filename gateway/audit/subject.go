package audit

import (
	"bytes"
	"encoding/json"
)

// UnmarshalJSON reads a subject object, or the plain string older records carry (their
// subject was the request's user field), as a subject with that id.
func (s *Subject) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case bytes.Equal(b, []byte("null")):
		*s = Subject{}
		return nil
	case len(b) > 0 && b[0] == '"':
		*s = Subject{}
		return json.Unmarshal(b, &s.ID)
	}
	type plain Subject // without this method
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*s = Subject(p)
	return nil
}

// IsZero reports whether the subject is unknown; such a record has no subject member.
func (s Subject) IsZero() bool {
	return s.ID == "" && s.Roles == nil && s.Tenant == "" && s.AuthMethod == ""
}
