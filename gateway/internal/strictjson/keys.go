package strictjson

import "bytes"

// bigObject is the member count from which an object's keys are checked through a map of
// folded keys instead of pairwise.
const bigObject = 16

// key reads an object key, checks it against the other keys of its object, and reads
// the colon after it.
func (p *parser) key() error {
	c, ok := p.peek()
	if !ok {
		return p.failIn(Syntax, p.i, "unexpected end of input, expecting a key")
	}
	if c != '"' {
		return p.failIn(Syntax, p.i, "invalid character %q, expecting a key", c)
	}
	if err := p.str(kindKey); err != nil {
		return err
	}
	d := p.doc
	k := uint32(len(d.tape) - 1)
	if n := &d.tape[k]; n.flags&fEscaped != 0 {
		n.next = uint32(len(d.keys))
		d.keys = append(d.keys, appendUnescaped(nil, d.src[n.start:n.end]))
	}
	top := &p.stack[len(p.stack)-1]
	top.key = k
	if err := p.checkKey(top, k); err != nil {
		return err
	}
	if c, _ := p.peek(); c != ':' {
		return p.failIn(Syntax, p.i, "expecting ':' after a key")
	}
	p.i++
	return nil
}

// checkKey refuses key node k if an earlier key of its object folds to the same string.
func (p *parser) checkKey(top *frame, k uint32) error {
	if top.count > bigObject {
		folded := p.folded[top.node]
		f := Fold(string(p.doc.keyBytes(k)))
		if j, ok := folded[f]; ok {
			return p.twin(j, k)
		}
		folded[f] = k
		return nil
	}
	t := p.doc.tape
	for i := top.node + 1; i < k; i = t[i+1].next {
		if p.doc.keysFoldEqual(i, k) {
			return p.twin(i, k)
		}
	}
	if top.count == bigObject {
		p.foldKeys(top.node, k)
	}
	return nil
}

// foldKeys makes the map of folded keys of the object at tape index obj, whose last key
// so far is k.
func (p *parser) foldKeys(obj, k uint32) {
	if p.folded == nil {
		p.folded = make(map[uint32]map[string]uint32)
	}
	folded := make(map[string]uint32, 2*bigObject)
	for i := obj + 1; ; i = p.doc.tape[i+1].next {
		folded[Fold(string(p.doc.keyBytes(i)))] = i
		if i == k {
			break
		}
	}
	p.folded[obj] = folded
}

// twin reports key node k as a duplicate or a case twin of the earlier key node j.
func (p *parser) twin(j, k uint32) error {
	a, b := p.doc.keyBytes(j), p.doc.keyBytes(k)
	e := &Error{
		Offset: int(p.doc.tape[k].start) - 1,
		Path:   p.path(false),
		Reason: CaseTwin,
		Key:    string(b),
		Other:  string(a),
	}
	if bytes.Equal(a, b) {
		e.Reason, e.Other = DuplicateKey, ""
	}
	return e
}

// keyBytes returns the decoded key of key node k. It must not be modified.
func (d *Doc) keyBytes(k uint32) []byte {
	n := &d.tape[k]
	if n.flags&fEscaped != 0 {
		return d.keys[n.next]
	}
	return d.src[n.start:n.end]
}

// keysFoldEqual reports whether key nodes i and k are equal under case folding.
func (d *Doc) keysFoldEqual(i, k uint32) bool {
	a, b := d.keyBytes(i), d.keyBytes(k)
	if d.tape[i].flags&d.tape[k].flags&fASCII != 0 {
		return len(a) == len(b) && asciiFoldEqual(a, b)
	}
	return foldEqualBytes(a, b)
}
