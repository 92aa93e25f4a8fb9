package strictjson

// parser builds a Doc's tape in one pass, without recursion: the stack holds the open
// containers, which also gives the Path of an error.
type parser struct {
	src      []byte
	i        int
	doc      *Doc
	maxDepth int
	stack    []frame
	// folded maps the folded keys of each large object (by its tape index) to their key
	// nodes, so that finding a twin stays linear; small objects compare keys pairwise.
	folded map[uint32]map[string]uint32
}

// frame is an open container.
type frame struct {
	node  uint32 // the container's tape index
	key   uint32 // objects: the tape index of the current member's key
	count uint32 // members or elements begun so far
}

// run parses the document: one value, then only white space.
func (p *parser) run() error {
	if len(p.src) >= 3 && p.src[0] == 0xEF && p.src[1] == 0xBB && p.src[2] == 0xBF {
		return p.fail(BOM, 0, "byte order mark before the document")
	}
	for {
		opened, err := p.value()
		if err != nil {
			return err
		}
		if opened {
			continue
		}
		done, err := p.next()
		if err != nil || done {
			return err
		}
	}
}

// value reads the value at the position: a scalar, an empty container, or the opening of
// a container and, for an object, its first key. opened reports the last case: a value
// comes next.
func (p *parser) value() (opened bool, err error) {
	c, ok := p.peek()
	if !ok {
		return false, p.fail(Syntax, p.i, "unexpected end of input, expecting a value")
	}
	switch {
	case c == '{' || c == '[':
		return p.open(c)
	case c == '"':
		return false, p.str(String)
	case c == '-' || '0' <= c && c <= '9':
		return false, p.number()
	default:
		return false, p.literal(c)
	}
}

// open starts a container at the position. An empty one is closed at once.
func (p *parser) open(c byte) (opened bool, err error) {
	if len(p.stack) >= p.maxDepth {
		return false, p.fail(TooDeep, p.i, "nesting deeper than %d", p.maxDepth)
	}
	kind, end := Array, byte(']')
	if c == '{' {
		kind, end = Object, '}'
	}
	idx := p.push(node{start: uint32(p.i), kind: kind})
	p.stack = append(p.stack, frame{node: idx})
	p.i++
	if c, _ := p.peek(); c == end {
		p.i++
		p.close()
		return false, nil
	}
	p.stack[len(p.stack)-1].count = 1
	if kind == Object {
		return true, p.key()
	}
	return true, nil
}

// next reads what follows a value: a comma and, in an object, the next key (opened),
// or closing brackets, until the document ends (done).
func (p *parser) next() (done bool, err error) {
	for len(p.stack) > 0 {
		top := &p.stack[len(p.stack)-1]
		obj := p.doc.tape[top.node].kind == Object
		c, _ := p.peek()
		switch {
		case c == ',':
			p.i++
			top.count++
			if obj {
				return false, p.key()
			}
			return false, nil
		case c == '}' && obj, c == ']' && !obj:
			p.i++
			p.close()
		default:
			return false, p.separatorError(obj)
		}
	}
	if _, ok := p.peek(); ok {
		return true, p.fail(Trailing, p.i, "data after the document")
	}
	return true, nil
}

// close ends the innermost container, whose closing byte is just before the position.
func (p *parser) close() {
	top := p.stack[len(p.stack)-1]
	p.stack = p.stack[:len(p.stack)-1]
	n := &p.doc.tape[top.node]
	n.end, n.next, n.n = uint32(p.i), uint32(len(p.doc.tape)), top.count
}

func (p *parser) separatorError(obj bool) error {
	want := "',' or ']'"
	if obj {
		want = "',' or '}'"
	}
	if p.i >= len(p.src) {
		return p.failIn(Syntax, p.i, "unexpected end of input, expecting %s", want)
	}
	return p.failIn(Syntax, p.i, "invalid character %q, expecting %s", p.src[p.i], want)
}

// push appends a node to the tape and returns its index. A scalar's next is set here:
// it has no subtree.
func (p *parser) push(n node) uint32 {
	idx := uint32(len(p.doc.tape))
	n.next = idx + 1
	p.doc.tape = append(p.doc.tape, n)
	return idx
}

// peek skips white space and returns the byte at the position, ok false at the end.
func (p *parser) peek() (c byte, ok bool) {
	for p.i < len(p.src) {
		switch c = p.src[p.i]; c {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return c, true
		}
	}
	return 0, false
}
