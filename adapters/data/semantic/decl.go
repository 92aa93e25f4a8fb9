package semantic

import (
	"fmt"
	"os"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

// Decl is the `semantic:` section of a dataset schema file: the words of the pack's
// languages that name the dataset's rows, measures, dimensions and values, and how the
// dataset joins others. The structured query (adapters/data) ignores it.
//
//	semantic:
//	  rows: {unit: orders, words: [ordini, orders], name: item_name, key: order_id}
//	  entities: {subject: USUBJID}
//	  default_measure: revenue
//	  actor: waiter
//	  context: [menu]
//	  measures:
//	    revenue: {unit: EUR, words: [fatturato, revenue, sales]}
//	  fields:
//	    category: {words: [categoria, category], aliases: {Vini: [vini, wine]}}
//	    item_name: {words: [piatto, dish], index: tokens, amount: quantity_total}
//	    unit_price: {words: [prezzo unitario, unit price], unit: EUR, min: [cheapest]}
type Decl struct {
	// File is the schema file, for messages.
	File string
	// Rows says what one row is.
	Rows RowsDecl
	// Entities name the dataset's key fields; datasets that share an entity name join on it.
	Entities map[string]string
	// DefaultMeasure is the measure a ranking uses when the question names none ("which
	// importer bought the most").
	DefaultMeasure string
	// Actor is the dimension "who" questions rank by ("chi ha importato più laptop").
	Actor string
	// Context are words that name the dataset as a whole ("menu"): they ask nothing.
	Context []string
	// Measures annotate the schema's metrics.
	Measures map[string]MeasureDecl
	// Fields annotate the schema's fields.
	Fields map[string]FieldDecl
	// Line numbers of the declarations, for errors.
	lines map[string]int
}

// RowsDecl says what one row of the dataset is.
type RowsDecl struct {
	// Unit names what counting rows counts: orders, findings, events.
	Unit string
	// Words name the rows ("ordini", "adverse events"); "how many <word>" counts them.
	Words []string
	// Entity, when the rows are an entity (one row per subject), is its name: counting the
	// entity in another dataset that carries its key counts distinct keys there.
	Entity string
	// Name is the field that says what a row is about ("the most common finding" ranks it).
	Name string
	// Key is the field that identifies one row (an id, a declaration number): a ranking of
	// the rows themselves ("the 3 biggest declarations by value") labels each row by it.
	Key string
}

// MeasureDecl annotates a metric of the schema.
type MeasureDecl struct {
	// Unit of the values: EUR, orders, patients.
	Unit string
	// Words name the measure, including verbs that ask for it ("fatturato", "sold").
	Words []string
	// Refines names the measure this one qualifies: net revenue refines revenue, so
	// "fatturato di gennaio al netto degli sconti" asks for the net revenue alone, not for
	// both the revenue ("fatturato") and the net revenue ("al netto degli sconti").
	Refines string
	// Basis are words that state the basis the measure already has, qualifying it without
	// naming another measure: the gross of "fatturato lordo", "revenue before discounts".
	// They frame the measures the question asks; with a measure that refines this one
	// ("fatturato netto … lordo") they are not covered; joined to another measure by
	// "and" or "vs" ("netto vs lordo") they ask for this one.
	Basis []string
}

// FieldDecl annotates a field of the schema.
type FieldDecl struct {
	// Words name the field: as a dimension ("per categoria") or an operand ("average age").
	Words []string
	// Aliases map a value of the field to words that name it.
	Aliases map[string][]string
	// Index reads the field's values from the data at load, so that questions can name
	// them: "values" matches whole values, "tokens" also the words inside them (free text).
	Index string
	// Unit is the unit of a numeric field's values (EUR, days, years).
	Unit string
	// UnitField names the field that holds this field's unit per row (quantities in kg or
	// pcs): a sum across different units is refused.
	UnitField string
	// Amount is the measure that "how many <value>" asks for (pieces sold, not order lines).
	Amount string
	// Counts is the unit of counting the field's distinct values (customers, importers).
	Counts string
	// Max and Min are words that mean the field's largest or smallest value ("oldest" for
	// an age, "cheapest" for a price).
	Max, Min []string
	// Present, on a numeric field, are words that say a row has the field above zero:
	// "scontati", "discounted" for a discount ("ordini scontati" are those with one).
	Present []string
	// DayOf, on an integer field, names the date field whose day number it holds, counted
	// from the start of the study or treatment (ADAE's ASTDY for ASTDT): "day 60", "after
	// day 60" and "within the first 14 days" are conditions on it.
	DayOf string
	// Order lists a field's values from the lowest to the highest, when they are ranked
	// (severity: Low, Medium, High, Critical): "medium or higher", "at least High", "above
	// Medium" name the values from one on.
	Order []string
	// Text marks a free-text field: a question that searches the text ("findings that
	// mention permits", "rilievi che parlano di sicurezza") matches the words inside any of
	// the source's text fields.
	Text bool
}

// The values of FieldDecl.Index.
const (
	IndexValues = "values"
	IndexTokens = "tokens"
)

var (
	declKeys    = []string{"rows", "entities", "default_measure", "actor", "context", "measures", "fields"}
	rowsKeys    = []string{"unit", "words", "entity", "name", "key"}
	measureKeys = []string{"unit", "words", "refines", "basis"}
	fieldKeys   = []string{"words", "aliases", "index", "unit", "unit_field", "amount", "counts", "max", "min", "day_of", "text", "present", "order"}
)

// LoadDecl reads the semantic section of a schema file; a file without one has an empty Decl.
func LoadDecl(path string) (*Decl, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("semantic: %w", err)
	}
	return ParseDecl(path, b)
}

// ParseDecl parses the semantic section of a schema. Unknown keys are errors reported with
// file and line, all at once.
func ParseDecl(file string, b []byte) (*Decl, error) {
	e := &errs{file: file}
	d := &Decl{File: file, Entities: map[string]string{}, Measures: map[string]MeasureDecl{}, Fields: map[string]FieldDecl{}, lines: map[string]int{}}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		e.add(0, "semantic_yaml", "%v", err)
		return nil, e.err()
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return d, nil
	}
	var sec *yaml.Node
	for i := 0; i+1 < len(doc.Content[0].Content); i += 2 {
		if doc.Content[0].Content[i].Value == "semantic" {
			sec = doc.Content[0].Content[i+1]
		}
	}
	if sec == nil {
		return d, nil
	}
	for _, kv := range e.pairs(sec, declKeys) {
		d.parseKey(kv[0], kv[1], e)
	}
	return d, e.err()
}

func (d *Decl) parseKey(k, v *yaml.Node, e *errs) {
	d.lines[k.Value] = k.Line
	switch k.Value {
	case "rows":
		for _, kv := range e.pairs(v, rowsKeys) {
			switch kv[0].Value {
			case "unit":
				d.Rows.Unit = e.scalar(kv[1])
			case "words":
				d.Rows.Words = e.list(kv[1])
			case "entity":
				d.Rows.Entity = e.scalar(kv[1])
			case "name":
				d.Rows.Name = e.scalar(kv[1])
			case "key":
				d.Rows.Key = e.scalar(kv[1])
			}
		}
	case "entities":
		for _, kv := range e.pairs(v, nil) {
			d.Entities[kv[0].Value] = e.scalar(kv[1])
			d.lines["entities."+kv[0].Value] = kv[0].Line
		}
	case "default_measure":
		d.DefaultMeasure = e.scalar(v)
	case "actor":
		d.Actor = e.scalar(v)
	case "context":
		d.Context = e.list(v)
	case "measures":
		for _, kv := range e.pairs(v, nil) {
			d.lines["measures."+kv[0].Value] = kv[0].Line
			d.Measures[kv[0].Value] = parseMeasure(kv[1], e)
		}
	case "fields":
		for _, kv := range e.pairs(v, nil) {
			d.lines["fields."+kv[0].Value] = kv[0].Line
			d.Fields[kv[0].Value] = parseField(kv[1], e)
		}
	}
}

func parseMeasure(v *yaml.Node, e *errs) MeasureDecl {
	var m MeasureDecl
	for _, kv := range e.pairs(v, measureKeys) {
		switch kv[0].Value {
		case "unit":
			m.Unit = e.scalar(kv[1])
		case "words":
			m.Words = e.list(kv[1])
		case "refines":
			m.Refines = e.scalar(kv[1])
		case "basis":
			m.Basis = e.list(kv[1])
		}
	}
	return m
}

func parseField(v *yaml.Node, e *errs) FieldDecl {
	var f FieldDecl
	for _, kv := range e.pairs(v, fieldKeys) {
		k, val := kv[0], kv[1]
		switch k.Value {
		case "words":
			f.Words = e.list(val)
		case "aliases":
			f.Aliases = map[string][]string{}
			for _, av := range e.pairs(val, nil) {
				f.Aliases[av[0].Value] = e.list(av[1])
			}
		case "index":
			f.Index = e.scalar(val)
			if f.Index != IndexValues && f.Index != IndexTokens {
				e.add(val.Line, "semantic_index", "index must be %s or %s, not %q", IndexValues, IndexTokens, f.Index)
			}
		case "unit":
			f.Unit = e.scalar(val)
		case "unit_field":
			f.UnitField = e.scalar(val)
		case "amount":
			f.Amount = e.scalar(val)
		case "counts":
			f.Counts = e.scalar(val)
		case "day_of":
			f.DayOf = e.scalar(val)
		case "order":
			f.Order = e.list(val)
		case "max":
			f.Max = e.list(val)
		case "min":
			f.Min = e.list(val)
		case "present":
			f.Present = e.list(val)
		case "text":
			f.Text = e.boolean(val)
		}
	}
	return f
}

// errs collects the problems of one file, reported as `file:line: code: message`.
type errs struct {
	file  string
	msgs  []string
	lines []int
}

func (e *errs) add(line int, code, format string, args ...any) {
	e.msgs = append(e.msgs, fmt.Sprintf("%s:%d: %s: %s", e.file, line, code, fmt.Sprintf(format, args...)))
	e.lines = append(e.lines, line)
}

func (e *errs) err() error {
	if len(e.msgs) == 0 {
		return nil
	}
	idx := make([]int, len(e.msgs))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return e.lines[idx[a]] < e.lines[idx[b]] })
	out := make([]string, len(idx))
	for i, j := range idx {
		out[i] = e.msgs[j]
	}
	return fmt.Errorf("%s", strings.Join(out, "\n"))
}

func (e *errs) pairs(n *yaml.Node, allowed []string) [][2]*yaml.Node {
	if n.Kind != yaml.MappingNode {
		e.add(n.Line, "semantic_type", "expected a mapping")
		return nil
	}
	var out [][2]*yaml.Node
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		switch {
		case allowed != nil && !contains(allowed, k.Value):
			e.add(k.Line, "semantic_unknown_key", "unknown key %q; allowed keys are %s", k.Value, strings.Join(allowed, ", "))
		case seen[k.Value]:
			e.add(k.Line, "semantic_duplicate_key", "key %q appears twice", k.Value)
		default:
			seen[k.Value] = true
			out = append(out, [2]*yaml.Node{k, n.Content[i+1]})
		}
	}
	return out
}

func (e *errs) scalar(n *yaml.Node) string {
	if n.Kind != yaml.ScalarNode {
		e.add(n.Line, "semantic_type", "expected a single value")
		return ""
	}
	return n.Value
}

func (e *errs) boolean(n *yaml.Node) bool {
	var b bool
	if n.Kind != yaml.ScalarNode || n.Decode(&b) != nil {
		e.add(n.Line, "semantic_type", "expected true or false")
	}
	return b
}

func (e *errs) list(n *yaml.Node) []string {
	if n.Kind == yaml.ScalarNode {
		return []string{n.Value}
	}
	if n.Kind != yaml.SequenceNode {
		e.add(n.Line, "semantic_type", "expected a list")
		return nil
	}
	out := make([]string, 0, len(n.Content))
	for _, c := range n.Content {
		out = append(out, e.scalar(c))
	}
	return out
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
