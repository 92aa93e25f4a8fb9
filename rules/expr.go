package rules

import (
	"sync"

	"github.com/expr-lang/expr/vm"
)

// vmPool reuses expr virtual machines: a VM holds its stack between runs, so pooling saves
// an allocation per evaluated expression on the request path.
var vmPool = sync.Pool{New: func() any { return new(vm.VM) }}

// evalBool runs a compiled boolean expression. A runtime error (say, comparing a missing
// field with a number) counts as false: an expression that cannot be evaluated for this
// question does not hold for it. Panics inside expr are recovered for the same reason.
func evalBool(prog *vm.Program, env map[string]any) (ok bool) {
	m := vmPool.Get().(*vm.VM)
	defer func() {
		if recover() != nil {
			ok = false
		}
		vmPool.Put(m)
	}()
	out, err := m.Run(prog, env)
	if err != nil {
		return false
	}
	b, _ := out.(bool)
	return b
}
