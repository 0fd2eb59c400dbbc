// Command goedges prints the file-level dependency edges of the Go packages under a root, as go/types sees
// them: the oracle the context server's Go resolution is checked against (stdlib only, works offline).
//
// An edge A -> B (A != B, both .go files under the root) exists when, in some build configuration:
//   - an identifier in A denotes a package-level const, var, type or func declared in B (Go's scoping rules:
//     not `_`, not locals, parameters, fields, methods or selectors on values; `pkg.Name` through an import
//     and dot-imports included), or
//   - A refers to a named type T and B declares a method with receiver T (a type's method set spans files), or
//   - A imports a project package with `import _` and B is one of that package's files.
//
// A non-test file sees only non-test files; a _test.go file of package p also sees p's other test files, and
// an external test package (p_test) sees p with its test files, as `go test` builds them. Build constraints
// are honoured per configuration and edges are united over several GOOS values, release tags and tags.
//
// Usage: go run main.go <root>; prints "A\tB" lines (paths relative to the root, sorted).
package main

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

type config struct {
	goos, goarch string
	release      int // highest go1.N release tag
	tags         []string
	cgo          bool
}

// Every GOOS once, and the common ones again with a tag set, an older release or cgo: the corpus's files are
// each built by at least one configuration.
var configs = func() []config {
	var out []config
	systems := [][2]string{{"linux", "amd64"}, {"darwin", "amd64"}, {"windows", "amd64"}, {"js", "wasm"}}
	others := [][2]string{{"freebsd", "amd64"}, {"openbsd", "amd64"}, {"netbsd", "amd64"}, {"dragonfly", "amd64"},
		{"solaris", "amd64"}, {"illumos", "amd64"}, {"plan9", "amd64"}, {"aix", "ppc64"}}
	for _, system := range append(append([][2]string{}, systems...), others...) {
		out = append(out, config{system[0], system[1], 19, nil, false})
	}
	for _, system := range systems {
		out = append(out,
			config{system[0], system[1], 19, []string{"finder"}, false},
			config{system[0], system[1], 19, []string{"gofuzz"}, false},
			config{system[0], system[1], 19, []string{"debug"}, false},
			config{system[0], system[1], 14, nil, false},
			config{system[0], system[1], 19, []string{"testcgo"}, true})
	}
	return out
}()

type module struct{ dir, path string }

var (
	root    string
	modules []module
	edges   = map[[2]string]bool{}
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: goedges <root>")
		os.Exit(2)
	}
	var err error
	root, err = filepath.Abs(os.Args[1])
	check(err)
	var dirs []string
	check(filepath.WalkDir(root, func(path string, entry os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !entry.IsDir() {
			if entry.Name() == "go.mod" {
				modules = append(modules, module{filepath.Dir(path), modulePath(path)})
			}
			return nil
		}
		name := entry.Name()
		if path != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "vendor") {
			return filepath.SkipDir
		}
		dirs = append(dirs, path)
		return nil
	}))
	sort.Slice(modules, func(i, j int) bool { return len(modules[i].path) > len(modules[j].path) })
	for _, cfg := range configs {
		run(cfg, dirs)
	}
	var lines []string
	for edge := range edges {
		lines = append(lines, edge[0]+"\t"+edge[1])
	}
	sort.Strings(lines)
	out := bufio.NewWriter(os.Stdout)
	for _, line := range lines {
		fmt.Fprintln(out, line)
	}
	check(out.Flush())
}

func modulePath(goMod string) string {
	data, err := os.ReadFile(goMod)
	check(err)
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "module ") {
			return strings.Trim(strings.TrimSpace(line[len("module "):]), `"`)
		}
	}
	return ""
}

// dirOf maps an import path to a folder under the root, or "".
func dirOf(importPath string) string {
	for _, m := range modules {
		if importPath == m.path {
			return m.dir
		}
		if strings.HasPrefix(importPath, m.path+"/") {
			return filepath.Join(m.dir, filepath.FromSlash(importPath[len(m.path)+1:]))
		}
	}
	return ""
}

type pkgFiles struct {
	files, tests, xtests []*ast.File
}

// One standard library for every configuration (linux's): only its types matter, not its files.
var stdlib = importer.ForCompiler(sharedFset, "source", nil)
var sharedFset = token.NewFileSet()

type run_ struct {
	cfg    config
	ctxt   build.Context
	fset   *token.FileSet
	parsed map[string]*pkgFiles
	plain  map[string]*types.Package // import path -> package without tests
	stdlib types.Importer
}

func run(cfg config, dirs []string) {
	ctxt := build.Default
	ctxt.GOOS, ctxt.GOARCH = cfg.goos, cfg.goarch
	ctxt.CgoEnabled = cfg.cgo
	ctxt.BuildTags = cfg.tags
	ctxt.ReleaseTags = nil
	for i := 1; i <= cfg.release; i++ {
		ctxt.ReleaseTags = append(ctxt.ReleaseTags, fmt.Sprintf("go1.%d", i))
	}
	r := &run_{cfg: cfg, ctxt: ctxt, fset: sharedFset, parsed: map[string]*pkgFiles{}, plain: map[string]*types.Package{}}
	// The standard library is type-checked from GOROOT's sources for this configuration, so expressions
	// over its types are typed (go/types records less inside an expression it could not type).
	r.stdlib = stdlib
	for _, dir := range dirs {
		p := r.load(dir)
		if p == nil || len(p.files)+len(p.tests)+len(p.xtests) == 0 {
			continue
		}
		path := importPathOf(dir)
		// Non-test files, alone.
		if len(p.files) > 0 {
			r.check(path, p.files, p.files, r.importer(""))
		}
		// Internal test files, with the package's other files.
		var withTests *types.Package
		if len(p.tests) > 0 || len(p.xtests) > 0 {
			withTests = r.check(path, append(append([]*ast.File{}, p.files...), p.tests...), p.tests, r.importer(""))
		}
		if len(p.xtests) > 0 {
			r.check(path+"_test", p.xtests, p.xtests, r.importerWith(path, withTests))
		}
	}
}

func importPathOf(dir string) string {
	for _, m := range modules {
		rel, err := filepath.Rel(m.dir, dir)
		if err == nil && !strings.HasPrefix(rel, "..") {
			if rel == "." {
				return m.path
			}
			return m.path + "/" + filepath.ToSlash(rel)
		}
	}
	return "local/" + filepath.ToSlash(dir)
}

func (r *run_) load(dir string) *pkgFiles {
	if p, ok := r.parsed[dir]; ok {
		return p
	}
	p := &pkgFiles{}
	entries, err := os.ReadDir(dir)
	if err != nil { // an import path under a module whose folder is not there
		r.parsed[dir] = p
		return p
	}
	for _, entry := range entries {
		name := entry.Name()
		if entry.IsDir() || !strings.HasSuffix(name, ".go") {
			continue
		}
		if ok, err := r.ctxt.MatchFile(dir, name); err != nil || !ok {
			continue
		}
		file, err := parser.ParseFile(r.fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		switch {
		case !strings.HasSuffix(name, "_test.go"):
			p.files = append(p.files, file)
		case strings.HasSuffix(file.Name.Name, "_test"):
			p.xtests = append(p.xtests, file)
		default:
			p.tests = append(p.tests, file)
		}
	}
	r.parsed[dir] = p
	return p
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

func (r *run_) importerWith(self string, withTests *types.Package) types.Importer {
	return importerFunc(func(path string) (*types.Package, error) {
		if path == self && withTests != nil {
			return withTests, nil
		}
		return r.importer("").Import(path)
	})
}

// importer type-checks project packages from source (without their tests) and stands in an empty package
// for anything else: only identifiers that denote project declarations matter here.
func (r *run_) importer(string) types.Importer {
	return importerFunc(func(path string) (*types.Package, error) {
		if pkg, ok := r.plain[path]; ok {
			return pkg, nil
		}
		dir := dirOf(path)
		var p *pkgFiles
		if dir != "" {
			p = r.load(dir)
		}
		if p == nil && isStdlib(path) {
			if pkg, err := r.stdlib.Import(path); err == nil {
				r.plain[path] = pkg
				return pkg, nil
			}
		}
		if p == nil || len(p.files) == 0 {
			name := path[strings.LastIndex(path, "/")+1:]
			pkg := types.NewPackage(path, name)
			pkg.MarkComplete()
			r.plain[path] = pkg
			return pkg, nil
		}
		r.plain[path] = types.NewPackage(path, p.files[0].Name.Name) // cycle guard
		pkg := r.typeCheck(path, p.files, nil)
		r.plain[path] = pkg
		return pkg, nil
	})
}

func isStdlib(path string) bool {
	first := path
	if i := strings.Index(path, "/"); i >= 0 {
		first = path[:i]
	}
	return !strings.Contains(first, ".")
}

func (r *run_) typeCheck(path string, files []*ast.File, info *types.Info) *types.Package {
	conf := types.Config{Importer: r.importer(""), Error: func(error) {}, FakeImportC: true}
	pkg, _ := conf.Check(path, r.fset, files, info)
	return pkg
}

// check type-checks files as one package and records the edges of the files in `from`.
func (r *run_) check(path string, files, from []*ast.File, imp types.Importer) *types.Package {
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: imp, Error: func(error) {}, FakeImportC: true}
	pkg, _ := conf.Check(path, r.fset, files, info)
	recording := map[string]bool{}
	for _, f := range from {
		recording[r.fset.Position(f.Pos()).Filename] = true
	}
	for ident, obj := range info.Uses {
		fromFile := r.fset.Position(ident.Pos()).Filename
		if !recording[fromFile] || obj.Pkg() == nil || obj.Parent() != obj.Pkg().Scope() || obj.Name() == "_" {
			continue
		}
		r.edge(fromFile, obj.Pos())
		if tn, ok := obj.(*types.TypeName); ok && !tn.IsAlias() {
			if named, ok := tn.Type().(*types.Named); ok {
				for i := 0; i < named.NumMethods(); i++ {
					r.edge(fromFile, named.Method(i).Pos())
				}
			}
		}
	}
	for _, f := range from {
		fromFile := r.fset.Position(f.Pos()).Filename
		for _, spec := range f.Imports {
			if spec.Name == nil || spec.Name.Name != "_" {
				continue
			}
			dir := dirOf(strings.Trim(spec.Path.Value, `"`))
			if dir == "" {
				continue
			}
			for _, target := range r.load(dir).files {
				r.edge(fromFile, target.Pos())
			}
		}
	}
	return pkg
}

func (r *run_) edge(fromFile string, to token.Pos) {
	toFile := r.fset.Position(to).Filename
	if toFile == "" || toFile == fromFile {
		return
	}
	a, errA := filepath.Rel(root, fromFile)
	b, errB := filepath.Rel(root, toFile)
	if errA != nil || errB != nil || strings.HasPrefix(a, "..") || strings.HasPrefix(b, "..") {
		return
	}
	edges[[2]string{filepath.ToSlash(a), filepath.ToSlash(b)}] = true
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
