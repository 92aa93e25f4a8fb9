package rules

import (
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/vm"
)

// envName is a name of the expression environment besides the extractors' keys.
type envName uint8

// The names whose values cost something to put in the environment (a boxed string or
// number, a count, a closure); the request path sets only those some expression reads.
const (
	envText envName = 1 << iota
	envOriginal
	envWords
	envMatched
	envIntent
	envConfidence
	envScore
)

// compileEnv prepares what the request path needs to evaluate expressions cheaply: the
// environment names the pack's expressions read, one shared evaluation for identical `when`
// expressions that do not call matched(), and the slot where each scalar filter records
// where its value starts.
func compileEnv(p *Pack) {
	byKey := map[string]int{}
	for _, x := range p.extractors {
		slot := x.field + "\x00" + x.operator
		if _, ok := byKey[slot]; !ok {
			byKey[slot] = len(byKey)
		}
		x.slot = byKey[slot]
	}
	p.nslots = len(byKey)

	shared := map[string]int{}
	for _, r := range p.rules {
		if r.when == nil {
			continue
		}
		uses := exprUses(r.when)
		p.envUses |= uses
		r.whenID = -1
		if uses&envMatched != 0 {
			continue
		}
		id, ok := shared[r.whenSrc]
		if !ok {
			id = len(shared)
			shared[r.whenSrc] = id
		}
		r.whenID = id
	}
	p.nwhens = len(shared)
	for _, o := range p.decide {
		p.envUses |= exprUses(o.when)
	}
}

// exprUses returns the environment names prog reads; $env, which can read any, counts as all.
func exprUses(prog *vm.Program) envName {
	var uses envName
	node := prog.Node()
	ast.Walk(&node, nameVisitor(func(name string) {
		switch name {
		case "$env":
			uses = ^envName(0)
		case "text":
			uses |= envText
		case "original":
			uses |= envOriginal
		case "words":
			uses |= envWords
		case "matched":
			uses |= envMatched
		case "intent":
			uses |= envIntent
		case "confidence":
			uses |= envConfidence
		case "score":
			uses |= envScore
		}
	}))
	return uses
}

type nameVisitor func(name string)

// Visit reports every identifier, including the names of called functions.
func (v nameVisitor) Visit(n *ast.Node) {
	switch x := (*n).(type) {
	case *ast.IdentifierNode:
		v(x.Value)
	case *ast.CallNode:
		if id, ok := x.Callee.(*ast.IdentifierNode); ok {
			v(id.Value)
		}
	}
}
