package sqlstore

import (
	"strconv"
	"time"

	"github.com/weirgw/weir/adapters/data"
)

// kind is the Go type a result column is delivered as.
type kind int

const (
	kindText kind = iota
	kindFloat
	kindInt
	kindDate
)

// columnKinds returns the delivery type of each result column of a plan.
func columnKinds(p *data.Plan) []kind {
	var ks []kind
	if len(p.Aggs) == 0 {
		for _, f := range p.Dataset.Schema().Fields {
			ks = append(ks, fieldKind(f.Type))
		}
		return ks
	}
	if g := p.Group; g != nil {
		switch g.Part {
		case data.GroupMonth, data.GroupDay, data.GroupQuarter:
			ks = append(ks, kindText)
		case data.GroupYear, data.GroupWeekday:
			ks = append(ks, kindInt)
		default:
			ks = append(ks, fieldKind(g.Field.Type))
		}
	}
	for _, a := range p.Aggs {
		switch {
		case a.Metric != nil && isIntExpr(a.Metric), a.Op == data.AggCount, a.Op == data.AggCountDistinct:
			ks = append(ks, kindInt)
		case a.Metric != nil, a.Op == data.AggAverage:
			ks = append(ks, kindFloat)
		default:
			ks = append(ks, fieldKind(a.Field.Type))
		}
	}
	return ks
}

func fieldKind(t data.FieldType) kind {
	switch t {
	case data.TypeNumber:
		return kindFloat
	case data.TypeInt:
		return kindInt
	case data.TypeDate:
		return kindDate
	}
	return kindText
}

// normalize turns a driver value into the column's Go type, so that both engines deliver
// the same JSON: dates as YYYY-MM-DD strings, ints as int64, numbers as float64.
func normalize(v any, k kind) any {
	switch x := v.(type) {
	case nil:
		return nil
	case []byte:
		v = string(x)
	case time.Time:
		return x.Format(time.DateOnly)
	}
	switch k {
	case kindFloat:
		switch x := v.(type) {
		case int64:
			return float64(x)
		case string:
			if f, err := strconv.ParseFloat(x, 64); err == nil {
				return f
			}
		}
	case kindInt:
		switch x := v.(type) {
		case float64:
			return int64(x)
		case string:
			if n, err := strconv.ParseInt(x, 10, 64); err == nil {
				return n
			}
		}
	case kindText, kindDate:
		switch x := v.(type) {
		case int64:
			return strconv.FormatInt(x, 10)
		case float64:
			return strconv.FormatFloat(x, 'f', -1, 64)
		}
	}
	return v
}
