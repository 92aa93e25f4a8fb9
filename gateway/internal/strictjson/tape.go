package strictjson

import (
	"math"
	"sync"
)

// Kind is the JSON type of a Value.
type Kind uint8

// The kinds of values; Missing is the Value of an absent key or index.
const (
	Missing Kind = iota
	Null
	Bool
	Number
	String
	Array
	Object

	kindKey // a tape node holding an object key; never the Kind of a Value
)

var kindNames = [...]string{"missing", "null", "bool", "number", "string", "array", "object", "key"}

// String returns the kind's name ("object", "missing").
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "invalid"
}

// node is one entry of the tape: a value, or an object key followed by its value.
// Children follow their container; next is the index just past a value's subtree, so
// siblings are reached by jumping, and a whole subtree is a contiguous range.
type node struct {
	// start and end bound the value in the source: for strings and keys the bytes
	// between the quotes, for the others the whole token or container.
	start, end uint32
	// next is, for values, the index after the subtree; for an escaped key, the index of
	// its decoded form in Doc.keys.
	next uint32
	// n is the number of members or elements of a container.
	n     uint32
	kind  Kind
	flags uint8
}

// Node flags.
const (
	// fEscaped: a string or key with a backslash escape; its source bytes are not its value.
	fEscaped = 1 << iota
	// fASCII: a string or key whose value is its source bytes, all ASCII.
	fASCII
	// fLineSep: a string with a raw U+2028 or U+2029, which the encoder escapes.
	fLineSep
	// fTrue: a Bool that is true.
	fTrue
)

// maxSize is the largest source the 32-bit tape offsets can describe.
const maxSize = math.MaxUint32 - 1

// smallTape is the least number of nodes allocated: enough for a stream chunk.
const smallTape = 48

// maxTapeGuess caps the tape allocated before parsing; past it the tape grows as needed.
const maxTapeGuess = 1024

// Doc is a parsed document: the source, unchanged and not copied, and its tape. It is
// never modified after Parse, so any number of goroutines may read it.
type Doc struct {
	src  []byte
	tape []node
	keys [][]byte // decoded escaped keys, indexed by their node's next
	// frames is the parser's stack for most documents. It lives here, not in the parser,
	// because a slice the parser appends to escapes to the heap anyway: this saves an
	// allocation per document.
	frames [smallStack]frame
}

// smallStack is the nesting depth a Doc's frames hold.
const smallStack = 16

// docs recycles released Docs and their tapes: a gateway parses two documents or more
// per request.
var docs = sync.Pool{New: func() any { return new(Doc) }}

// Release hands the Doc back for reuse by a later Parse. Neither the Doc nor any Value of
// it may be used afterwards; strings read from it (Str) stay valid. Releasing is optional.
func (d *Doc) Release() {
	if cap(d.tape) > 4*maxTapeGuess {
		return // an unusually large document: let its tape go
	}
	tape := d.tape[:0]
	*d = Doc{tape: tape}
	docs.Put(d)
}

// Root returns the document's top-level value.
func (d *Doc) Root() Value { return Value{d: d} }

// Source returns the bytes the document was parsed from.
func (d *Doc) Source() []byte { return d.src }

// DefaultMaxDepth is the nesting limit of Parse: deep enough for any chat payload and
// JSON schema seen in practice, shallow enough to bound recursion in every reader after
// Weir.
const DefaultMaxDepth = 128

// Options tunes Parse. The zero value is the default.
type Options struct {
	// MaxDepth is the deepest nesting of arrays and objects accepted (a top-level
	// object is depth 1); 0 means DefaultMaxDepth.
	MaxDepth int
}

// Parse parses src as exactly one JSON document with the default options. See
// Options.Parse.
func Parse(src []byte) (*Doc, error) { return Options{}.Parse(src) }

// Parse parses src as exactly one JSON document, refusing with an *Error anything two
// readers could read differently (see the Reason constants). The Doc keeps src.
func (o Options) Parse(src []byte) (*Doc, error) {
	if len(src) > maxSize {
		return nil, &Error{Reason: TooLarge, detail: "document too large"}
	}
	d := docs.Get().(*Doc)
	d.src = src
	// About one node per 16 bytes in chat requests with tool schemas, fewer in answers;
	// a large document of few long strings must not get a tape of its size.
	if want := min(max(len(src)/16+16, smallTape), maxTapeGuess); cap(d.tape) < want {
		d.tape = make([]node, 0, want)
	}
	p := parser{src: src, doc: d, maxDepth: o.MaxDepth}
	if p.maxDepth <= 0 {
		p.maxDepth = DefaultMaxDepth
	}
	p.stack = d.frames[:0]
	if err := p.run(); err != nil {
		return nil, err
	}
	return d, nil
}
