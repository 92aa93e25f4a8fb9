package rules

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/vm"
)

func compileRules(p *Pack, srcs []*source, tables map[string]*aliasMatcher, e *errs) {
	// Ids first, so a `when` may refer to any rule declared before it in any file.
	type pending struct {
		s   *source
		i   int
		r   *rule
		doc ruleDoc
	}
	var todo []pending
	for _, s := range srcs {
		for i, d := range s.doc.Rules {
			line := s.line("rules", i)
			if d.ID == "" {
				e.add(s.name, line, "rule_empty", "a rule needs an id")
				continue
			}
			if prev, dup := p.ruleIndex[d.ID]; dup {
				r := p.rules[prev]
				e.add(s.name, line, "rule_duplicate_id", "rule id %q already used at %s:%d", d.ID, r.file, r.line)
				continue
			}
			r := &rule{id: d.ID, intent: d.Intent, patternIdx: -1, origIdx: -1, weight: 1, file: s.name, line: line, whenSrc: d.When}
			p.ruleIndex[d.ID] = len(p.rules)
			p.rules = append(p.rules, r)
			todo = append(todo, pending{s, i, r, d})
		}
	}
	for _, t := range todo {
		s, d, r := t.s, t.doc, t.r
		fail := func(code string, path string, format string, args ...any) {
			line := r.line
			if path != "" {
				line = s.line("rules", t.i, path)
			}
			e.add(s.name, line, code, "rule %q: %s", r.id, fmt.Sprintf(format, args...))
		}
		idx, ok := p.intentIndex[d.Intent]
		if !ok {
			fail("rule_unknown_intent", "intent", "intent %q is not declared under intents", d.Intent)
		}
		r.intentIdx = idx
		if msg := descriptionProblem(d.Description); msg != "" {
			fail("rule_description_invalid", "description", "%s", msg)
		}
		r.description = strings.TrimSpace(d.Description)
		if d.Weight != nil {
			if w := *d.Weight; w < -maxWeight || w > maxWeight {
				fail("rule_weight_invalid", "weight", "weight %v is outside [-%d, %d]", w, maxWeight, maxWeight)
			} else {
				r.weight = w
			}
		}
		if d.Pattern == "" && d.When == "" {
			fail("rule_empty", "", "a rule needs a pattern, a when, or both")
		}
		if d.On != "" && d.On != "original" && d.On != "normalized" {
			fail("rule_regex_invalid", "on", "on must be original or normalized, got %q", d.On)
		}
		if d.Pattern != "" {
			expanded, unknown := expandMacros(d.Pattern, tables)
			for _, u := range unknown {
				fail("rule_unknown_alias", "pattern", "pattern names alias table %q, which is not declared", u)
			}
			if re, err := regexp.Compile(expanded); err != nil {
				fail("rule_regex_invalid", "pattern", "%v", err)
			} else if len(unknown) == 0 {
				r.re, r.onOriginal = re, d.On == "original"
				if r.onOriginal {
					r.origIdx = len(p.origPatterns)
					p.origPatterns = append(p.origPatterns, re)
				} else {
					r.patternIdx = len(p.patterns)
					p.patterns = append(p.patterns, re)
				}
			}
		}
		if d.When != "" {
			prog, err := compileExpr(p, d.When, false)
			if err != nil {
				fail("rule_expr_invalid", "when", "%v", err)
			} else if msg := checkRefs(p, prog, r); msg != "" {
				fail("rule_unknown_reference", "when", "%s", msg)
			} else {
				r.when = prog
				p.hasExpr = true
			}
		}
	}
}

func compileDecide(p *Pack, srcs []*source, e *errs) {
	seen := map[string]string{}
	for _, s := range srcs {
		for i, d := range s.doc.Decide {
			line := s.line("decide", i)
			if d.ID != "" {
				if prev, dup := seen[d.ID]; dup {
					e.add(s.name, line, "decide_duplicate_id", "override id %q already used at %s", d.ID, prev)
					continue
				}
				seen[d.ID] = s.name + ":" + itoa(line)
			}
			o := &override{id: d.ID, confidence: defaultOverrideConf, description: strings.TrimSpace(d.Description)}
			if o.id == "" {
				o.id = fmt.Sprintf("decide[%d]", len(p.decide))
			}
			if msg := descriptionProblem(d.Description); msg != "" {
				e.add(s.name, s.line("decide", i, "description"), "decide_description_invalid", "override %q: %s", o.id, msg)
			}
			idx, ok := p.intentIndex[d.Intent]
			if !ok {
				e.add(s.name, s.line("decide", i, "intent"), "decide_unknown_intent", "override %q: intent %q is not declared under intents", o.id, d.Intent)
				continue
			}
			o.intentIdx = idx
			if d.Confidence != nil {
				if c := *d.Confidence; c < 0 || c > 1 {
					e.add(s.name, s.line("decide", i, "confidence"), "threshold_invalid", "override %q: confidence must be within [0, 1]", o.id)
				} else {
					o.confidence = c
				}
			}
			if d.When == "" {
				e.add(s.name, line, "decide_expr_invalid", "override %q needs a when", o.id)
				continue
			}
			prog, err := compileExpr(p, d.When, true)
			if err == nil {
				if msg := checkRefs(p, prog, nil); msg != "" {
					err = fmt.Errorf("%s", msg)
				}
			}
			if err != nil {
				e.add(s.name, s.line("decide", i, "when"), "decide_expr_invalid", "override %q: %v", o.id, err)
				continue
			}
			o.when = prog
			p.hasExpr = true
			p.decide = append(p.decide, o)
		}
	}
}

// exprEnv declares the names an expression may use, with their types. Extracted fields are
// declared without a type (nil), so `year != nil` compiles (`year >= 2020` does not: the
// checker refuses to order an unknown type against a number); lists are declared as lists.
func exprEnv(p *Pack, decide bool) map[string]any {
	env := map[string]any{
		"text":     "",
		"original": "",
		"words":    0,
		"matched":  func(string) bool { return false },
	}
	for _, x := range p.extractors {
		if x.list {
			env[x.key] = []any{}
		} else {
			env[x.key] = nil
		}
	}
	if decide {
		env["intent"] = ""
		env["confidence"] = 0.0
		env["score"] = func(string) float64 { return 0 }
	}
	return env
}

func compileExpr(p *Pack, src string, decide bool) (*vm.Program, error) {
	return expr.Compile(src, expr.Env(exprEnv(p, decide)), expr.AsBool())
}

// checkRefs verifies the literal arguments of matched("id") and score("intent"). A rule may
// only rely on rules that are decided before it: every pattern-only rule, and `when` rules
// declared earlier.
func checkRefs(p *Pack, prog *vm.Program, self *rule) string {
	var msg string
	node := prog.Node()
	ast.Walk(&node, refVisitor(func(fn string, arg ast.Node) {
		if msg != "" {
			return
		}
		lit, ok := arg.(*ast.StringNode)
		if !ok {
			msg = fmt.Sprintf("%s() takes a literal string", fn)
			return
		}
		switch fn {
		case "matched":
			i, ok := p.ruleIndex[lit.Value]
			if !ok {
				msg = fmt.Sprintf("matched(%q): no rule has this id", lit.Value)
				return
			}
			if self == nil {
				return
			}
			si := p.ruleIndex[self.id]
			if i == si {
				msg = fmt.Sprintf("matched(%q): a rule cannot depend on itself", lit.Value)
			} else if p.rules[i].whenSrc != "" && i > si {
				msg = fmt.Sprintf("matched(%q): that rule has a `when` and is declared later, so it is not decided yet; move it before this rule", lit.Value)
			}
		case "score":
			if _, ok := p.intentIndex[lit.Value]; !ok {
				msg = fmt.Sprintf("score(%q): no such intent", lit.Value)
			}
		}
	}))
	return msg
}

type refVisitor func(fn string, arg ast.Node)

// Visit reports calls of matched() and score() with their first argument.
func (v refVisitor) Visit(n *ast.Node) {
	call, ok := (*n).(*ast.CallNode)
	if !ok {
		return
	}
	id, ok := call.Callee.(*ast.IdentifierNode)
	if !ok || (id.Value != "matched" && id.Value != "score") || len(call.Arguments) != 1 {
		return
	}
	v(id.Value, call.Arguments[0])
}

// maxDescription bounds a rule's description: it is one line of a classification's rationale.
const maxDescription = 200

// descriptionProblem says what is wrong with a rule's or override's description, "" when
// nothing is (an absent description is fine): it must be one line of text, at most
// maxDescription characters, not only spaces.
func descriptionProblem(d string) string {
	switch t := strings.TrimSpace(d); {
	case d == "":
		return ""
	case t == "":
		return "description is blank"
	case strings.ContainsAny(t, "\n\r"):
		return "description must be one line (it is a sentence of the rationale)"
	case utf8.RuneCountInString(t) > maxDescription:
		return fmt.Sprintf("description has %d characters, at most %d", utf8.RuneCountInString(t), maxDescription)
	}
	return ""
}
