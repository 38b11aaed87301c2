// Package lint holds tests of the code's own rules (docs/ARCHITECTURE.md
// §1): which of this module's packages may import which.
package lint

import (
	"go/build"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

const module = "github.com/handlerdb/handlerdb/"

// forbidden lists, for a package of this module (its path under the
// module), the packages of the module it must not import, directly or
// through others. Test files are not checked: a package's tests may start
// a whole server.
var forbidden = map[string][]string{
	// The engine, and what it is built on, know no protocol.
	"internal/engine":    {"internal/hsproto", "internal/hsfront", "internal/sqlbackend", "internal/mariadb", "internal/sqlfront", "internal/replica", "internal/admin", "internal/config", "internal/server", "internal/errtable"},
	"internal/types":     {"internal/engine", "internal/hsproto", "internal/sqlbackend", "internal/errtable"},
	"internal/collation": {"internal/types", "internal/engine"},
	"internal/hsproto":   {"internal/engine", "internal/types", "internal/collation", "internal/errtable"},
	"hs":                 {"internal/engine", "internal/hsfront", "internal/sqlfront", "internal/server"},
	// The backend knows no dialect and no listener.
	"internal/sqlbackend": {"internal/mariadb", "internal/sqlfront", "internal/hsfront", "internal/server", "internal/replica", "internal/admin", "internal/config"},
	// The dialect is above the backend and below the listener.
	"internal/mariadb": {"internal/sqlfront", "internal/hsfront", "internal/server", "internal/replica", "internal/admin", "internal/config"},
	// The connection machinery knows no protocol: fronts plug in.
	"internal/netloop": {"internal/hsproto", "internal/hsfront", "internal/sqlfront", "internal/sqlbackend", "internal/mariadb", "internal/replica", "internal/admin", "internal/config", "internal/server", "internal/errtable"},
	// The memcached codec knows nothing but the protocol.
	"internal/mcproto": {"internal/engine", "internal/types", "internal/netloop", "internal/hsproto", "internal/mcfront"},
	// The fronts never import each other.
	"internal/hsfront":  {"internal/sqlfront", "internal/mcfront", "internal/sqlbackend", "internal/mariadb", "internal/replica", "internal/admin", "internal/config", "internal/server"},
	"internal/sqlfront": {"internal/hsfront", "internal/mcfront", "internal/replica", "internal/admin", "internal/config", "internal/server"},
	"internal/mcfront":  {"internal/hsfront", "internal/sqlfront", "internal/sqlbackend", "internal/mariadb", "internal/replica", "internal/admin", "internal/config", "internal/server", "internal/hsproto"},
	"internal/replica":  {"internal/hsfront", "internal/sqlfront", "internal/admin", "internal/config", "internal/server"},
	// Settings sit below the fronts: server builds their options.
	"internal/config": {"internal/hsfront", "internal/sqlfront", "internal/sqlbackend", "internal/mariadb", "internal/replica", "internal/admin", "internal/server"},
	// The admin listener reads the fronts through its own small
	// interfaces (admin.FrontSource, ReplicaSource); server adapts them.
	"internal/admin": {"internal/hsfront", "internal/sqlfront", "internal/sqlbackend", "internal/mariadb", "internal/replica", "internal/server"},
	// The test fixture is importable by the backend's own tests.
	"internal/sqltest": {"internal/sqlbackend", "internal/mariadb", "internal/sqlfront"},
	// Only commands and tests start a server.
	"internal/errtable": {"internal/sqlfront", "internal/hsfront", "internal/server", "internal/sqlbackend"},
}

// moduleImports returns, for each package of the module (its path under
// the module), the module's packages its non-test files import. It reads
// the files itself (go/build), so that go test's cache sees them.
func moduleImports(t *testing.T) map[string][]string {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if n := d.Name(); path != root && (strings.HasPrefix(n, ".") || n == "testdata") {
			return filepath.SkipDir
		}
		p, err := build.Default.ImportDir(path, 0)
		if err != nil {
			return nil // no Go files here
		}
		rel, _ := filepath.Rel(root, path)
		var ours []string
		for _, imp := range p.Imports {
			if strings.HasPrefix(imp, module) {
				ours = append(ours, strings.TrimPrefix(imp, module))
			}
		}
		out[filepath.ToSlash(rel)] = ours
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestForbiddenImports fails when a package imports, directly or not, a
// package the rules above forbid it.
func TestForbiddenImports(t *testing.T) {
	direct := moduleImports(t)
	for pkg, bans := range forbidden {
		if _, ok := direct[pkg]; !ok {
			t.Errorf("rule for %s, which is not a package of the module", pkg)
			continue
		}
		// every package pkg reaches, with the first step of the path
		seen := map[string]string{}
		stack := []string{pkg}
		for len(stack) > 0 {
			p := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, q := range direct[p] {
				if _, ok := seen[q]; !ok {
					seen[q] = p
					stack = append(stack, q)
				}
			}
		}
		for _, ban := range bans {
			if via, ok := seen[ban]; ok {
				t.Errorf("%s imports %s (through %s; docs/ARCHITECTURE.md §1 forbids it)", pkg, ban, via)
			}
		}
	}
}
