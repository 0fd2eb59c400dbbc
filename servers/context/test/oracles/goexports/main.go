// The oracle for a Go file's exported declarations: the Go toolchain's own go/parser, go/ast and go/format.
// Exported (ast.IsExported): top-level funcs, types, consts and vars, and methods whose receiver's base type
// is exported too (named Type.Method). Each one's content is its gofmt-printed node without comments (a
// FuncDecl without its doc, a TypeSpec, a ValueSpec); a const spec without values repeats the type and
// values of the last spec of its group that has them (whitespace runs as one space), and when those use iota, its index in the group.
// Usage: goexports ROOT FILE...; prints {file: {name: content}} as JSON, null for a file that does not parse.
package main

import (
	"bytes"
	"encoding/json"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
)

var iota = regexp.MustCompile(`\biota\b`)

// The printer keeps a blank line where a comment was: whitespace runs count as one space.
var blanks = regexp.MustCompile(`\s+`)

func printed(fset *token.FileSet, node any) string {
	var out bytes.Buffer
	if err := format.Node(&out, fset, node); err != nil {
		panic(err)
	}
	return blanks.ReplaceAllString(out.String(), " ")
}

func receiverType(expr ast.Expr) string {
	for {
		switch e := expr.(type) {
		case *ast.StarExpr:
			expr = e.X
		case *ast.ParenExpr:
			expr = e.X
		case *ast.IndexExpr:
			expr = e.X
		case *ast.IndexListExpr:
			expr = e.X
		case *ast.Ident:
			return e.Name
		default:
			return ""
		}
	}
}

func exported(fset *token.FileSet, file *ast.File) map[string]string {
	result := map[string]string{}
	add := func(name string, content string) {
		if previous, ok := result[name]; ok {
			content = previous + "\n" + content
		}
		result[name] = content
	}
	for _, decl := range file.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			d.Doc = nil
			name := d.Name.Name
			if d.Recv != nil && len(d.Recv.List) > 0 {
				receiver := receiverType(d.Recv.List[0].Type)
				if !ast.IsExported(receiver) {
					continue
				}
				name = receiver + "." + name
			}
			if ast.IsExported(d.Name.Name) {
				add(name, printed(fset, d))
			}
		case *ast.GenDecl:
			inherited := ""
			for index, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					s.Doc, s.Comment = nil, nil
					if ast.IsExported(s.Name.Name) {
						add(s.Name.Name, printed(fset, s))
					}
				case *ast.ValueSpec:
					s.Doc, s.Comment = nil, nil
					content := printed(fset, s)
					if d.Tok == token.CONST {
						if len(s.Values) > 0 {
							inherited = "="
							if s.Type != nil {
								inherited = printed(fset, s.Type) + inherited
							}
							for _, value := range s.Values {
								inherited += printed(fset, value) + ","
							}
						} else {
							content += " " + inherited
						}
						if iota.MatchString(inherited) {
							content += " #" + strconv.Itoa(index)
						}
					}
					for _, name := range s.Names {
						if ast.IsExported(name.Name) {
							add(name.Name, content)
						}
					}
				}
			}
		}
	}
	return result
}

func main() {
	root := os.Args[1]
	answer := map[string]map[string]string{}
	for _, name := range os.Args[2:] {
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, filepath.Join(root, name), nil, 0)
		if err != nil {
			answer[name] = nil
			continue
		}
		answer[name] = exported(fset, file)
	}
	if err := json.NewEncoder(os.Stdout).Encode(answer); err != nil {
		panic(err)
	}
}
