package rules

import (
	"reflect"
	"regexp"
	"strings"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/vm"
	"github.com/expr-lang/expr/vm/runtime"
)

// A `when` or `decide` expression normally runs in expr's virtual machine over a map
// environment, which costs a map write per extractor, a map read per name and a regex run per
// `text matches "..."` on every question. The expressions packs write use a small part of the
// language: matched("id"), `field != nil`, `len(list) > 0`, `words <= 7`, `text matches "re"`,
// && || ! and a few integer sums. compileConds turns an expression made only of those into Go
// closures that read the question's state straight from the scratch, and registers each
// `matches` regex as a pattern of the pack, so the prefilter decides it with the rules'
// patterns (most never run) and a question runs it at most once.
//
// The closures compute exactly what the VM computes: every supported node is total in the
// environment the classifier builds (matched returns a bool, a list extractor's value is
// always a []any, of strings for an alias or string pattern list, so any(list, {lower(#) in
// set}) reads strings; `==` and `!=` call the VM's own runtime.Equal; integers are Go ints),
// so no supported expression can fail at run time, where the VM would count an error as
// false. Anything else (other names, operators and builtins, floats) keeps the VM. The plain
// path (withoutPrefilter) always runs the VM, and TestPrefilterChangesNothing and
// TestCondMatchesVM compare the two.

// condBool and condInt are compiled expression nodes of type bool and int.
type (
	condBool func(s *scratch) bool
	condInt  func(s *scratch) int
)

// condPattern is a `matches` regex of the expressions, registered as a pattern of the pack.
type condPattern struct {
	id         int // index into Pack.condPatterns, and into the scratch's memo of verdicts
	re         *regexp.Regexp
	onOriginal bool
	patternIdx int // index into Pack.patterns, or -1
	origIdx    int // index into Pack.origPatterns, or -1
}

// condCompiler compiles one pack's expressions; patterns dedupes the `matches` regexes by
// source and text.
type condCompiler struct {
	p        *Pack
	keys     map[string]int // extractor key -> index into p.extractors
	patterns map[string]int // "t"/"o" + source -> index into p.condPatterns
	// pending are the regexes of the expression being compiled, registered only when the
	// whole expression compiles.
	pending []*condPattern
}

// compileConds gives every `when` and `decide` expression that only uses the supported subset
// its Go form. It runs before compilePrefilters, which then learns the `matches` patterns.
func compileConds(p *Pack) {
	c := &condCompiler{p: p, keys: map[string]int{}, patterns: map[string]int{}}
	for i, x := range p.extractors {
		c.keys[x.key] = i
	}
	for _, r := range p.rules {
		if r.when != nil {
			r.cond = c.compile(r.when)
		}
	}
	for _, o := range p.decide {
		o.cond = c.compile(o.when)
	}
}

// compile returns prog's Go form, or nil when prog needs the VM.
func (c *condCompiler) compile(prog *vm.Program) condBool {
	c.pending = c.pending[:0]
	f := c.boolNode(prog.Node())
	if f == nil {
		return nil
	}
	for _, cp := range c.pending {
		c.register(cp)
	}
	return f
}

// register adds a `matches` regex to the pack's patterns (or finds it there already) and
// points cp at it.
func (c *condCompiler) register(cp *condPattern) {
	p := c.p
	key := "t" + cp.re.String()
	if cp.onOriginal {
		key = "o" + cp.re.String()
	}
	if k, ok := c.patterns[key]; ok {
		*cp = *p.condPatterns[k]
		return
	}
	if cp.onOriginal {
		cp.origIdx = len(p.origPatterns)
		p.origPatterns = append(p.origPatterns, cp.re)
	} else {
		cp.patternIdx = len(p.patterns)
		p.patterns = append(p.patterns, cp.re)
	}
	cp.id = len(p.condPatterns)
	c.patterns[key] = cp.id
	p.condPatterns = append(p.condPatterns, cp)
}

// envNames are the names the classifier sets besides the extractors'. An extractor of one
// of these names is shadowed by it at run time although the expression was checked with the
// extractor's type, so expressions that read such a name keep the VM.
var envNames = map[string]bool{"text": true, "original": true, "words": true, "matched": true, "intent": true, "confidence": true, "score": true}

// envName reports whether name, one of envNames, means what the classifier sets.
func (c *condCompiler) envName(name string) bool {
	_, clash := c.keys[name]
	return !clash
}

// extractor returns the index of the extractor an identifier reads.
func (c *condCompiler) extractor(name string) (int, bool) {
	i, ok := c.keys[name]
	return i, ok && !envNames[name]
}

// boolNode compiles a node of type bool, or returns nil.
func (c *condCompiler) boolNode(n ast.Node) condBool {
	switch x := n.(type) {
	case *ast.BoolNode:
		v := x.Value
		return func(*scratch) bool { return v }
	case *ast.CallNode:
		return c.matchedCall(x)
	case *ast.UnaryNode:
		if x.Operator != "!" && x.Operator != "not" {
			return nil
		}
		f := c.boolNode(x.Node)
		if f == nil {
			return nil
		}
		return func(s *scratch) bool { return !f(s) }
	case *ast.BinaryNode:
		return c.binary(x)
	case *ast.BuiltinNode:
		return c.anyOf(x)
	}
	return nil
}

// anyOf compiles any(list, {predicate}) over a list extractor whose values are strings
// (the optimizer's form of len(filter(list, {predicate})) > 0).
func (c *condCompiler) anyOf(x *ast.BuiltinNode) condBool {
	if x.Name != "any" || len(x.Arguments) != 2 {
		return nil
	}
	id, ok := x.Arguments[0].(*ast.IdentifierNode)
	if !ok {
		return nil
	}
	i, ok := c.extractor(id.Value)
	if !ok || !c.p.extractors[i].stringList() {
		return nil
	}
	pred, ok := x.Arguments[1].(*ast.PredicateNode)
	if !ok {
		return nil
	}
	f := c.predicate(pred.Node)
	if f == nil {
		return nil
	}
	return func(s *scratch) bool {
		for _, v := range s.vals[i].([]any) {
			if f(v.(string)) {
				return true
			}
		}
		return false
	}
}

// predicate compiles the body of a predicate over a string element (#): !, &&, || and
// `in` a constant set, of the element or its lower- or upper-cased form.
func (c *condCompiler) predicate(n ast.Node) func(e string) bool {
	switch x := n.(type) {
	case *ast.UnaryNode:
		if x.Operator != "!" && x.Operator != "not" {
			return nil
		}
		if f := c.predicate(x.Node); f != nil {
			return func(e string) bool { return !f(e) }
		}
	case *ast.BinaryNode:
		switch x.Operator {
		case "&&", "and", "||", "or":
			l, r := c.predicate(x.Left), c.predicate(x.Right)
			if l == nil || r == nil {
				return nil
			}
			if x.Operator == "&&" || x.Operator == "and" {
				return func(e string) bool { return l(e) && r(e) }
			}
			return func(e string) bool { return l(e) || r(e) }
		case "in":
			str := c.element(x.Left)
			set, ok := x.Right.(*ast.ConstantNode)
			if str == nil || !ok {
				return nil
			}
			m, ok := set.Value.(map[string]struct{})
			if !ok {
				return nil
			}
			return func(e string) bool { _, in := m[str(e)]; return in }
		}
	}
	return nil
}

// element compiles #, lower(#) and upper(#) for a string element.
func (c *condCompiler) element(n ast.Node) func(e string) string {
	switch x := n.(type) {
	case *ast.PointerNode:
		if x.Name == "" {
			return func(e string) string { return e }
		}
	case *ast.BuiltinNode:
		if len(x.Arguments) != 1 {
			return nil
		}
		f := c.element(x.Arguments[0])
		switch {
		case f == nil:
		case x.Name == "lower":
			return func(e string) string { return strings.ToLower(f(e)) }
		case x.Name == "upper":
			return func(e string) string { return strings.ToUpper(f(e)) }
		}
	}
	return nil
}

// matchedCall compiles matched("id"); checkRefs has verified the id.
func (c *condCompiler) matchedCall(x *ast.CallNode) condBool {
	id, ok := x.Callee.(*ast.IdentifierNode)
	if !ok || id.Value != "matched" || len(x.Arguments) != 1 || !c.envName("matched") {
		return nil
	}
	lit, ok := x.Arguments[0].(*ast.StringNode)
	if !ok {
		return nil
	}
	i, ok := c.p.ruleIndex[lit.Value]
	if !ok {
		return nil
	}
	return func(s *scratch) bool { return s.matched[i] }
}

// binary compiles the binary operators of type bool.
func (c *condCompiler) binary(x *ast.BinaryNode) condBool {
	switch x.Operator {
	case "&&", "and", "||", "or":
		l, r := c.boolNode(x.Left), c.boolNode(x.Right)
		if l == nil || r == nil {
			return nil
		}
		if x.Operator == "&&" || x.Operator == "and" {
			return func(s *scratch) bool { return l(s) && r(s) }
		}
		return func(s *scratch) bool { return l(s) || r(s) }
	case "matches":
		return c.matches(x)
	case "==", "!=":
		if f := c.equal(x); f != nil {
			return f
		}
	}
	return c.compare(x)
}

// matches compiles `text matches "re"` and `original matches "re"`.
func (c *condCompiler) matches(x *ast.BinaryNode) condBool {
	id, ok := x.Left.(*ast.IdentifierNode)
	if !ok || (id.Value != "text" && id.Value != "original") || !c.envName(id.Value) {
		return nil
	}
	lit, ok := x.Right.(*ast.StringNode)
	if !ok {
		return nil
	}
	re, err := regexp.Compile(lit.Value) // as expr's compiler does for a constant pattern
	if err != nil {
		return nil
	}
	cp := &condPattern{re: re, onOriginal: id.Value == "original", patternIdx: -1, origIdx: -1}
	c.pending = append(c.pending, cp)
	return func(s *scratch) bool { return s.condMatch(cp) }
}

// equal compiles == and != between extractor values and nil or string literals, with the
// VM's own equality.
func (c *condCompiler) equal(x *ast.BinaryNode) condBool {
	l, r := c.anyNode(x.Left), c.anyNode(x.Right)
	if l == nil || r == nil {
		return nil
	}
	if x.Operator == "!=" {
		return func(s *scratch) bool { return !runtime.Equal(l(s), r(s)) }
	}
	return func(s *scratch) bool { return runtime.Equal(l(s), r(s)) }
}

// anyNode compiles the operands equal accepts: an extractor's value, nil or a string.
func (c *condCompiler) anyNode(n ast.Node) func(s *scratch) any {
	switch x := n.(type) {
	case *ast.NilNode:
		return func(*scratch) any { return nil }
	case *ast.StringNode:
		var v any = x.Value
		return func(*scratch) any { return v }
	case *ast.IdentifierNode:
		i, ok := c.extractor(x.Value)
		if !ok || c.p.extractors[i].list {
			return nil
		}
		return func(s *scratch) any { return s.vals[i] }
	}
	return nil
}

// compare compiles comparisons of integers.
func (c *condCompiler) compare(x *ast.BinaryNode) condBool {
	l, r := c.intNode(x.Left), c.intNode(x.Right)
	if l == nil || r == nil {
		return nil
	}
	switch x.Operator {
	case "==":
		return func(s *scratch) bool { return l(s) == r(s) }
	case "!=":
		return func(s *scratch) bool { return l(s) != r(s) }
	case "<":
		return func(s *scratch) bool { return l(s) < r(s) }
	case "<=":
		return func(s *scratch) bool { return l(s) <= r(s) }
	case ">":
		return func(s *scratch) bool { return l(s) > r(s) }
	case ">=":
		return func(s *scratch) bool { return l(s) >= r(s) }
	}
	return nil
}

// intNode compiles integer literals, len(list), words, cond ? int : int, + and -.
func (c *condCompiler) intNode(n ast.Node) condInt {
	if t := n.Type(); t != nil && t.Kind() != reflect.Int {
		return nil
	}
	switch x := n.(type) {
	case *ast.IntegerNode:
		v := x.Value
		return func(*scratch) int { return v }
	case *ast.IdentifierNode:
		if x.Value != "words" || !c.envName("words") {
			return nil
		}
		return (*scratch).wordCount
	case *ast.BuiltinNode:
		if x.Name != "len" || len(x.Arguments) != 1 {
			return nil
		}
		id, ok := x.Arguments[0].(*ast.IdentifierNode)
		if !ok {
			return nil
		}
		i, ok := c.extractor(id.Value)
		if !ok || !c.p.extractors[i].list {
			return nil
		}
		return func(s *scratch) int { return len(s.vals[i].([]any)) }
	case *ast.ConditionalNode:
		cond, a, b := c.boolNode(x.Cond), c.intNode(x.Exp1), c.intNode(x.Exp2)
		if cond == nil || a == nil || b == nil {
			return nil
		}
		return func(s *scratch) int {
			if cond(s) {
				return a(s)
			}
			return b(s)
		}
	case *ast.BinaryNode:
		l, r := c.intNode(x.Left), c.intNode(x.Right)
		if l == nil || r == nil {
			return nil
		}
		switch x.Operator {
		case "+":
			return func(s *scratch) int { return l(s) + r(s) }
		case "-":
			return func(s *scratch) int { return l(s) - r(s) }
		}
	}
	return nil
}
