package lint

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// errorCalls are the functions whose first argument is a MySQL error
// number.
var errorCalls = map[string]bool{"Warn": true, "sqlError": true, "SQLError": true, "NewSQLError": true, "keepText": true}

// isErrorNumber reports whether e is an integer literal in the range of
// MySQL's and MariaDB's error numbers.
func isErrorNumber(e ast.Expr) bool {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.INT {
		return false
	}
	n, err := strconv.Atoi(lit.Value)
	return err == nil && n >= 1000 && n < 5000
}

// TestErrorNumbersInTable fails when a MySQL error number is written as
// a literal outside internal/errtable: a constant named er... or ER...,
// the first argument of a call that makes or reports an error (Warn,
// SQLError, ...), or the Num of a mysql.SQLError. Every number has its
// name in errtable or in vitess's mysql package.
func TestErrorNumbersInTable(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != root && (strings.HasPrefix(n, ".") || n == "testdata" || n == "errtable") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		report := func(n ast.Node, what string) {
			t.Errorf("%s:%d: %s (name it in internal/errtable)", rel, fset.Position(n.Pos()).Line, what)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.ValueSpec:
				for i, name := range x.Names {
					if i < len(x.Values) && isErrorNumber(x.Values[i]) && strings.HasPrefix(strings.ToLower(name.Name), "er") {
						report(x, "error number constant "+name.Name)
					}
				}
			case *ast.CallExpr:
				name := ""
				switch fn := x.Fun.(type) {
				case *ast.Ident:
					name = fn.Name
				case *ast.SelectorExpr:
					name = fn.Sel.Name
				}
				if errorCalls[name] && len(x.Args) > 0 && isErrorNumber(x.Args[0]) {
					report(x, "error number literal in "+name)
				}
			case *ast.KeyValueExpr:
				if k, ok := x.Key.(*ast.Ident); ok && k.Name == "Num" && isErrorNumber(x.Value) {
					report(x, "error number literal as Num")
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
