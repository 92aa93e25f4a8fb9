package clientview

import (
	"fmt"
	"slices"
)

// assembler builds a View from a completion or from the events of a stream, the way the
// SDKs' stream accumulators do: per choice index, texts concatenated; tool call fragments
// merged by their index, arguments and input concatenated, id, type and name taken from
// the first fragment that carries them.
type assembler struct {
	choices []*choiceState
	view    View
	stopped bool // an error was read: clients stop there
}

type choiceState struct {
	Choice
	calls    []*callState // by tool call index; nil where none arrived
	finished bool
}

type callState struct {
	id, typ, fnName, customName string
	args, input                 string
}

// add merges one chunk; stream says fragments are merged by index (a completion's calls
// are whole and listed in order).
func (a *assembler) add(c chunk, stream bool) {
	if a.stopped {
		return
	}
	if c.err.present {
		a.view.Error, a.stopped = c.err.message, true
		if c.err.falsy {
			a.note("error member %q is an error to openai-node, none to openai-python", c.err.message)
		}
		return
	}
	for _, cp := range c.choices {
		a.addChoice(cp, stream)
	}
}

func (a *assembler) addChoice(cp choicePart, stream bool) {
	st := a.choice(cp.index, stream)
	if st.finished {
		a.note("choice %d: data after its finish_reason (openai-go clears a finish_reason no later chunk repeats)", cp.index)
	}
	m := cp.msg
	st.Content += m.content
	st.PartTypes = append(st.PartTypes, m.parts...)
	st.Refusal += m.refusal
	st.Reasoning += m.reasoning
	for i, call := range m.calls {
		if !stream {
			call.index, call.hasIndex = i, true
		}
		a.addCall(st, call)
	}
	if cp.finish != "" {
		st.FinishReason, st.finished = cp.finish, true
	}
}

// choice returns the state of a choice index, making it on first sight. A completion
// listing one index twice gets a note and two choices.
func (a *assembler) choice(index int, stream bool) *choiceState {
	for _, st := range a.choices {
		if st.Index == index {
			if !stream {
				a.note("choice index %d appears twice", index)
				break
			}
			return st
		}
	}
	st := &choiceState{Choice: Choice{Index: index}}
	a.choices = append(a.choices, st)
	return st
}

func (a *assembler) addCall(st *choiceState, call callPart) {
	if !call.hasIndex {
		a.note("choice %d: a tool call fragment without an index (openai-python refuses it), read as index 0", st.Index)
	}
	if call.index < 0 || call.index > 1024 {
		a.note("choice %d: tool call index %d out of range, ignored", st.Index, call.index)
		return
	}
	for len(st.calls) <= call.index {
		st.calls = append(st.calls, nil)
	}
	cs := st.calls[call.index]
	if cs == nil {
		cs = &callState{}
		st.calls[call.index] = cs
	}
	where := fmt.Sprintf("choice %d call %d", st.Index, call.index)
	a.setOnce(&cs.id, call.id, where, "id")
	a.setOnce(&cs.typ, call.typ, where, "type")
	a.setOnce(&cs.fnName, call.fnName, where, "function.name")
	a.setOnce(&cs.customName, call.customName, where, "custom.name")
	cs.args += call.args
	cs.input += call.input
}

// setOnce keeps the first non-empty value of a field; a second one gets a note, since
// the SDKs differ there (openai-python concatenates, openai-node keeps the last,
// openai-go keeps the last id and type and concatenates names).
func (a *assembler) setOnce(dst *string, v, where, field string) {
	switch {
	case v == "":
	case *dst == "":
		*dst = v
	default:
		a.note("%s: %s in two fragments (%q, then %q)", where, field, *dst, v)
	}
}

func (a *assembler) note(format string, args ...any) {
	a.view.Notes = append(a.view.Notes, fmt.Sprintf(format, args...))
}

// finish returns the view: choices sorted by index, calls by their index.
func (a *assembler) finish() View {
	for _, st := range a.choices {
		for i, cs := range st.calls {
			if cs == nil {
				a.note("choice %d: no fragment for tool call index %d", st.Index, i)
				cs = &callState{}
			}
			st.Calls = append(st.Calls, cs.call())
		}
		a.view.Choices = append(a.view.Choices, st.Choice)
	}
	slices.SortStableFunc(a.view.Choices, func(x, y Choice) int { return x.Index - y.Index })
	return a.view
}

// call names a call by its type: custom.name for a custom call, else function.name.
func (cs *callState) call() Call {
	name := cs.fnName
	if cs.typ == "custom" {
		name = cs.customName
	}
	return Call{ID: cs.id, Type: cs.typ, Name: name, Arguments: cs.args, Input: cs.input}
}
