package data

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// ExprKind is the kind of a metric expression node.
type ExprKind int

// Expression node kinds.
const (
	ExprNumber ExprKind = iota // a number literal (Value)
	ExprColumn                 // a field inside an aggregate (Field)
	ExprAgg                    // an aggregate call: Func over Left, or count(*) (Star)
	ExprBinary                 // Left Op Right, Op one of + - * /
	ExprNeg                    // -Left

	exprRef ExprKind = -1 // a metric reference, inlined by Compile
)

// Expr is a compiled metric expression. Metric references are inlined at compile time, so a
// compiled Expr holds only numbers, arithmetic and aggregates over columns: there is no way
// for a schema to put raw SQL into a query.
type Expr struct {
	Kind  ExprKind
	Op    byte    // ExprBinary: + - * /
	Func  string  // ExprAgg: sum, avg, min, max, count
	Value float64 // ExprNumber
	Field *Field  // ExprColumn
	Star  bool    // ExprAgg: count(*)
	Left  *Expr
	Right *Expr
	ref   string // a metric reference before inlining
}

// aggFuncs are the functions a metric expression may call.
var aggFuncs = []string{"sum", "avg", "min", "max", "count", "count_distinct"}

// exprParser is a recursive-descent parser for
//
//	expr   = term { ("+" | "-") term }
//	term   = factor { ("*" | "/") factor }
//	factor = number | name | func "(" ( "*" | expr ) ")" | "(" expr ")" | "-" factor
//
// Inside an aggregate a name is a field; outside it is a metric reference.
type exprParser struct {
	src    string
	pos    int
	inAgg  bool
	schema *Schema
}

// parseExpr parses a metric expression; references stay unresolved (Expr.ref).
func parseExpr(src string, s *Schema) (*Expr, error) {
	p := &exprParser{src: src, schema: s}
	e, err := p.expr()
	if err != nil {
		return nil, err
	}
	if p.skip(); p.pos < len(p.src) {
		return nil, fmt.Errorf("unexpected %q at column %d", p.src[p.pos:], p.pos+1)
	}
	return e, nil
}

func (p *exprParser) skip() {
	for p.pos < len(p.src) && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t') {
		p.pos++
	}
}

func (p *exprParser) peek() byte {
	if p.skip(); p.pos < len(p.src) {
		return p.src[p.pos]
	}
	return 0
}

func (p *exprParser) expr() (*Expr, error) {
	l, err := p.term()
	for err == nil && (p.peek() == '+' || p.peek() == '-') {
		op := p.src[p.pos]
		p.pos++
		var r *Expr
		if r, err = p.term(); err == nil {
			l = &Expr{Kind: ExprBinary, Op: op, Left: l, Right: r}
		}
	}
	return l, err
}

func (p *exprParser) term() (*Expr, error) {
	l, err := p.factor()
	for err == nil && (p.peek() == '*' || p.peek() == '/') {
		op := p.src[p.pos]
		p.pos++
		var r *Expr
		if r, err = p.factor(); err == nil {
			l = &Expr{Kind: ExprBinary, Op: op, Left: l, Right: r}
		}
	}
	return l, err
}

func (p *exprParser) factor() (*Expr, error) {
	c := p.peek()
	switch {
	case c == 0:
		return nil, fmt.Errorf("unexpected end of expression")
	case c == '-':
		p.pos++
		e, err := p.factor()
		return &Expr{Kind: ExprNeg, Left: e}, err
	case c == '(':
		p.pos++
		e, err := p.expr()
		if err == nil && p.peek() != ')' {
			return nil, fmt.Errorf("missing ) at column %d", p.pos+1)
		}
		p.pos++
		return e, err
	case c == '.' || (c >= '0' && c <= '9'):
		return p.number()
	case c == '_' || unicode.IsLetter(rune(c)):
		return p.name()
	}
	return nil, fmt.Errorf("unexpected %q at column %d", c, p.pos+1)
}

func (p *exprParser) number() (*Expr, error) {
	start := p.pos
	for p.pos < len(p.src) && (p.src[p.pos] == '.' || (p.src[p.pos] >= '0' && p.src[p.pos] <= '9')) {
		p.pos++
	}
	v, err := strconv.ParseFloat(p.src[start:p.pos], 64)
	if err != nil {
		return nil, fmt.Errorf("invalid number %q", p.src[start:p.pos])
	}
	return &Expr{Kind: ExprNumber, Value: v}, nil
}

func (p *exprParser) name() (*Expr, error) {
	start := p.pos
	for p.pos < len(p.src) && (p.src[p.pos] == '_' || unicode.IsLetter(rune(p.src[p.pos])) || unicode.IsDigit(rune(p.src[p.pos]))) {
		p.pos++
	}
	name := p.src[start:p.pos]
	if p.peek() == '(' {
		return p.call(strings.ToLower(name))
	}
	if !p.inAgg {
		return &Expr{Kind: exprRef, ref: name}, nil
	}
	f, ok := p.schema.Field(name)
	if !ok {
		return nil, fmt.Errorf("unknown field %q; fields are %s", name, oneOf(p.schema.FieldNames()))
	}
	return &Expr{Kind: ExprColumn, Field: f}, nil
}

func (p *exprParser) call(fn string) (*Expr, error) {
	if !contains(aggFuncs, fn) {
		return nil, fmt.Errorf("unknown function %q; functions are %s", fn, oneOf(aggFuncs))
	}
	if p.inAgg {
		return nil, fmt.Errorf("aggregate %s inside another aggregate", fn)
	}
	p.pos++ // (
	e := &Expr{Kind: ExprAgg, Func: fn}
	if fn == "count" && (p.peek() == '*' || p.peek() == ')') {
		e.Star = true
		if p.peek() == '*' {
			p.pos++
		}
	} else {
		p.inAgg = true
		arg, err := p.expr()
		p.inAgg = false
		if err != nil {
			return nil, err
		}
		if err := checkAggArg(fn, arg); err != nil {
			return nil, err
		}
		e.Left = arg
	}
	if p.peek() != ')' {
		return nil, fmt.Errorf("missing ) after %s( at column %d", fn, p.pos+1)
	}
	p.pos++
	return e, nil
}

// checkAggArg requires numeric columns inside sum/avg/min/max and inside arithmetic.
func checkAggArg(fn string, arg *Expr) error {
	if (fn == "count" || fn == "count_distinct") && arg.Kind == ExprColumn {
		return nil
	}
	if fn == "count_distinct" {
		return fmt.Errorf("count_distinct takes a field, not an expression")
	}
	var err error
	walkExpr(arg, func(x *Expr) {
		if x.Kind == ExprColumn && !x.Field.Type.Numeric() && err == nil {
			err = fmt.Errorf("%s over %s field %s: only number and int fields can be computed with", fn, x.Field.Type, x.Field.Name)
		}
	})
	return err
}

func walkExpr(e *Expr, fn func(*Expr)) {
	if e == nil {
		return
	}
	fn(e)
	walkExpr(e.Left, fn)
	walkExpr(e.Right, fn)
}

// String renders the expression in the metric language, for messages and docs.
func (e *Expr) String() string {
	switch e.Kind {
	case ExprNumber:
		return strconv.FormatFloat(e.Value, 'f', -1, 64)
	case ExprColumn:
		return e.Field.Name
	case ExprAgg:
		if e.Star {
			return e.Func + "(*)"
		}
		return e.Func + "(" + e.Left.String() + ")"
	case ExprBinary:
		return "(" + e.Left.String() + " " + string(e.Op) + " " + e.Right.String() + ")"
	case ExprNeg:
		return "-" + e.Left.String()
	}
	return e.ref
}
