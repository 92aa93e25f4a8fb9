package policies

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/storage"
	"github.com/open-policy-agent/opa/v1/storage/inmem"
)

// The three decision queries every bundle answers.
const (
	RequestQuery  = "data.weir.request.decision"
	ToolsQuery    = "data.weir.tools.decision"
	ResponseQuery = "data.weir.response.decision"
)

// Bundle is a compiled policy bundle with its three queries prepared. It is immutable and
// safe for concurrent use.
type Bundle struct {
	dir      string
	revision string
	modules  map[string]*ast.Module // every parsed module, tests and library included
	data     *bundleData
	store    storage.Store

	request, tools, response *query

	// direct are the violation-set queries of the decisions Weir assembles in Go
	// (direct.go); nil ones are evaluated in full.
	direct directQueries

	// toolNames are AST terms of the tool names the bundle data lists, shared by every
	// decision's input instead of being built per proposed call. Read-only after Load.
	toolNames map[string]*ast.Term

	// memo holds, per intent of data.weir.intents, the library documents that depend on
	// the intent alone, evaluated once at load (memo.go). Read-only after Load.
	memo map[string][]memoEntry

	// golib evaluates the library's tools and response violations in Go (golib.go).
	// Read-only after Load.
	golib goLib

	// memos are the decisions and documents memoized by the input fields they read, and
	// those fields (memos.go). Safe for concurrent use.
	memos memos
}

// Dir returns the directory the bundle was loaded from.
func (b *Bundle) Dir() string { return b.dir }

// Revision returns the bundle's content hash: the first 16 hex digits of a SHA-256 over
// every file's path and content and the built-in library. Decisions report it.
func (b *Bundle) Revision() string { return b.revision }

// MaxArgumentBytes returns the size limit for a tool call's arguments (limits.max_argument_bytes).
func (b *Bundle) MaxArgumentBytes() int { return b.data.maxArgumentBytes }

// Intents returns the entries of data.weir.intents by name, as written in the bundle data.
func (b *Bundle) Intents() map[string]IntentPolicy { return b.data.intents }

// Load reads, parses and compiles the bundle in dir and prepares its three queries. All
// errors found are returned together as an ErrorList, each with a code and file:line:col.
func Load(ctx context.Context, dir string) (*Bundle, error) {
	srcs, dataFile, dataSrc, errs := readDir(dir)
	if len(errs) > 0 {
		return nil, errs
	}
	data := &bundleData{doc: map[string]any{}, library: true, maxArgumentBytes: DefaultMaxArgumentBytes}
	if dataFile != "" {
		d, derrs := parseData(dataFile, dataSrc)
		if derrs != nil {
			errs = append(errs, derrs...)
		} else {
			data = d
		}
	}
	srcs = append(srcs, librarySources(data.library)...)
	modules, perrs := parseModules(srcs)
	errs = append(errs, perrs...)
	if len(errs) > 0 {
		return nil, errs
	}
	b := &Bundle{dir: dir, revision: revision(srcs, dataSrc), modules: modules, data: data, toolNames: data.toolNameTerms()}
	if err := b.compile(ctx); err != nil {
		return nil, err
	}
	return b, nil
}

func (b *Bundle) compile(ctx context.Context) error {
	prod := make(map[string]*ast.Module, len(b.modules))
	for name, m := range b.modules {
		if !isTestFile(name) {
			prod[name] = m
		}
	}
	c := ast.NewCompiler().WithDefaultRegoVersion(ast.RegoV1)
	if c.Compile(prod); c.Failed() {
		return astErrors(CodeRegoCompile, c.Errors)
	}
	var errs ErrorList
	for _, q := range []string{RequestQuery, ToolsQuery, ResponseQuery} {
		if len(c.GetRulesExact(ast.MustParseRef(q))) == 0 {
			errs = append(errs, errorf(CodeRegoCompile, "no rule defines %s (a bundle with library: false must define the three decisions)", q))
		}
	}
	if len(errs) > 0 {
		return errs
	}
	b.store = inmem.NewFromObjectWithOpts(map[string]any{"weir": b.data.doc}, inmem.OptRoundTripOnWrite(false), inmem.OptReturnASTValuesOnRead(true))
	// The store is never written: one read transaction serves every evaluation, from any
	// goroutine (an inmem read transaction holds no state of its own).
	txn, err := b.store.NewTransaction(ctx)
	if err != nil {
		return ErrorList{errorf(CodeQueryPrepare, "%v", err)}
	}
	for _, p := range []struct {
		text string
		dst  **query
	}{{RequestQuery, &b.request}, {ToolsQuery, &b.tools}, {ResponseQuery, &b.response}} {
		q, err := prepareQuery(c, b.store, txn, p.text)
		if err != nil {
			return ErrorList{errorf(CodeQueryPrepare, "%s: %v", p.text, err)}
		}
		*p.dst = q
	}
	if b.data.library {
		if b.direct, err = prepareDirect(c, b.store, txn); err != nil {
			return ErrorList{errorf(CodeQueryPrepare, "%v", err)}
		}
		if intents, ok := b.data.doc["intents"].(map[string]any); ok {
			b.memo = buildMemo(ctx, c, func(text string) (*query, error) { return prepareQuery(c, b.store, txn, text) }, intents)
		}
		b.golib = prepareGoLib(c, b.memo)
	}
	if err := b.prepareMemos(c, b.store, txn); err != nil {
		return ErrorList{errorf(CodeQueryPrepare, "%v", err)}
	}
	return nil
}

// readDir collects the .rego files under dir (recursively, skipping hidden entries) and the
// data file at its root.
func readDir(dir string) (srcs []source, dataFile string, dataSrc []byte, errs ErrorList) {
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			errs = append(errs, &Error{Code: CodeBundleRead, File: p, Message: err.Error()})
			return nil
		}
		if strings.HasPrefix(d.Name(), ".") && p != dir {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		isData := filepath.Dir(p) == filepath.Clean(dir) && isDataFile(d.Name())
		if !isData && !strings.HasSuffix(p, ".rego") {
			return nil
		}
		src, rerr := os.ReadFile(p)
		if rerr != nil {
			errs = append(errs, &Error{Code: CodeBundleRead, File: p, Message: rerr.Error()})
			return nil
		}
		if !isData {
			rel, _ := filepath.Rel(dir, p)
			srcs = append(srcs, source{name: p, rel: filepath.ToSlash(rel), src: src, test: isTestFile(p)})
			return nil
		}
		if dataFile != "" {
			errs = append(errs, &Error{Code: CodeDataInvalid, File: p, Message: "a bundle has at most one data file; found " + dataFile + " too"})
			return nil
		}
		dataFile, dataSrc = p, src
		return nil
	})
	if err != nil {
		errs = append(errs, &Error{Code: CodeBundleRead, File: dir, Message: err.Error()})
	}
	if len(errs) == 0 && !hasPolicy(srcs) && dataFile == "" {
		errs = append(errs, &Error{Code: CodeBundleEmpty, File: dir, Message: "no .rego file and no data file"})
	}
	return srcs, dataFile, dataSrc, errs
}

func isDataFile(name string) bool {
	return name == "data.yaml" || name == "data.yml" || name == "data.json"
}

func isTestFile(name string) bool { return strings.HasSuffix(name, "_test.rego") }

func hasPolicy(srcs []source) bool {
	for _, s := range srcs {
		if !s.test {
			return true
		}
	}
	return false
}

func parseModules(srcs []source) (map[string]*ast.Module, ErrorList) {
	modules := make(map[string]*ast.Module, len(srcs))
	var errs ErrorList
	for _, s := range srcs {
		m, err := ast.ParseModuleWithOpts(s.name, string(s.src), ast.ParserOptions{RegoVersion: ast.RegoV1, ProcessAnnotation: true})
		if err != nil {
			errs = append(errs, astErrors(CodeRegoParse, err)...)
			continue
		}
		if m == nil {
			errs = append(errs, &Error{Code: CodeRegoParse, File: s.name, Line: 1, Message: "empty module: a .rego file needs a package declaration"})
			continue
		}
		modules[s.name] = m
	}
	return modules, errs
}

// astErrors converts OPA's errors into ours, keeping their location.
func astErrors(code string, err error) ErrorList {
	var aerrs ast.Errors
	if !errors.As(err, &aerrs) {
		var one *ast.Error
		if !errors.As(err, &one) {
			return ErrorList{errorf(code, "%v", err)}
		}
		aerrs = ast.Errors{one}
	}
	out := make(ErrorList, 0, len(aerrs))
	for _, e := range aerrs {
		ours := &Error{Code: code, Message: e.Message}
		if e.Location != nil {
			ours.File, ours.Line, ours.Col = e.Location.File, e.Location.Row, e.Location.Col
		}
		out = append(out, ours)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].File != out[j].File {
			return out[i].File < out[j].File
		}
		return out[i].Line < out[j].Line
	})
	return out
}

func revision(srcs []source, dataSrc []byte) string {
	sorted := append([]source(nil), srcs...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].rel < sorted[j].rel })
	h := sha256.New()
	for _, s := range sorted {
		h.Write([]byte(s.rel))
		h.Write([]byte{0})
		h.Write(s.src)
		h.Write([]byte{0})
	}
	h.Write([]byte("data\x00"))
	h.Write(dataSrc)
	return hex.EncodeToString(h.Sum(nil))[:16]
}
