package policies

import (
	"embed"
	"io/fs"
	"path"
	"sort"
)

// libFS holds the built-in library. lib.rego (package weir.lib) is always loaded; the three
// decision packages are loaded unless the bundle data says library: false.
//
//go:embed lib/*.rego
var libFS embed.FS

// libHelpers is the file that stays loaded when a bundle switches the library off.
const libHelpers = "lib/lib.rego"

// libPrefix names the library's files in error messages and test results.
const libPrefix = "builtin:"

type source struct {
	name string // path shown in errors: the file path, or builtin:lib/<file> for the library
	rel  string // path relative to the bundle directory, hashed into the revision
	src  []byte
	test bool
}

// librarySources returns the library's files in name order; decisions selects whether the
// decision packages are included.
func librarySources(decisions bool) []source {
	entries, _ := fs.ReadDir(libFS, "lib")
	var out []source
	for _, e := range entries {
		name := path.Join("lib", e.Name())
		if !decisions && name != libHelpers {
			continue
		}
		src, _ := libFS.ReadFile(name)
		out = append(out, source{name: libPrefix + name, rel: libPrefix + name, src: src})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}
