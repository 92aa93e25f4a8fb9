package sqlstore

import "github.com/weirgw/weir/adapters/data"

var _ data.Explainer = (*Store)(nil)

// Explain returns the SQL and parameters Run sends for a plan, without running it. On
// PostgreSQL a fuzzy predicate shows as its candidate list, which Run computes first.
func (s *Store) Explain(p *data.Plan) (string, []any) {
	st := (&builder{d: s.d, fuzzy: map[*data.Pred][]string{}}).build(p, min(p.Limit, s.opts.MaxRows))
	return st.sql, st.args
}
